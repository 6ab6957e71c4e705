import { Title } from '@mantine/core';

export function AdminDashboardPage() {
  return <Title order={1}>Admin Dashboard</Title>;
}
