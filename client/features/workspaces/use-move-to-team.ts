import { useLingui } from '@lingui/react/macro';
import { workspaceMessages } from '../../../src/workspaces/workspace.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';

/**
 * qr.moveToWorkspace with its toasts: a code of the personal workspace goes to a team the caller edits;
 * the code leaves every list of this workspace, and the teams' code counts are read again. `onMoved` runs
 * after (the details page leaves the code's page).
 */
export function useMoveToTeam(onMoved?: () => void) {
  const { t } = useLingui();
  const refresh = useQrCacheRefresh();
  const utils = trpc.useUtils();
  return trpc.qr.moveToWorkspace.useMutation({
    onSuccess: async (_answer, input) => {
      // The team is one of the caller's workspaces (the dialog offers only those): its name from that list.
      const team = utils.workspaces.list.getData()?.find((w) => w.id === Number(input.workspaceId))?.name;
      notify.success(
        translateShared(workspaceMessages.moved),
        team === undefined
          ? t`Now in the team. Its short link keeps working.`
          : t`Now in ${team}. Its short link keeps working.`,
      );
      onMoved?.();
      await Promise.all([refresh({ deletedId: Number(input.id) }), utils.workspaces.list.invalidate()]);
    },
    onError: (error) =>
      notify.error(
        t`Move failed`,
        apiError(error, t`The QR code could not be moved. Please try again.`).message,
      ),
  });
}
