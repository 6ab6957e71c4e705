import { Title } from '@mantine/core';

export function AdminSubscriptionsPage() {
  return <Title order={1}>Subscriptions</Title>;
}
