import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconSend, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { emailField, usernameField } from '../../../../src/auth/auth.schema';
import {
  INVITATION_DAYS,
  workspaceMessages,
  type Workspace,
  type WorkspaceInvitation,
} from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatDate } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { translateShared } from '../../../i18n/shared-messages';
import { roleDescription, roleName } from '../role-words';
import { useWorkspaceRefresh } from './use-workspace-refresh';

type InviteBy = 'email' | 'username';
type InviteRole = 'viewer' | 'editor' | 'admin';
const inviteRoles: InviteRole[] = ['viewer', 'editor', 'admin'];

function InviteForm({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const [by, setBy] = useState<InviteBy>('email');
  const [value, setValue] = useState('');
  const [role, setRole] = useState<InviteRole>('editor');
  const [error, setError] = useState<string | null>(null);
  const days = INVITATION_DAYS;
  const refresh = useWorkspaceRefresh();
  const invite = trpc.workspaces.invite.useMutation({
    onSuccess: async () => {
      notify.success(translateShared(workspaceMessages.invited));
      setValue('');
      await refresh(workspace.id);
    },
    // The server's refusals name the field's problem (no such user, already a member or invited).
    onError: (e) => setError(apiError(e, t`Could not send the invitation`).message),
  });

  const submit = () => {
    const parsed = (by === 'email' ? emailField : usernameField).safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t`Invalid value`);
      return;
    }
    setError(null);
    invite.mutate({
      workspaceId: workspace.id,
      role,
      ...(by === 'email' ? { email: parsed.data } : { username: parsed.data }),
    });
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <div>
          <Text component="span" size="sm" fw={500} id="invite-by-label" display="block" mb={4}>
            <Trans context="label of the choice: by e-mail or by username">Invite</Trans>
          </Text>
          <SegmentedControl
            aria-labelledby="invite-by-label"
            value={by}
            onChange={(v) => {
              setBy(v === 'username' ? 'username' : 'email');
              setError(null);
            }}
            data={[
              { value: 'email', label: t`By e-mail` },
              { value: 'username', label: t`By username` },
            ]}
          />
        </div>
        <Group align="flex-start" wrap="wrap" gap="sm">
          <TextInput
            key={by}
            label={by === 'email' ? t`E-mail address` : t`Username`}
            description={
              by === 'email'
                ? plural(days, {
                    one: 'They get a link, valid for # day.',
                    other: 'They get a link, valid for # days.',
                  })
                : t`They find the invitation in the app.`
            }
            type={by === 'email' ? 'email' : 'text'}
            autoComplete="off"
            value={value}
            // src/'s check or the server's refusal, in English there.
            error={error && translateShared(error)}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              if (error) setError(null);
            }}
            w={{ base: '100%', sm: 300 }}
          />
          <Select
            label={t`Role`}
            description={roleDescription(role)}
            data={inviteRoles.map((r) => ({ value: r, label: roleName(r) }))}
            value={role}
            allowDeselect={false}
            onChange={(v) => setRole(inviteRoles.find((r) => r === v) ?? 'editor')}
            w={{ base: '100%', sm: 300 }}
          />
        </Group>
        <Group>
          <Button type="submit" loading={invite.isPending} leftSection={<IconSend aria-hidden size={16} />}>
            <Trans>Send invitation</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PendingInvitation({
  workspace,
  invitation,
}: {
  workspace: Workspace;
  invitation: WorkspaceInvitation;
}) {
  const { t } = useLingui();
  const refresh = useWorkspaceRefresh();
  const revoke = trpc.workspaces.revokeInvitation.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(translateShared(message));
      await refresh(workspace.id);
    },
    onError: (e) => notify.error(t`Not revoked`, apiError(e, t`Could not revoke the invitation`).message),
  });
  const who = invitation.email ?? invitation.username ?? t`Someone`;
  const how = invitation.email ? t`By e-mail` : t`By username`;
  const { invitedBy } = invitation;
  const created = formatDate(invitation.createdAt);
  const expires = formatDate(invitation.expiresAt);
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
            {who}
          </Text>
          <Badge size="sm" variant="light" miw="max-content">
            {roleName(invitation.role)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          <Trans comment="how the invitation was sent (By e-mail, By username), who sent it and when">
            {how} · invited by {invitedBy} on {created} · expires {expires}
          </Trans>
        </Text>
      </div>
      <Button
        variant="subtle"
        color="red"
        size="sm"
        leftSection={<IconX aria-hidden size={16} />}
        aria-label={t`Revoke the invitation of ${who}`}
        loading={revoke.isPending}
        onClick={() => revoke.mutate({ workspaceId: workspace.id, invitationId: invitation.id })}
      >
        <Trans>Revoke</Trans>
      </Button>
    </Group>
  );
}

/** Admins and owners invite people (by e-mail or by username) and see, or revoke, what is pending. */
export function InvitationsPanel({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const pending = trpc.workspaces.invitations.useQuery({ workspaceId: workspace.id });
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="invite-title">
        <Title order={3} size="h4" id="invite-title" mb="sm">
          <Trans>Invite someone</Trans>
        </Title>
        <InviteForm workspace={workspace} />
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="pending-title">
        <Title order={3} size="h4" id="pending-title" mb="sm">
          <Trans>Pending invitations</Trans>
        </Title>
        {pending.isError ? (
          <ErrorAlert>{apiError(pending.error, t`Could not load the invitations`).message}</ErrorAlert>
        ) : !pending.data ? (
          <Skeleton h={52} aria-label={t`Loading invitations`} />
        ) : pending.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No pending invitations.</Trans>
          </Text>
        ) : (
          <Stack
            component="ul"
            gap={0}
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={t`Pending invitations`}
          >
            {pending.data.map((invitation) => (
              <PendingInvitation key={invitation.id} workspace={workspace} invitation={invitation} />
            ))}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}
