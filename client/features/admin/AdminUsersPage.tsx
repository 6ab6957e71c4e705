import { Title } from '@mantine/core';

export function AdminUsersPage() {
  return <Title order={1}>User Management</Title>;
}
