import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Button, Group, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { IconDots, IconInfinity, IconKey, IconPencil, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminUser } from '../../../src/admin/admin.schema';
import { formatCount, formatDate } from '../../lib/format';
import { translateShared } from '../../i18n/shared-messages';
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
  const { t } = useLingui();
  const username = user.username;
  const utils = trpc.useUtils();
  const toggle = trpc.admin.toggleUnlimited.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(t`Success`, translateShared(message));
      await Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
    },
    onError: (e) => {
      const reason = apiError(e, t`Error`).message;
      notify.error(t`Failed to toggle unlimited access: ${reason}`);
    },
  });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t`Actions for ${username}`}
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
          <Trans>Edit</Trans>
        </Menu.Item>
        <Menu.Item
          leftSection={<IconKey aria-hidden size={16} />}
          onClick={() => open({ kind: 'reset', user })}
        >
          <Trans>Reset password</Trans>
        </Menu.Item>
        <Menu.Item
          leftSection={<IconInfinity aria-hidden size={16} />}
          onClick={() => toggle.mutate({ id: user.id })}
        >
          {user.hasUnlimitedAccess ? t`Remove unlimited access` : t`Grant unlimited access`}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          disabled={self}
          leftSection={<IconTrash aria-hidden size={16} />}
          onClick={() => open({ kind: 'delete', user })}
        >
          {self ? t`Delete (not your own account)` : t`Delete`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** /admin/users: every user, searched, sorted and paged by the server, with their actions. */
export function AdminUsersPage() {
  const { t } = useLingui();
  const list = useUserList('users');
  const me = useCurrentUser();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>
            <Trans>Users</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>Create, edit and remove accounts; reset passwords; grant unlimited codes.</Trans>
          </Text>
        </div>
        <Button
          leftSection={<IconUserPlus aria-hidden size={18} />}
          onClick={() => setDialog({ kind: 'create' })}
        >
          <Trans>Create User</Trans>
        </Button>
      </Group>
      <SearchBox list={list} label={t`Search users`} />
      <UserTable
        list={list}
        minWidth={940}
        columns={[
          { label: t`Username`, sortBy: 'username' },
          { label: t`QR Codes`, sortBy: 'qrCodeCount' },
          { label: t`Plan`, sortBy: 'tier' },
          { label: t`Status`, sortBy: 'status' },
          { label: t({ message: 'Verified', context: 'column: e-mail address verified' }) },
          { label: t({ message: 'Admin', context: 'column: is an administrator' }) },
          {
            label: t({ message: 'Created', context: 'column: date the account was created' }),
            sortBy: 'createdAt',
          },
        ]}
        cells={(user) => (
          <>
            <Table.Td>
              <UserCell user={user} />
            </Table.Td>
            <Table.Td>{formatCount(user.qrCodeCount)}</Table.Td>
            <Table.Td style={NO_WRAP}>
              <Group gap={4} wrap="nowrap">
                <PlanBadge user={user} />
                {user.hasUnlimitedAccess && (
                  <Badge miw="max-content" variant="outline" color="teal">
                    <Trans>Unlimited</Trans>
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>{statusLabel(user.subscriptionStatus)}</Table.Td>
            <Table.Td style={NO_WRAP}>
              <Badge miw="max-content" variant="dot" color={user.emailVerified ? 'teal' : 'gray'}>
                {user.emailVerified
                  ? t({ message: 'Verified', context: 'e-mail address' })
                  : t({ message: 'Unverified', context: 'e-mail address' })}
              </Badge>
            </Table.Td>
            <Table.Td style={NO_WRAP}>
              {user.isAdmin ? (
                <Badge miw="max-content" color="blue">
                  <Trans context="badge: the user is an administrator">Admin</Trans>
                </Badge>
              ) : (
                <Text size="sm" c="dimmed">
                  <Trans context="not an administrator">No</Trans>
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
