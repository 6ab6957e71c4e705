import { List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconChartBar, IconEdit, IconFolders, IconPalette, IconShieldLock } from '@tabler/icons-react';

const points = [
  { key: 'design', icon: IconPalette, text: msg`Design codes with templates, colours, logos and frames` },
  { key: 'dynamic', icon: IconEdit, text: msg`Change where a dynamic code points without reprinting it` },
  { key: 'scans', icon: IconChartBar, text: msg`See every scan: trends, devices, locations and hours` },
  { key: 'folders', icon: IconFolders, text: msg`Keep codes organised in folders; download PNG, SVG or PDF` },
  {
    key: 'self-hosted',
    icon: IconShieldLock,
    text: msg`Self-hosted: your codes and scan data stay on your server`,
  },
];

export function MarketingPanel() {
  const { t } = useLingui();
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
        <Trans>QR codes that keep working for you</Trans>
      </Title>
      <Text size="lg" opacity={0.9}>
        <Trans>Create static and dynamic QR codes, make them yours, and follow every scan.</Trans>
      </Text>
      <List spacing="md" size="md" center>
        {points.map(({ key, icon: Icon, text }) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon color="white" variant="white" radius="xl" size={32} aria-hidden>
                <Icon size={18} color="var(--mantine-color-blue-7)" />
              </ThemeIcon>
            }
          >
            <Text c="white">{t(text)}</Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
