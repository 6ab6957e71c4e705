import { List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar, IconEdit, IconFolders, IconPalette, IconShieldLock } from '@tabler/icons-react';

const points = [
  { icon: IconPalette, text: 'Design codes with templates, colours, logos and frames' },
  { icon: IconEdit, text: 'Change where a dynamic code points without reprinting it' },
  { icon: IconChartBar, text: 'See every scan: trends, devices, locations and hours' },
  { icon: IconFolders, text: 'Keep codes organised in folders; download PNG, SVG or PDF' },
  { icon: IconShieldLock, text: 'Self-hosted: your codes and scan data stay on your server' },
];

export function MarketingPanel() {
  return (
    <Stack
      gap="xl"
      p={48}
      justify="center"
      h="100%"
      style={{
        background: 'linear-gradient(135deg, var(--mantine-color-blue-7), var(--mantine-color-grape-7))',
        color: 'white',
      }}
    >
      <Title order={2} fz={36} lh={1.2}>
        QR codes that keep working for you
      </Title>
      <Text size="lg" opacity={0.9}>
        Create static and dynamic QR codes, make them yours, and follow every scan.
      </Text>
      <List spacing="md" size="md" center>
        {points.map(({ icon: Icon, text }) => (
          <List.Item
            key={text}
            icon={
              <ThemeIcon color="white" variant="white" radius="xl" size={32} aria-hidden>
                <Icon size={18} color="var(--mantine-color-blue-7)" />
              </ThemeIcon>
            }
          >
            <Text c="white">{text}</Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
