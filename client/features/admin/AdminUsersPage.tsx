import { ActionIcon, Badge, Button, Group, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { IconDots, IconInfinity, IconKey, IconPencil, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminUser } from '../../../src/admin/admin.schema';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useCurrentUser } from '../auth/use-auth';
import { PlanBadge, SearchBox, statusLabel, UserCell, useUserList } from './user-list';
import { UserTable } from './UserTable';
import { DeleteUserModal } from './users/DeleteUserModal';
import { ResetPasswordModal } from './users/ResetPasswordModal';
import { UserFormModal } from './users/UserFormModal';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'reset' | 'delete'; user: AdminUser } | null;
/** Badges and dates keep their whole label: the table scrolls sideways instead. */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function RowActions({ user, self, open }: { user: AdminUser; self: boolean; open: (d: Dialog) => void }) {
  const utils = trpc.useUtils();
  const toggle = trpc.admin.toggleUnlimited.useMutation({
    onSuccess: async ({ message }) => {
      notify.success('Success', message);
      await Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
    },
    onError: (e) => notify.error(`Failed to toggle unlimited access: ${apiError(e, 'Error').message}`),
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Actions for ${user.username}`}
          loading={toggle.isPending}
        >
          <IconDots aria-hidden size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconPencil aria-hidden size={16} />}
          onClick={() => open({ kind: 'edit', user })}
        >
          Edit
        </Menu.Item>
        <Menu.Item
          leftSection={<IconKey aria-hidden size={16} />}
          onClick={() => open({ kind: 'reset', user })}
        >
          Reset password
        </Menu.Item>
        <Menu.Item
          leftSection={<IconInfinity aria-hidden size={16} />}
          onClick={() => toggle.mutate({ id: user.id })}
        >
          {user.hasUnlimitedAccess ? 'Remove unlimited access' : 'Grant unlimited access'}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          disabled={self}
          leftSection={<IconTrash aria-hidden size={16} />}
          onClick={() => open({ kind: 'delete', user })}
        >
          {self ? 'Delete (not your own account)' : 'Delete'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** /admin/users: every user, searched, sorted and paged by the server, with their actions. */
export function AdminUsersPage() {
  const list = useUserList('users');
  const me = useCurrentUser();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>Users</Title>
          <Text c="dimmed" size="sm">
            Create, edit and remove accounts; reset passwords; grant unlimited codes.
          </Text>
        </div>
        <Button
          leftSection={<IconUserPlus aria-hidden size={18} />}
          onClick={() => setDialog({ kind: 'create' })}
        >
          Create User
        </Button>
      </Group>
      <SearchBox list={list} label="Search users" />
      <UserTable
        list={list}
        minWidth={940}
        columns={[
          { label: 'Username', sortBy: 'username' },
          { label: 'QR Codes', sortBy: 'qrCodeCount' },
          { label: 'Plan', sortBy: 'tier' },
          { label: 'Status', sortBy: 'status' },
          { label: 'Verified' },
          { label: 'Admin' },
          { label: 'Created', sortBy: 'createdAt' },
        ]}
        cells={(user) => (
          <>
            <Table.Td>
              <UserCell user={user} />
            </Table.Td>
            <Table.Td>{user.qrCodeCount.toLocaleString()}</Table.Td>
            <Table.Td style={NO_WRAP}>
              <Group gap={4} wrap="nowrap">
                <PlanBadge user={user} />
                {user.hasUnlimitedAccess && (
                  <Badge miw="max-content" variant="outline" color="teal">
                    Unlimited
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>{statusLabel(user.subscriptionStatus)}</Table.Td>
            <Table.Td style={NO_WRAP}>
              <Badge miw="max-content" variant="dot" color={user.emailVerified ? 'teal' : 'gray'}>
                {user.emailVerified ? 'Verified' : 'Unverified'}
              </Badge>
            </Table.Td>
            <Table.Td style={NO_WRAP}>
              {user.isAdmin ? (
                <Badge miw="max-content" color="blue">
                  Admin
                </Badge>
              ) : (
                <Text size="sm" c="dimmed">
                  No
                </Text>
              )}
            </Table.Td>
            <Table.Td style={NO_WRAP}>{formatDate(user.createdAt)}</Table.Td>
          </>
        )}
        actions={(user) => <RowActions user={user} self={user.id === me?.id} open={setDialog} />}
      />
      {dialog?.kind === 'create' && <UserFormModal opened onClose={close} />}
      {dialog?.kind === 'edit' && <UserFormModal opened user={dialog.user} onClose={close} />}
      {dialog?.kind === 'reset' && <ResetPasswordModal user={dialog.user} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteUserModal user={dialog.user} onClose={close} />}
    </Stack>
  );
}
