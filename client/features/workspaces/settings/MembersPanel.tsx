import { Badge, Button, Card, Group, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit, IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import {
  roleAtLeast,
  roleLabels,
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
import { useCurrentUser } from '../../auth/use-auth';
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
  const refresh = useWorkspaceRefresh();
  const change = trpc.workspaces.changeRole.useMutation({
    onSuccess: async () => {
      notify.success(workspaceMessages.roleChanged);
      await refresh(workspace.id);
    },
    onError: (e) => notify.error('Role not changed', apiError(e, 'Could not change the role').message),
  });
  return (
    <Select
      aria-label={`Role of ${member.username}`}
      w={130}
      size="sm"
      data={assignableRoles(workspace.role).map((r) => ({ value: r, label: roleLabels[r] }))}
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
  const [open, setOpen] = useState(false);
  const refresh = useWorkspaceRefresh();
  const remove = trpc.workspaces.removeMember.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(message);
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
        aria-label={`Remove ${member.username}`}
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        Remove
      </Button>
      {open && (
        <ConfirmModal
          title={`Remove ${member.username}?`}
          confirmLabel="Remove member"
          pending={remove.isPending}
          error={remove.error ? apiError(remove.error, 'Could not remove the member').message : null}
          onClose={() => setOpen(false)}
          onConfirm={() => remove.mutate({ workspaceId: workspace.id, userId: member.userId })}
        >
          <Text size="sm">
            {member.username} loses access to {workspace.name} and its QR codes at once. The codes they made
            stay in the workspace.
          </Text>
        </ConfirmModal>
      )}
    </>
  );
}

function LeaveWorkspace({ workspace }: { workspace: Workspace }) {
  const [open, setOpen] = useState(false);
  const me = useCurrentUser();
  const goTo = useGoToWorkspace();
  const leave = trpc.workspaces.leave.useMutation({
    onSuccess: async ({ message }) => {
      setOpen(false);
      notify.success(message);
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
        Leave workspace
      </Button>
      {open && (
        <ConfirmModal
          title={`Leave ${workspace.name}?`}
          confirmLabel="Leave workspace"
          pending={leave.isPending}
          error={leave.error ? apiError(leave.error, 'Could not leave the workspace').message : null}
          onClose={() => setOpen(false)}
          onConfirm={() => leave.mutate({ workspaceId: workspace.id })}
        >
          <Text size="sm">
            You lose access to {workspace.name} and its QR codes. The codes stay with the team; to come back,
            someone has to invite you again.
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
              You
            </Badge>
          )}
        </Group>
        {details && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {details}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          Joined {formatDate(member.joinedAt)}
        </Text>
      </div>
      <Group gap="xs" wrap="nowrap">
        {canManage ? (
          <RoleControl workspace={workspace} member={member} />
        ) : (
          <Badge variant="light" color={member.role === 'owner' ? 'violet' : 'blue'} miw="max-content">
            {roleLabels[member.role]}
          </Badge>
        )}
        {canManage && <RemoveMember workspace={workspace} member={member} />}
      </Group>
    </Group>
  );
}

/** The members of a team, with what the caller's role lets them do: change roles, remove, leave, transfer. */
export function MembersPanel({ workspace }: { workspace: Workspace }) {
  const me = useCurrentUser();
  const members = trpc.workspaces.members.useQuery({ workspaceId: workspace.id });
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="members-title">
        <Group justify="space-between" wrap="wrap" gap="sm" mb="sm">
          <div>
            <Title order={3} size="h4" id="members-title">
              Members
            </Title>
            <Text size="sm" c="dimmed">
              {roleAtLeast(workspace.role, 'admin')
                ? 'Who works in this workspace, and what each may do.'
                : 'Who works in this workspace. Admins and owners manage members.'}
            </Text>
          </div>
          <LeaveWorkspace workspace={workspace} />
        </Group>
        {members.isError ? (
          <ErrorAlert>{apiError(members.error, 'Could not load the members').message}</ErrorAlert>
        ) : !members.data ? (
          <Stack gap="xs" aria-busy="true" aria-label="Loading members">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={52} />
            ))}
          </Stack>
        ) : (
          <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
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
