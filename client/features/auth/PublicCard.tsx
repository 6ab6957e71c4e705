import { Center, Group, Paper, Stack, ThemeIcon, Title } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';

/** The frame of the public account pages (/reset-password, /verify-email). */
export function PublicCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack w="100%" maw={440} gap="lg">
        <Group gap="sm" justify="center">
          <ThemeIcon size={40} radius="md" aria-hidden>
            <IconQrcode size={24} />
          </ThemeIcon>
          <Title order={1} size="h2">
            QR Creator
          </Title>
        </Group>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          <Stack gap="md">
            <Title order={2} size="h3">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
