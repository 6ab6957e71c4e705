import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, List, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { AdminUser, DeletionImpact } from '../../../../src/admin/admin.schema';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

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

/** '1 code', '1,234 codes': a team's codes, counted in the user's language. */
function codeCount(count: number): string {
  return plural(count, { one: '# code', other: '# codes' });
}

/** A team that keeps its codes: only the person's membership goes. */
function KeptTeam({ team, username }: { team: TeamWithCodes; username: string }) {
  const name = team.name;
  const codes = codeCount(team.qrCodeCount);
  return (
    <Trans>
      Team {name} keeps its {codes}: only {username}&apos;s membership goes.
    </Trans>
  );
}

/** A team that blocks the deletion: it has codes and no other owner. */
function BlockingTeam({ team }: { team: TeamWithCodes }) {
  const name = team.name;
  const codes = codeCount(team.qrCodeCount);
  return (
    <Trans>
      {name} has {codes} and no other owner: make another member owner first.
    </Trans>
  );
}

/** What moves where: the personal workspace's data goes, teams keep theirs, a team left without an owner blocks. */
function ImpactText({ username, impact }: { username: string; impact: Impact }) {
  const { t } = useLingui();
  const kept = impact.teamsKept ?? [];
  const deleted = impact.teamsDeleted ?? [];
  const blocking = impact.blockingTeams ?? [];
  const { qrCodes: codeTotal, scans: scanTotal, folders: folderTotal } = impact;
  const codes = plural(codeTotal, { one: '# QR code', other: '# QR codes' });
  const scans = plural(scanTotal, { one: '# scan', other: '# scans' });
  const folders = plural(folderTotal, { one: '# folder', other: '# folders' });
  return (
    <Stack gap="sm">
      <Text size="sm">
        <Trans>
          Delete {username}? Their {codes}, {scans} and {folders} are deleted with them. That is everything in
          their personal workspace; this cannot be undone.
        </Trans>
      </Text>
      {(kept.length > 0 || deleted.length > 0) && (
        <List size="sm" spacing={4} aria-label={t`Team workspaces`}>
          {kept.map((team) => (
            <List.Item key={team.id}>
              <KeptTeam team={team} username={username} />
            </List.Item>
          ))}
          {deleted.map((team) => (
            <List.Item key={team.id}>
              <DeletedTeam name={team.name} />
            </List.Item>
          ))}
        </List>
      )}
      {blocking.length > 0 && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          icon={<IconAlertTriangle aria-hidden size={20} />}
          title={t`${username} cannot be deleted yet`}
        >
          <Stack gap={4}>
            {blocking.map((team) => (
              <Text key={team.id} size="sm">
                <BlockingTeam team={team} />
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

/** A team that goes with the person: no codes, and no one else in it. */
function DeletedTeam({ name }: { name: string }) {
  return <Trans>Team {name} (no codes, no one else) is deleted.</Trans>;
}

/** Asks first, saying what goes with the user and what their teams keep, then deletes. */
export function DeleteUserModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useLingui();
  const username = user.username;
  const utils = trpc.useUtils();
  const impact = trpc.admin.deletionImpact.useQuery({ id: user.id });
  const remove = trpc.admin.deleteUser.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(t`User deleted`, translateShared(message));
      await Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
      onClose();
    },
    onError: (e) => {
      const reason = apiError(e, t`Error`).message;
      notify.error(t`Failed to delete user: ${reason}`);
    },
  });
  const data: Impact | undefined = impact.data;
  const blocked = (data?.blockingTeams?.length ?? 0) > 0;
  return (
    <Modal opened onClose={onClose} title={t`Delete ${username}?`} centered>
      <Stack gap="md">
        {data ? (
          <ImpactText username={user.username} impact={data} />
        ) : impact.isError ? (
          <Text size="sm" c="red">
            {apiError(impact.error, t`Could not count what goes with this user`).message}
          </Text>
        ) : (
          <Skeleton h={40} aria-label={t`Counting codes and scans`} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            color="red"
            disabled={!data || blocked}
            loading={remove.isPending}
            onClick={() => remove.mutate({ id: user.id })}
          >
            <Trans>Delete user</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
