import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Menu, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconCheck,
  IconMail,
  IconPlus,
  IconSelector,
  IconSettings,
  IconUser,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import type { WorkspaceRole } from '../../../src/workspaces/roles';
import type { Workspace } from '../../../src/workspaces/workspace.schema';
import { usePendingInvitations } from '../workspaces/use-invitations';
import {
  useCurrentWorkspace,
  useSwitchWorkspace,
  useWorkspaceList,
} from '../workspaces/use-current-workspace';

// The dialog's form (and zod, which checks it) is not part of every page's frame: it loads when opened.
const CreateWorkspaceDialog = lazy(() =>
  import('../workspaces/CreateWorkspaceDialog').then((m) => ({ default: m.CreateWorkspaceDialog })),
);

function KindIcon({ workspace, size = 16 }: { workspace: Pick<Workspace, 'kind'>; size?: number }) {
  return workspace.kind === 'team' ? (
    <IconUsersGroup size={size} aria-hidden />
  ) : (
    <IconUser size={size} aria-hidden />
  );
}

/** A member's role as the screens name it (src/workspaces/roles.ts's roleLabels, translated). */
const roleLabels: Record<WorkspaceRole, MessageDescriptor> = {
  viewer: msg({ message: 'Viewer', context: 'workspace role' }),
  editor: msg({ message: 'Editor', context: 'workspace role' }),
  admin: msg({ message: 'Admin', context: 'workspace role' }),
  owner: msg({ message: 'Owner', context: 'workspace role' }),
};

/** The server names everyone's own workspace 'Personal' (server/trpc/workspace-access.ts): said in the screens' language. */
const PERSONAL = 'Personal';

function countLabel(n: number) {
  return plural(n, { one: 'pending invitation', other: 'pending invitations' });
}

/**
 * The current workspace and the caller's role in it ("Marketing · Editor"), opening a menu of the
 * caller's workspaces (their own first, then their teams, each with the role), a new team, the team's
 * settings and, when some wait, their invitations. In the header on a wide screen, at the top of the
 * navigation drawer on a phone (`inDrawer`: the menu opens in place, inside the drawer's focus trap).
 */
export function WorkspaceSwitcher({
  inDrawer = false,
  onNavigate,
}: {
  inDrawer?: boolean;
  /** Called when an entry takes the user elsewhere (the drawer closes). */
  onNavigate?: () => void;
}) {
  const { t } = useLingui();
  const { workspace, notFound } = useCurrentWorkspace();
  const nameOf = (w: Pick<Workspace, 'kind' | 'name'>) =>
    w.kind === 'personal' && w.name === PERSONAL
      ? t({ message: 'Personal', context: 'the personal workspace' })
      : w.name;
  const list = useWorkspaceList();
  const { pending } = usePendingInvitations();
  const { switchTo, pending: switching } = useSwitchWorkspace();
  const [createOpened, create] = useDisclosure(false);
  const [createAsked, setCreateAsked] = useState(false);
  if (createOpened && !createAsked) setCreateAsked(true);
  const name = workspace ? nameOf(workspace) : notFound ? t`Workspace not found` : t`Loading…`;
  const role = workspace ? t(roleLabels[workspace.role]) : null;

  return (
    <>
      <Menu
        position={inDrawer ? 'bottom' : 'bottom-end'}
        width={inDrawer ? 'target' : 280}
        shadow="md"
        withinPortal={!inDrawer}
      >
        <Menu.Target>
          <Button
            variant="default"
            fullWidth={inDrawer}
            maw={inDrawer ? undefined : 300}
            h={inDrawer ? 'auto' : undefined}
            py={inDrawer ? 6 : undefined}
            loading={switching}
            justify="space-between"
            leftSection={workspace ? <KindIcon workspace={workspace} /> : undefined}
            rightSection={
              <Group gap={6} wrap="nowrap">
                {pending.length > 0 && (
                  <Badge size="sm" circle={pending.length < 10} color="red" variant="filled">
                    {pending.length}
                    <VisuallyHidden>{` ${countLabel(pending.length)}`}</VisuallyHidden>
                  </Badge>
                )}
                <IconSelector size={16} aria-hidden />
              </Group>
            }
            styles={{ label: { minWidth: 0 }, inner: { minWidth: 0 } }}
            data-workspace-switcher
          >
            <VisuallyHidden>{t`Workspace:` + ' '}</VisuallyHidden>
            {inDrawer ? (
              // The drawer is narrow: the name on a line of its own, the role under it.
              <Stack gap={0} align="flex-start" style={{ minWidth: 0 }}>
                <Text span inherit truncate="end" maw="100%">
                  {name}
                </Text>
                {role && (
                  <Text span size="xs" fw={400}>
                    <VisuallyHidden> · </VisuallyHidden>
                    {role}
                  </Text>
                )}
              </Stack>
            ) : (
              <Text span inherit truncate="end">
                {name}
                {role && ` · ${role}`}
              </Text>
            )}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Trans>Switch workspace</Trans>
          </Menu.Label>
          {(list.data ?? []).map((w) => {
            const current = w.id === workspace?.id;
            return (
              <Menu.Item
                key={w.id}
                leftSection={current ? <IconCheck size={16} aria-hidden /> : <KindIcon workspace={w} />}
                // The text's own colour: a dimmed one fails contrast on the item under the pointer.
                rightSection={<Text size="xs">{t(roleLabels[w.role])}</Text>}
                aria-current={current ? 'true' : undefined}
                onClick={() => {
                  onNavigate?.();
                  if (!current) void switchTo(w.id);
                }}
                data-workspace-id={w.id}
              >
                <Text span size="sm" inherit truncate="end" display="block">
                  {nameOf(w)}
                </Text>
                {current && <VisuallyHidden>{' ' + t`(current)`}</VisuallyHidden>}
              </Menu.Item>
            );
          })}
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={create.open}>
            <Trans>Create team workspace</Trans>
          </Menu.Item>
          <Menu.Item
            component={Link}
            to="/workspace"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={onNavigate}
          >
            <Trans>Team settings</Trans>
          </Menu.Item>
          {pending.length > 0 && (
            <Menu.Item
              component={Link}
              to="/invitations"
              leftSection={<IconMail size={16} aria-hidden />}
              rightSection={
                <Badge size="sm" circle={pending.length < 10} color="red" variant="filled">
                  {pending.length}
                  <VisuallyHidden>{` ${countLabel(pending.length)}`}</VisuallyHidden>
                </Badge>
              }
              onClick={onNavigate}
            >
              <Trans>Invitations</Trans>
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      {/* Drawn from its first opening on (it closes with its transition): its form and zod load then. */}
      {(createOpened || createAsked) && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog opened={createOpened} onClose={create.close} />
        </Suspense>
      )}
    </>
  );
}
