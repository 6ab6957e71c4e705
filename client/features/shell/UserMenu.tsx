import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconCrown,
  IconHelpCircle,
  IconLogout,
  IconSettings,
  IconShieldCog,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { initialsOf, type User } from '../../../src/auth/auth.schema';
import { useLogout } from '../auth/use-auth';

export function UserMenu({ user, onHelp }: { user: User; onHelp: () => void }) {
  const logout = useLogout();
  const displayName = user.name?.trim() || user.username;
  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${displayName}`} style={{ borderRadius: '50%' }}>
          <Avatar src={user.profilePicture} alt={displayName} color="blue" radius="xl">
            {initialsOf(user)}
          </Avatar>
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
          Settings
        </Menu.Item>
        {/* On narrow screens Help and Upgrade move here from the header. */}
        <Menu.Item hiddenFrom="sm" onClick={onHelp} leftSection={<IconHelpCircle size={16} aria-hidden />}>
          Help
        </Menu.Item>
        {!user.isAdmin && (
          <Menu.Item
            hiddenFrom="sm"
            component={Link}
            to="/upgrade"
            leftSection={<IconCrown size={16} aria-hidden />}
          >
            Upgrade to Pro
          </Menu.Item>
        )}
        {user.isAdmin && (
          <>
            <Menu.Divider />
            <Menu.Label>Admin</Menu.Label>
            <Menu.Item component={Link} to="/admin" leftSection={<IconShieldCog size={16} aria-hidden />}>
              Admin Dashboard
            </Menu.Item>
            <Menu.Item component={Link} to="/admin/users" leftSection={<IconUsers size={16} aria-hidden />}>
              User Management
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
          {logout.isPending ? 'Logging out…' : 'Log out'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
