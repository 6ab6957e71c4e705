import { Alert, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';

/** A page whose feature has not been built yet: its title and an honest notice, nothing fake. */
export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>{title}</Title>
      <Alert variant="light" color="blue" title="Coming soon" icon={<IconTools aria-hidden size={20} />}>
        <Text size="sm">{description}</Text>
      </Alert>
    </Stack>
  );
}
