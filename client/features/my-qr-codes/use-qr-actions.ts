import { t } from '@lingui/core/macro';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';

/** The list's mutations with their toasts; each brings every cached view of codes and folders up to date. */
export function useQrActions() {
  const refresh = useQrCacheRefresh();
  const move = trpc.qr.move.useMutation({
    onSuccess: async (saved) => {
      notify.success(t`QR Code Moved`);
      await refresh({ saved });
    },
    onError: (error) =>
      notify.error(
        t`Move Failed`,
        translateShared(apiError(error, t`Failed to move the QR code. Please try again.`).message),
      ),
  });
  const remove = trpc.qr.delete.useMutation({
    onSuccess: async (_result, { id }) => {
      notify.success(t`QR Code Deleted`);
      // The id this page sent (typed loosely: the API's id input also takes text).
      await refresh({ deletedId: Number(id) });
    },
    onError: () => notify.error(t`Delete Failed`, t`Failed to delete the QR code. Please try again.`),
  });
  const createFolder = trpc.folders.create.useMutation({
    onSuccess: async () => {
      notify.success(t`Folder Created`);
      await refresh();
    },
    onError: (error) =>
      notify.error(
        t`Error`,
        translateShared(apiError(error, t`Failed to create the folder. Please try again.`).message),
      ),
  });
  const deleteFolder = trpc.folders.delete.useMutation({
    onSuccess: async () => {
      notify.success(t`Folder Deleted`);
      await refresh();
    },
    onError: () => notify.error(t`Error`, t`Failed to delete the folder. Please try again.`),
  });
  return { move, remove, createFolder, deleteFolder };
}
