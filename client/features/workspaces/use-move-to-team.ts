import { useMutation } from '@tanstack/react-query';
import { getUntypedClient } from '@trpc/client';
import type { z } from 'zod';
import { workspaceMessages, type moveToWorkspaceInput } from '../../../src/workspaces/workspace.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcClient } from '../../lib/trpc';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';

type MoveInput = z.input<typeof moveToWorkspaceInput>;
interface MoveAnswer {
  success: boolean;
  message: string;
}

/**
 * qr.moveToWorkspace: a code of the personal workspace into a team the caller edits. Called by its path
 * (the shared contract's input and answer) so this screen does not wait on the procedure's type.
 */
function moveToWorkspace(input: MoveInput): Promise<MoveAnswer> {
  return getUntypedClient(trpcClient).mutation('qr.moveToWorkspace', input) as Promise<MoveAnswer>;
}

/**
 * Moves a code to a team with its toasts; the code leaves every list of this workspace, and the teams'
 * code counts are read again. `onMoved` runs after (the details page leaves the code's page).
 */
export function useMoveToTeam(onMoved?: () => void) {
  const refresh = useQrCacheRefresh();
  const utils = trpc.useUtils();
  return useMutation({
    mutationFn: (input: MoveInput & { teamName: string }) =>
      moveToWorkspace({ id: input.id, workspaceId: input.workspaceId }),
    onSuccess: async (_answer, input) => {
      notify.success(workspaceMessages.moved, `Now in ${input.teamName}. Its short link keeps working.`);
      onMoved?.();
      await Promise.all([refresh({ deletedId: Number(input.id) }), utils.workspaces.list.invalidate()]);
    },
    onError: (error) =>
      notify.error(
        'Move failed',
        apiError(error, 'The QR code could not be moved. Please try again.').message,
      ),
  });
}
