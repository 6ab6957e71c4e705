import { trpc } from '../../lib/trpc';

/** The invitations waiting for the caller; looked at again every minute while the app is open. */
export function usePendingInvitations() {
  const invitations = trpc.workspaces.myInvitations.useQuery(undefined, { refetchInterval: 60_000 });
  const pending = (invitations.data ?? []).filter((i) => i.status === 'pending');
  return { pending, query: invitations };
}
