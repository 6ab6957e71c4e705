import { Trans } from '@lingui/react/macro';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Text fz={64} fw={800} c="dimmed" lh={1} aria-hidden>
          404
        </Text>
        <Title order={1}>
          <Trans>Page Not Found</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>The page you are looking for does not exist or has been moved.</Trans>
        </Text>
        <Button component={Link} to="/" mt="sm">
          <Trans>Go to Dashboard</Trans>
        </Button>
      </Stack>
    </Center>
  );
}
