import { useNavigate } from '@tanstack/react-router';
import { queryClient, trpc } from '../../../lib/trpc';

/**
 * Moves the app to another workspace after the current one is gone for the caller (deleted, left) or a
 * new team is made: the server remembers the choice, the address names it (`?workspace=`, which the
 * requests follow), and every cached answer of the previous workspace is dropped and fetched anew.
 */
export function useGoToWorkspace() {
  const navigate = useNavigate();
  const remember = trpc.workspaces.switch.useMutation();
  return async (workspaceId: number, path: '/' | '/workspace') => {
    try {
      await remember.mutateAsync({ workspaceId });
    } catch {
      // Only the remembered choice is lost: the address below still names the workspace to show.
    }
    // Navigate first: the page that showed the old workspace unmounts, so nothing asks for it again.
    await navigate({ href: `${path}?workspace=${workspaceId}` });
    await queryClient.resetQueries();
  };
}
