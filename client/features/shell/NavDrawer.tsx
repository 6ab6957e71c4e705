import { Box, Drawer, Group } from '@mantine/core';
import type { User } from '../../../src/auth/auth.schema';
import { Brand } from './Brand';
import { NavContent } from './NavContent';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** Under 768 px: a slide-in sidebar over a dark overlay that closes it on tap (AppLayout loads it apart). */
export function NavDrawer({
  opened,
  onClose,
  width,
  user,
}: {
  opened: boolean;
  onClose: () => void;
  width: number;
  user: User;
}) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size={width}
      padding={0}
      withCloseButton={false}
      overlayProps={{ backgroundOpacity: 0.6 }}
      title={null}
    >
      <Group h={60} px="md">
        <Brand />
      </Group>
      <Box px="sm" pb="xs">
        <WorkspaceSwitcher inDrawer onNavigate={onClose} />
      </Box>
      <NavContent user={user} onNavigate={onClose} />
    </Drawer>
  );
}
