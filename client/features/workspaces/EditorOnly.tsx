import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { roleAtLeast, roleLabels } from '../../../src/workspaces/workspace.schema';
import { useCurrentWorkspace } from './use-current-workspace';

export const VIEWER_CANNOT_EDIT = 'Your role in this workspace cannot create or edit codes';

/**
 * A page that creates or edits codes (the designer): shown to an editor and up; a viewer reads why not,
 * instead of filling in a form the server would refuse.
 */
export function EditorOnly({ children }: { children: ReactNode }) {
  const { workspace } = useCurrentWorkspace();
  // Loaded before the page (routes.ts); a workspace not found is said by the shell instead.
  if (!workspace) return null;
  if (roleAtLeast(workspace.role, 'editor')) return children;
  return (
    <Stack gap="md" maw={640}>
      <Alert
        variant="light"
        color="gray"
        icon={<IconLock size={20} aria-hidden />}
        title={VIEWER_CANNOT_EDIT}
        role="status"
      >
        <Text size="sm">
          You are a {roleLabels[workspace.role].toLowerCase()} in {workspace.name}: you can see its QR codes
          and analytics, and download the codes. Ask one of its admins for the editor role to create or change
          codes.
        </Text>
      </Alert>
      <div>
        <Button component={Link} to="/my-qr-codes" variant="default">
          Back to My QR Codes
        </Button>
      </div>
    </Stack>
  );
}
