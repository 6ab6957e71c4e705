import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  roleAtLeast,
  workspaceMessages,
  workspaceRoles,
  type Workspace,
  type WorkspaceMember,
  type WorkspaceRole,
} from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { translateShared } from '../../../i18n/shared-messages';
import { useCurrentUser } from '../../auth/use-auth';
import { roleName } from '../role-words';
import { ConfirmModal } from './ConfirmModal';
import { TransferOwnership } from './TransferOwnership';
import { useGoToWorkspace } from './use-go-to-workspace';
import { useWorkspaceRefresh } from './use-workspace-refresh';

/** The roles `caller` may give: only an owner gives (or takes) the owner role. */
function assignableRoles(caller: WorkspaceRole): WorkspaceRole[] {
  return caller === 'owner' ? [...workspaceRoles] : workspaceRoles.filter((r) => r !== 'owner');
}

/** May `caller` change the role of, or remove, a member who holds `role`? Admins manage all but owners. */
function manages(caller: WorkspaceRole, role: WorkspaceRole): boolean {
  return roleAtLeast(caller, 'admin') && (role !== 'owner' || caller === 'owner');
}

function RoleControl({ workspace, member }: { workspace: Workspace; member: WorkspaceMember }) {
  const { t } = useLingui();
  const username = member.username;
  const refresh = useWorkspaceRefresh();
  const change = trpc.workspaces.changeRole.useMutation({
    onSuccess: async () => {
      notify.success(translateShared(workspaceMessages.roleChanged));
      await refresh(workspace.id);
    },
    onError: (e) => notify.error(t`Role not changed`, apiError(e, t`Could not change the role`).message),
  });
  return (
    <Select
      aria-label={t`Role of ${username}`}
      w={130}
      size="sm"
      data={assignableRoles(workspace.role).map((r) => ({ value: r, label: roleName(r) }))}
      value={change.isPending ? (change.variables?.role ?? member.role) : member.role}
      allowDeselect={false}
      disabled={change.isPending}
      onChange={(value) => {
        const role = workspaceRoles.find((r) => r === value);
        if (role && role !== member.role) {
          change.mutate({ workspaceId: workspace.id, userId: member.userId, role });
        }
      }}
    />
  );
}

function RemoveMember({ workspace, member }: { workspace: Workspace; member: WorkspaceMember }) {
  const { t } = useLingui();
  const username = member.username;
  const name = workspace.name;
  const [open, setOpen] = useState(false);
  const refresh = useWorkspaceRefresh();
  const remove = trpc.workspaces.removeMember.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(translateShared(message));
      setOpen(false);
      await refresh(workspace.id);
    },
  });
  return (
    <>
      <Button
        variant="subtle"
        color="red"
        size="sm"
        leftSection={<IconUserMinus aria-hidden size={16} />}
        aria-label={t`Remove ${username}`}
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        <Trans>Remove</Trans>
      </Button>
      {open && (
        <ConfirmModal
          title={t`Remove ${username}?`}
          confirmLabel={t`Remove member`}
          pending={remove.isPending}
          error={remove.error ? apiError(remove.error, t`Could not remove the member`).message : null}
          onClose={() => setOpen(false)}
          onConfirm={() => remove.mutate({ workspaceId: workspace.id, userId: member.userId })}
        >
          <Text size="sm">
            <Trans>
              {username} loses access to {name} and its QR codes at once. The codes they made stay in the
              workspace.
            </Trans>
          </Text>
        </ConfirmModal>
      )}
    </>
  );
}

function LeaveWorkspace({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const name = workspace.name;
  const [open, setOpen] = useState(false);
  const me = useCurrentUser();
  const goTo = useGoToWorkspace();
  const leave = trpc.workspaces.leave.useMutation({
    onSuccess: async ({ message }) => {
      setOpen(false);
      notify.success(translateShared(message));
      if (me) await goTo(me.id, '/');
    },
  });
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconDoorExit aria-hidden size={16} />}
        onClick={() => {
          leave.reset();
          setOpen(true);
        }}
      >
        <Trans>Leave workspace</Trans>
      </Button>
      {open && (
        <ConfirmModal
          title={t`Leave ${name}?`}
          confirmLabel={t`Leave workspace`}
          pending={leave.isPending}
          error={leave.error ? apiError(leave.error, t`Could not leave the workspace`).message : null}
          onClose={() => setOpen(false)}
          onConfirm={() => leave.mutate({ workspaceId: workspace.id })}
        >
          <Text size="sm">
            <Trans>
              You lose access to {name} and its QR codes. The codes stay with the team; to come back, someone
              has to invite you again.
            </Trans>
          </Text>
        </ConfirmModal>
      )}
    </>
  );
}

function MemberRow({
  workspace,
  member,
  self,
}: {
  workspace: Workspace;
  member: WorkspaceMember;
  self: boolean;
}) {
  const canManage = !self && manages(workspace.role, member.role);
  const details = [member.name, member.email].filter(Boolean).join(' · ');
  const date = formatDate(member.joinedAt);
  return (
    <Group
      component="li"
      justify="space-between"
      wrap="wrap"
      gap="sm"
      py="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <div style={{ minWidth: 0, flex: '1 1 220px' }}>
        <Group gap={6} wrap="wrap">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {member.username}
          </Text>
          {self && (
            <Badge size="sm" variant="light" color="gray">
              <Trans context="a badge on the member who is the user">You</Trans>
            </Badge>
          )}
        </Group>
        {details && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {details}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          <Trans>Joined {date}</Trans>
        </Text>
      </div>
      <Group gap="xs" wrap="nowrap">
        {canManage ? (
          <RoleControl workspace={workspace} member={member} />
        ) : (
          <Badge variant="light" color={member.role === 'owner' ? 'violet' : 'blue'} miw="max-content">
            {roleName(member.role)}
          </Badge>
        )}
        {canManage && <RemoveMember workspace={workspace} member={member} />}
      </Group>
    </Group>
  );
}

/** The members of a team, with what the caller's role lets them do: change roles, remove, leave, transfer. */
export function MembersPanel({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const me = useCurrentUser();
  const members = trpc.workspaces.members.useQuery({ workspaceId: workspace.id });
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="members-title">
        <Group justify="space-between" wrap="wrap" gap="sm" mb="sm">
          <div>
            <Title order={3} size="h4" id="members-title">
              <Trans>Members</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              {roleAtLeast(workspace.role, 'admin')
                ? t`Who works in this workspace, and what each may do.`
                : t`Who works in this workspace. Admins and owners manage members.`}
            </Text>
          </div>
          <LeaveWorkspace workspace={workspace} />
        </Group>
        {members.isError ? (
          <ErrorAlert>{apiError(members.error, t`Could not load the members`).message}</ErrorAlert>
        ) : !members.data ? (
          <Stack gap="xs" aria-busy="true" aria-label={t`Loading members`}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={52} />
            ))}
          </Stack>
        ) : (
          <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label={t`Members`}>
            {members.data.map((member) => (
              <MemberRow
                key={member.userId}
                workspace={workspace}
                member={member}
                self={member.userId === me?.id}
              />
            ))}
          </Stack>
        )}
      </Card>
      {workspace.role === 'owner' && members.data && (
        <TransferOwnership workspace={workspace} members={members.data.filter((m) => m.userId !== me?.id)} />
      )}
    </Stack>
  );
}
