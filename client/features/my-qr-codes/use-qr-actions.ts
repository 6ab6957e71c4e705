import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';

/** The list's mutations with their toasts; each brings every cached view of codes and folders up to date. */
export function useQrActions() {
  const refresh = useQrCacheRefresh();
  const move = trpc.qr.move.useMutation({
    onSuccess: async (saved) => {
      notify.success('QR Code Moved');
      await refresh({ saved });
    },
    onError: (error) =>
      notify.error('Move Failed', apiError(error, 'Failed to move the QR code. Please try again.').message),
  });
  const remove = trpc.qr.delete.useMutation({
    onSuccess: async (_result, { id }) => {
      notify.success('QR Code Deleted');
      // The id this page sent (typed loosely: the API's id input also takes text).
      await refresh({ deletedId: Number(id) });
    },
    onError: () => notify.error('Delete Failed', 'Failed to delete the QR code. Please try again.'),
  });
  const createFolder = trpc.folders.create.useMutation({
    onSuccess: async () => {
      notify.success('Folder Created');
      await refresh();
    },
    onError: (error) =>
      notify.error('Error', apiError(error, 'Failed to create the folder. Please try again.').message),
  });
  const deleteFolder = trpc.folders.delete.useMutation({
    onSuccess: async () => {
      notify.success('Folder Deleted');
      await refresh();
    },
    onError: () => notify.error('Error', 'Failed to delete the folder. Please try again.'),
  });
  return { move, remove, createFolder, deleteFolder };
}
