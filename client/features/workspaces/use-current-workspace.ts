import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { roleAtLeast } from '../../../src/workspaces/roles';
import type { Workspace } from '../../../src/workspaces/workspace.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

/**
 * The workspace the page shows (the address's `?workspace=`, resolved by the server) with the caller's
 * role in it. Loaded before any app page draws (routes.ts), so `workspace` is there on the first render;
 * `notFound` when the address names a workspace the user is not a member of.
 */
export function useCurrentWorkspace(): { workspace: Workspace | undefined; notFound: boolean } {
  const current = trpc.workspaces.current.useQuery();
  return { workspace: current.data, notFound: current.error?.data?.code === 'NOT_FOUND' };
}

/**
 * The caller may create, edit, move and delete codes and folders here (editor and up). A viewer is shown
 * no such control: the server refuses them anyway, and this way a viewer never meets that refusal.
 */
export function useCanEdit(): boolean {
  const { workspace } = useCurrentWorkspace();
  return workspace !== undefined && roleAtLeast(workspace.role, 'editor');
}

/** The caller's workspaces: their own first, then their teams by name. */
export function useWorkspaceList() {
  return trpc.workspaces.list.useQuery();
}

/**
 * Where a code of the personal workspace can move: the teams the caller edits. Empty in a team
 * workspace, or when the caller edits no team (then "Move to team" is not offered).
 */
export function useMoveTargets(): Workspace[] {
  const { workspace } = useCurrentWorkspace();
  const list = useWorkspaceList();
  if (workspace?.kind !== 'personal') return [];
  return (list.data ?? []).filter((w) => w.kind === 'team' && roleAtLeast(w.role, 'editor'));
}

/**
 * Switches to another workspace: the server remembers the choice (a link without a workspace opens it
 * next time), then the dashboard opens in it. routes.ts makes it the workspace of every request and
 * drops what was loaded for the one before.
 */
export function useSwitchWorkspace() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const remember = trpc.workspaces.switch.useMutation();
  const switchTo = async (workspaceId: number) => {
    try {
      await remember.mutateAsync({ workspaceId });
    } catch (error) {
      notify.error(t`Could not switch workspace`, apiError(error, t`Please try again.`).message);
      return;
    }
    await navigate({ to: '/', search: { workspace: workspaceId } });
  };
  return { switchTo, pending: remember.isPending };
}
