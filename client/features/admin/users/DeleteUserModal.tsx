import { Alert, Button, Group, List, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { AdminUser, DeletionImpact } from '../../../../src/admin/admin.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

interface TeamRef {
  id: number;
  name: string;
}
interface TeamWithCodes extends TeamRef {
  qrCodeCount: number;
}
/** The teams the person is in, as the server's answer names them (a server without teams sends none). */
type Impact = DeletionImpact & {
  teamsKept?: TeamWithCodes[];
  teamsDeleted?: TeamRef[];
  blockingTeams?: TeamWithCodes[];
};

/** What moves where: the personal workspace's data goes, teams keep theirs, a team left without an owner blocks. */
function ImpactText({ username, impact }: { username: string; impact: Impact }) {
  const kept = impact.teamsKept ?? [];
  const deleted = impact.teamsDeleted ?? [];
  const blocking = impact.blockingTeams ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm">
        Delete {username}? Their {plural(impact.qrCodes, 'QR code', 'QR codes')},{' '}
        {plural(impact.scans, 'scan', 'scans')} and {plural(impact.folders, 'folder', 'folders')} are deleted
        with them. That is everything in their personal workspace; this cannot be undone.
      </Text>
      {(kept.length > 0 || deleted.length > 0) && (
        <List size="sm" spacing={4} aria-label="Team workspaces">
          {kept.map((team) => (
            <List.Item key={team.id}>
              Team {team.name} keeps its {plural(team.qrCodeCount, 'code', 'codes')}: only {username}&apos;s
              membership goes.
            </List.Item>
          ))}
          {deleted.map((team) => (
            <List.Item key={team.id}>Team {team.name} (no codes, no one else) is deleted.</List.Item>
          ))}
        </List>
      )}
      {blocking.length > 0 && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          icon={<IconAlertTriangle aria-hidden size={20} />}
          title={`${username} cannot be deleted yet`}
        >
          <Stack gap={4}>
            {blocking.map((team) => (
              <Text key={team.id} size="sm">
                {team.name} has {plural(team.qrCodeCount, 'code', 'codes')} and no other owner: make another
                member owner first.
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** Asks first, saying what goes with the user and what their teams keep, then deletes. */
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
  const data: Impact | undefined = impact.data;
  const blocked = (data?.blockingTeams?.length ?? 0) > 0;
  return (
    <Modal opened onClose={onClose} title={`Delete ${user.username}?`} centered>
      <Stack gap="md">
        {data ? (
          <ImpactText username={user.username} impact={data} />
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
            disabled={!data || blocked}
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
