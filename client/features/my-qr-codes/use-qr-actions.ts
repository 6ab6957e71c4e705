import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

/** The list's mutations with their toasts (spec §8); each refreshes the list and the folder counts. */
export function useQrActions() {
  const utils = trpc.useUtils();
  const refresh = () =>
    Promise.all([utils.qr.list.invalidate(), utils.folders.list.invalidate(), utils.qr.limit.invalidate()]);
  const move = trpc.qr.move.useMutation({
    onSuccess: async () => {
      notify.success('QR Code Moved');
      await refresh();
    },
    onError: (error) =>
      notify.error('Move Failed', apiError(error, 'Failed to move the QR code. Please try again.').message),
  });
  const remove = trpc.qr.delete.useMutation({
    onSuccess: async () => {
      notify.success('QR Code Deleted');
      await refresh();
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
