import { trpc } from '../../../lib/trpc';

/**
 * After a change to a workspace: what the settings page and the header's switcher show of it is fetched
 * anew (its name and the caller's role, the members, the pending invitations, the feed).
 */
export function useWorkspaceRefresh() {
  const utils = trpc.useUtils();
  return (workspaceId: number) =>
    Promise.all([
      utils.workspaces.current.invalidate(),
      utils.workspaces.list.invalidate(),
      utils.workspaces.members.invalidate({ workspaceId }),
      utils.workspaces.invitations.invalidate({ workspaceId }),
      utils.workspaces.activity.invalidate({ workspaceId }),
    ]);
}
