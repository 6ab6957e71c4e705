import { Trans, useLingui } from '@lingui/react/macro';
import { Avatar, Menu, Text, UnstyledButton, useMatches, VisuallyHidden } from '@mantine/core';
import {
  IconCrown,
  IconHelpCircle,
  IconLogout,
  IconSettings,
  IconShieldCog,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { User } from '../../../src/auth/auth.schema';
import { initialsOf } from '../../../src/auth/initials';
import { translateShared } from '../../i18n/shared-messages';
import { useLogout } from '../auth/use-auth';
import { useWorkspacePlan } from '../workspaces/use-workspace-plan';

export function UserMenu({ user, onHelp }: { user: User; onHelp: () => void }) {
  const { t } = useLingui();
  const logout = useLogout();
  const displayName = user.name?.trim() || user.username;
  // Help and Upgrade join the menu on narrow screens, where the header has no room for them. Left out,
  // not hidden with CSS, elsewhere: the arrow keys would stop at an item that cannot take the focus.
  const narrow = useMatches({ base: true, sm: false });
  const { offer } = useWorkspacePlan(user);
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        {/* Named by text, not aria-label: a name that does not contain the visible initials fails 2.5.3. */}
        <UnstyledButton style={{ borderRadius: '50%' }}>
          <Avatar src={user.profilePicture} alt="" color="blue" radius="xl" aria-hidden>
            {initialsOf(user)}
          </Avatar>
          <VisuallyHidden>
            <Trans>Account menu for {displayName}</Trans>
          </VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate="end">
            {displayName}
          </Text>
          {user.email && (
            <Text size="xs" c="dimmed" truncate="end">
              {user.email}
            </Text>
          )}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          <Trans>Settings</Trans>
        </Menu.Item>
        {narrow && (
          <Menu.Item onClick={onHelp} leftSection={<IconHelpCircle size={16} aria-hidden />}>
            <Trans>Help</Trans>
          </Menu.Item>
        )}
        {narrow && offer && (
          <Menu.Item component={Link} to="/upgrade" leftSection={<IconCrown size={16} aria-hidden />}>
            {translateShared(offer.label)}
          </Menu.Item>
        )}
        {user.isAdmin && (
          <>
            <Menu.Divider />
            <Menu.Label>
              <Trans context="the administration pages">Admin</Trans>
            </Menu.Label>
            <Menu.Item component={Link} to="/admin" leftSection={<IconShieldCog size={16} aria-hidden />}>
              <Trans>Admin Dashboard</Trans>
            </Menu.Item>
            <Menu.Item component={Link} to="/admin/users" leftSection={<IconUsers size={16} aria-hidden />}>
              <Trans>User Management</Trans>
            </Menu.Item>
          </>
        )}
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
        >
          {logout.isPending ? t`Logging out…` : t`Log out`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
