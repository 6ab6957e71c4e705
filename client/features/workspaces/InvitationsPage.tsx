import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconAlertTriangle, IconMailOpened, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { workspaceMessages, type WorkspaceInvitation } from '../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcClient } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { useNow } from '../../lib/use-now';
import { expiryLabel, isOpen } from './invitation-format';
import { roleDescription, roleInSentence, roleName } from './role-words';
import {
  arrivedAtInvitations,
  forgetInvitationToken,
  INVITATIONS_PATH,
  keptInvitationToken,
  tokenInAddress,
} from './invitation-link';
import { usePendingInvitations } from './use-invitations';
import { useSwitchWorkspace } from './use-current-workspace';

/** As sent: an invitation's id (typed loosely, as the API's id inputs also take text), or the link's token. */
type Answer = { invitationId?: unknown; token?: string };
/** Which invitation an answer is about: its id, or the link's. */
const keyOf = (answer: Answer | undefined) => (answer?.token ? 'link' : `id:${String(answer?.invitationId)}`);

interface Busy {
  kind: 'accept' | 'decline';
  key: string;
}

/** Accept (then switch to the workspace joined) and decline, with their toasts. */
function useAnswers(onTokenAnswered: () => void) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const { switchTo } = useSwitchWorkspace();
  const refresh = () =>
    Promise.all([utils.workspaces.myInvitations.invalidate(), utils.workspaces.list.invalidate()]);
  const failed = (title: string) => (error: unknown) => {
    notify.error(title, apiError(error, t`Please try again.`).message);
    void refresh();
  };
  const accept = trpc.workspaces.accept.useMutation({
    onSuccess: async (workspace, input) => {
      if (input.token) {
        forgetInvitationToken();
        onTokenAnswered();
      }
      const name = workspace.name;
      const role = roleInSentence(workspace.role);
      notify.success(translateShared(workspaceMessages.accepted), t`You joined ${name} as ${role}.`);
      await refresh();
      await switchTo(workspace.id);
    },
    onError: failed(t`Could not accept the invitation`),
  });
  const decline = trpc.workspaces.decline.useMutation({
    onSuccess: async (result, input) => {
      if (input.token) {
        forgetInvitationToken();
        onTokenAnswered();
      }
      notify.success(translateShared(result.message));
      await refresh();
    },
    onError: failed(t`Could not decline the invitation`),
  });
  /** What is being answered now: its button spins, every other answer waits. */
  const busy: Busy | undefined = accept.isPending
    ? { kind: 'accept', key: keyOf(accept.variables) }
    : decline.isPending
      ? { kind: 'decline', key: keyOf(decline.variables) }
      : undefined;
  return { accept, decline, busy };
}

function InvitationCard({
  invitation,
  answer,
  busy,
  onAccept,
  onDecline,
  now,
}: {
  invitation: WorkspaceInvitation;
  answer: Answer;
  busy: Busy | undefined;
  onAccept: () => void;
  onDecline: () => void;
  now: number;
}) {
  // Drawn again in a new language: the role's words are translateShared's.
  useLocale();
  const mine = busy !== undefined && busy.key === keyOf(answer);
  const headingId = `invitation-${invitation.id}`;
  const { invitedBy, workspaceName } = invitation;
  return (
    <Card withBorder padding="lg" radius="md" component="article" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Group align="flex-start" gap="md" wrap="nowrap" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
            <IconUsersGroup size={22} />
          </ThemeIcon>
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={3} size="h4" id={headingId} style={{ wordBreak: 'break-word' }}>
              {invitation.workspaceName}
            </Title>
            <Group gap={6} wrap="wrap">
              <Text size="sm">
                <Trans comment="followed by a badge with the role, e.g. Editor">
                  {invitedBy} invited you as
                </Trans>
              </Text>
              <Badge variant="light">{roleName(invitation.role)}</Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {roleDescription(invitation.role)}.
            </Text>
            <Text size="xs" c="dimmed">
              {expiryLabel(invitation.expiresAt, now)} ({formatDate(invitation.expiresAt)})
            </Text>
          </Stack>
        </Group>
        <Group gap="xs">
          <Button
            variant="default"
            onClick={onDecline}
            loading={mine && busy.kind === 'decline'}
            disabled={busy !== undefined && !(mine && busy.kind === 'decline')}
          >
            <Trans>
              Decline
              <VisuallyHidden> the invitation to {workspaceName}</VisuallyHidden>
            </Trans>
          </Button>
          <Button
            onClick={onAccept}
            loading={mine && busy.kind === 'accept'}
            disabled={busy !== undefined && !(mine && busy.kind === 'accept')}
          >
            <Trans>
              Accept
              <VisuallyHidden> the invitation to {workspaceName}</VisuallyHidden>
            </Trans>
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

function NoLongerValid() {
  useLocale();
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={20} aria-hidden />}
      role="alert"
      title={translateShared(workspaceMessages.invitationGone)}
    >
      <Trans>
        It may have expired (an invitation lasts 7 days), been answered already, or been withdrawn. Ask the
        person who invited you to send a new one.
      </Trans>
    </Alert>
  );
}

function CardSkeleton() {
  const { t } = useLingui();
  return (
    <Card withBorder padding="lg" radius="md" aria-busy="true" aria-label={t`Loading the invitation`}>
      <Stack gap={8}>
        <Skeleton h={20} w="40%" />
        <Skeleton h={14} w="60%" />
        <Skeleton h={12} w="30%" />
      </Stack>
    </Card>
  );
}

/**
 * The invitation of a mailed link. The server takes the token in a POST (a mutation), never in a GET
 * address that logs keep; it is read once per token, like a query, for the page to show.
 */
function useLinkedInvitation(token: string | undefined) {
  return useQuery({
    queryKey: ['invitationByToken', token],
    queryFn: () => trpcClient.workspaces.invitationByToken.mutate({ token: token ?? '' }),
    enabled: Boolean(token),
  });
}

/** The invitation a mailed link (/invitations#token=…) names, for whoever opened it signed in. */
function LinkedInvitation({
  token,
  invitation,
  answers,
  now,
}: {
  token: string;
  invitation: ReturnType<typeof useLinkedInvitation>;
  answers: ReturnType<typeof useAnswers>;
  now: number;
}) {
  const gone = invitation.isError || (invitation.data !== undefined && !isOpen(invitation.data, now));
  useEffect(() => {
    // A link that leads nowhere is not kept: the next visit shows the list alone.
    if (gone) forgetInvitationToken();
  }, [gone]);
  if (gone) return <NoLongerValid />;
  if (!invitation.data) return <CardSkeleton />;
  return (
    <InvitationCard
      invitation={invitation.data}
      answer={{ token }}
      busy={answers.busy}
      now={now}
      onAccept={() => answers.accept.mutate({ token })}
      onDecline={() => answers.decline.mutate({ token })}
    />
  );
}

/**
 * The caller's pending invitations, each with Accept and Decline; a mailed link's own invitation first.
 * Accepting switches to the workspace joined.
 */
export function InvitationsPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const now = useNow();
  const [token, setToken] = useState(keptInvitationToken);
  const answers = useAnswers(() => setToken(undefined));
  const { pending, query } = usePendingInvitations();
  const linked = useLinkedInvitation(token);

  useEffect(() => {
    arrivedAtInvitations();
    // The token leaves the address bar (kept in this tab by routes.ts): no history entry, bookmark or
    // screenshot holds it.
    if (tokenInAddress()) void navigate({ to: INVITATIONS_PATH, replace: true });
    // A new link opened in this tab while the page shows changes only the fragment: start over with it.
    const onHashChange = () => {
      if (tokenInAddress()) window.location.reload();
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [navigate]);

  // The link's invitation is shown once, on its own card.
  const linkedId = token ? linked.data?.id : undefined;
  const others = pending.filter((i) => i.id !== linkedId && isOpen(i, now));

  return (
    <Stack gap="md" maw={760}>
      <VisuallyHidden>
        <Title order={2}>
          <Trans>Invitations</Trans>
        </Title>
      </VisuallyHidden>
      <Text c="dimmed" size="sm">
        <Trans>
          Invitations to team workspaces: accept one to work on that team&apos;s QR codes with its members.
        </Trans>
      </Text>
      {token && <LinkedInvitation token={token} invitation={linked} answers={answers} now={now} />}
      {query.isError ? (
        <ErrorAlert>
          <Trans>Error loading your invitations. Please try again later.</Trans>
        </ErrorAlert>
      ) : query.isPending ? (
        <CardSkeleton />
      ) : others.length > 0 ? (
        <Stack gap="sm" component="section" aria-label={t`Pending invitations`}>
          {others.map((invitation) => (
            <InvitationCard
              key={invitation.id}
              invitation={invitation}
              answer={{ invitationId: invitation.id }}
              busy={answers.busy}
              now={now}
              onAccept={() => answers.accept.mutate({ invitationId: invitation.id })}
              onDecline={() => answers.decline.mutate({ invitationId: invitation.id })}
            />
          ))}
        </Stack>
      ) : (
        !token && (
          <Stack align="center" gap="sm" py="xl" ta="center">
            <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
              <IconMailOpened size={30} />
            </ThemeIcon>
            <Text fw={600}>
              <Trans>No invitations waiting for you</Trans>
            </Text>
            <Text size="sm" c="dimmed" maw={420}>
              <Trans>
                When someone invites you to a team workspace, the invitation shows here and in the workspace
                menu at the top of the page.
              </Trans>
            </Text>
          </Stack>
        )
      )}
    </Stack>
  );
}
