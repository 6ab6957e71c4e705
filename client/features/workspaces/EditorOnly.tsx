import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { roleAtLeast } from '../../../src/workspaces/workspace.schema';
import { roleInSentence } from './role-words';
import { useCurrentWorkspace } from './use-current-workspace';

export const VIEWER_CANNOT_EDIT = msg`Your role in this workspace cannot create or edit codes`;

/**
 * A page that creates or edits codes (the designer): shown to an editor and up; a viewer reads why not,
 * instead of filling in a form the server would refuse.
 */
export function EditorOnly({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const { workspace } = useCurrentWorkspace();
  // Loaded before the page (routes.ts); a workspace not found is said by the shell instead.
  if (!workspace) return null;
  if (roleAtLeast(workspace.role, 'editor')) return children;
  const role = roleInSentence(workspace.role);
  const name = workspace.name;
  return (
    <Stack gap="md" maw={640}>
      <Alert
        variant="light"
        color="gray"
        icon={<IconLock size={20} aria-hidden />}
        title={t(VIEWER_CANNOT_EDIT)}
        role="status"
      >
        <Text size="sm">
          <Trans>
            You are a {role} in {name}: you can see its QR codes and analytics, and download the codes. Ask
            one of its admins for the editor role to create or change codes.
          </Trans>
        </Text>
      </Alert>
      <div>
        <Button component={Link} to="/my-qr-codes" variant="default">
          <Trans>Back to My QR Codes</Trans>
        </Button>
      </div>
    </Stack>
  );
}
