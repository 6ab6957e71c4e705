import { Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import type { AdminUser } from '../../../../src/admin/admin.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** Asks first, saying what goes with the user (their codes, scans and folders), then deletes. */
export function DeleteUserModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const utils = trpc.useUtils();
  const impact = trpc.admin.deletionImpact.useQuery({ id: user.id });
  const remove = trpc.admin.deleteUser.useMutation({
    onSuccess: async ({ message }) => {
      notify.success('User deleted', message);
      await Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
      onClose();
    },
    onError: (e) => notify.error(`Failed to delete user: ${apiError(e, 'Error').message}`),
  });
  return (
    <Modal opened onClose={onClose} title={`Delete ${user.username}?`} centered>
      <Stack gap="md">
        {impact.data ? (
          <Text size="sm">
            Delete {user.username}? Their {plural(impact.data.qrCodes, 'QR code', 'QR codes')},{' '}
            {plural(impact.data.scans, 'scan', 'scans')} and{' '}
            {plural(impact.data.folders, 'folder', 'folders')} are deleted with them. This cannot be undone.
          </Text>
        ) : impact.isError ? (
          <Text size="sm" c="red">
            {apiError(impact.error, 'Could not count what goes with this user').message}
          </Text>
        ) : (
          <Skeleton h={40} aria-label="Counting codes and scans" />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={!impact.data}
            loading={remove.isPending}
            onClick={() => remove.mutate({ id: user.id })}
          >
            Delete user
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
