import { Title } from '@mantine/core';

export function UpgradePage() {
  return <Title order={1}>Upgrade to Pro</Title>;
}
