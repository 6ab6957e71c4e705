import { msg, plural } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import {
  Badge,
  Button,
  Card,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  useMatches,
  VisuallyHidden,
} from '@mantine/core';
import { useMutationState } from '@tanstack/react-query';
import { getMutationKey } from '@trpc/react-query';
import { useEffect } from 'react';
import type { MailLogEntry, QueuedMail } from '../../../../src/admin/admin.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { exactTime } from '../../../lib/format';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { EmailTester } from '../../account/EmailTester';

const statusColor = { sent: 'teal', outbox: 'blue', failed: 'red' } as const;
/** A logged mail's status in words (the English is the server's own word). */
const statusLabels: Record<MailLogEntry['status'], MessageDescriptor> = {
  sent: msg({ message: 'sent', context: 'mail status' }),
  outbox: msg({ message: 'outbox', context: 'mail status: written to the outbox folder' }),
  failed: msg({ message: 'failed', context: 'mail status' }),
};

/** How the server sends mail, and its sender (the check and the test mail are in the tester below). */
function TransportCard() {
  const { t } = useLingui();
  const mails = trpc.admin.mails.useQuery();
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} miw={0} style={{ flex: '1 1 280px' }}>
          <Title order={3} size="h4">
            <Trans>Mail transport</Trans>
          </Title>
          {mails.isError ? (
            <ErrorAlert>{apiError(mails.error, t`Failed to load the mail settings`).message}</ErrorAlert>
          ) : !mails.data ? (
            <Stack gap={6} aria-busy="true" aria-label={t`Loading the mail settings`}>
              <Skeleton h={14} w="70%" />
              <Skeleton h={14} w="45%" />
            </Stack>
          ) : (
            <>
              <Group gap="xs">
                <Badge variant="light" color={mails.data.transport === 'smtp' ? 'teal' : 'blue'}>
                  {mails.data.transport === 'smtp'
                    ? 'SMTP'
                    : t({ message: 'Outbox', context: 'mail transport' })}
                </Badge>
                <Text size="sm" c="dimmed">
                  {mails.data.transport === 'smtp'
                    ? t`Mail is handed to your mail server (SMTP_URL).`
                    : t`SMTP_URL is not set: each message is written to the outbox in the data folder.`}
                </Text>
              </Group>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  <Trans>Sender:</Trans>
                </Text>{' '}
                <Text span ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {mails.data.from}
                </Text>
              </Text>
            </>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

function StatusBadge({ mail }: { mail: MailLogEntry }) {
  const { t } = useLingui();
  const label = statusLabels[mail.status] as MessageDescriptor | undefined;
  return (
    <Tooltip
      label={mail.error ? translateShared(mail.error) : ''}
      disabled={!mail.error}
      multiline
      w={280}
      withArrow
    >
      <Badge color={statusColor[mail.status]} variant="light" style={{ flexShrink: 0 }}>
        {label ? t(label) : mail.status}
      </Badge>
    </Tooltip>
  );
}

/** The last mails: sent, written to the outbox, or failed with the server's error. */
function RecentMail() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const mails = trpc.admin.mails.useQuery(undefined, { refetchInterval: 30_000, refetchOnMount: 'always' });
  // A test mail sent with the tester above (whatever came of it) shows up here at once.
  const testsSettled = useMutationState({
    filters: {
      mutationKey: getMutationKey(trpc.account.sendTestEmail),
      predicate: (m) => m.state.status !== 'pending',
    },
  }).length;
  useEffect(() => {
    if (testsSettled > 0)
      void Promise.all([utils.admin.mails.invalidate(), utils.admin.auditLog.invalidate()]);
  }, [testsSettled, utils]);

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        <Trans>Recent mail</Trans>
      </Title>
      {mails.isError ? (
        <ErrorAlert>{apiError(mails.error, t`Failed to load the mail log`).message}</ErrorAlert>
      ) : !mails.data ? (
        <Stack gap="xs" aria-busy="true" aria-label={t`Loading the mail log`}>
          <Skeleton h={28} />
          <Skeleton h={28} />
          <Skeleton h={28} />
        </Stack>
      ) : mails.data.entries.length === 0 ? (
        <Text c="dimmed">
          <Trans>No mail sent yet.</Trans>
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label={t`Recent mail`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Recipient</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Subject</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans context="column: when the mail was sent">Sent</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Status</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mails.data.entries.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.recipient}</Table.Td>
                  <Table.Td>{m.subject}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{exactTime(m.createdAt)}</Table.Td>
                  <Table.Td>
                    <StatusBadge mail={m} />
                    {m.error && (
                      <Text size="xs" c="red" lineClamp={2} mt={4} maw={260}>
                        {translateShared(m.error)}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/** When the mail is tried next ('Next try: …' with `labelled`), or that it is being sent or given up. */
function NextTry({ mail, labelled = false }: { mail: QueuedMail; labelled?: boolean }) {
  const { t } = useLingui();
  if (mail.status === 'given-up')
    return (
      <Badge color="red" variant="light">
        <Trans>Given up</Trans>
      </Badge>
    );
  if (mail.status === 'sending')
    return (
      <Text size="sm">
        <Trans>Sending now</Trans>
      </Text>
    );
  const time = exactTime(mail.nextAttemptAt ?? '');
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {labelled ? t`Next try: ${time}` : time}
    </Text>
  );
}

function RetryButton({ mail, retry }: { mail: QueuedMail; retry: Retry }) {
  const { t } = useLingui();
  const { subject, recipient } = mail;
  const busy = retry.isPending && retry.variables.id === mail.id;
  return (
    <Button
      size="xs"
      variant="light"
      disabled={mail.status === 'sending' || (retry.isPending && !busy)}
      loading={busy}
      onClick={() => retry.mutate({ id: mail.id })}
      aria-label={t`Retry now: ${subject} to ${recipient}`}
      style={{ whiteSpace: 'nowrap' }}
    >
      <Trans>Retry now</Trans>
    </Button>
  );
}

function LastError({ mail }: { mail: QueuedMail }) {
  // The server's words (the mail server's own, or why it was not sent), in the app's language when known.
  useLocale();
  const error = mail.lastError ? translateShared(mail.lastError) : null;
  return (
    <Text size="xs" c="red" lineClamp={2} maw={260} title={error ?? undefined}>
      {error}
    </Text>
  );
}

type Retry = ReturnType<typeof trpc.admin.retryMail.useMutation>;

/** '1 attempt', '3 attempts'. */
function Attempts({ count }: { count: number }) {
  return <Plural value={count} one="# attempt" other="# attempts" />;
}

/** The queue on a phone: a small card per mail, so nothing is cut off at 375 px. */
function MailQueueList({ mails, retry }: { mails: QueuedMail[]; retry: Retry }) {
  const { t } = useLingui();
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label={t`Mail queue`} style={{ listStyle: 'none' }}>
      {mails.map((m) => (
        <Paper component="li" withBorder radius="sm" p="xs" key={m.id}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {m.recipient}
          </Text>
          <Text size="sm">{m.subject}</Text>
          <Group gap="xs" mt={4} wrap="wrap">
            <Text size="xs" c="dimmed">
              <Attempts count={m.attempts} />
            </Text>
            <NextTry mail={m} labelled />
          </Group>
          <LastError mail={m} />
          <Group justify="flex-end" mt={4}>
            <RetryButton mail={m} retry={retry} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * Mails whose first attempt failed: waiting for their next try or given up, each with its attempts and
 * the mail server's last answer, and a Retry now that tries it at once.
 */
function MailQueueCard() {
  const { t } = useLingui();
  const stacked = useMatches({ base: true, sm: false });
  const utils = trpc.useUtils();
  const queue = trpc.admin.mailQueue.useQuery(undefined, {
    refetchInterval: 30_000,
    refetchOnMount: 'always',
  });
  const retry = trpc.admin.retryMail.useMutation({
    onSuccess: (answer) =>
      notify.success(
        t({ message: 'Sent', context: 'toast: the mail was sent' }),
        translateShared(answer.message),
      ),
    onError: (error) => notify.error(t`Not sent`, apiError(error, t`Failed to send email`).message),
    onSettled: () =>
      Promise.all([
        utils.admin.mailQueue.invalidate(),
        utils.admin.mails.invalidate(),
        utils.admin.auditLog.invalidate(),
      ]),
  });
  const data = queue.data;
  const waiting = data?.waiting ?? 0;
  const givenUp = data?.givenUp ?? 0;
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb={4} wrap="wrap">
        <Title order={3} size="h4">
          <Trans>Mail queue</Trans>
        </Title>
        {data && (
          <>
            <Badge variant="light" color={data.waiting > 0 ? 'yellow' : 'gray'}>
              {plural(waiting, { one: '# waiting', other: '# waiting' })}
            </Badge>
            <Badge variant="light" color={data.givenUp > 0 ? 'red' : 'gray'}>
              {plural(givenUp, { one: '# given up', other: '# given up' })}
            </Badge>
          </>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>
          A mail the server could not send is tried again after 1, 5 and 30 minutes, then 2, 6 and 16 hours,
          and given up after that. A mail whose link has expired is never sent.
        </Trans>
      </Text>
      {queue.isError ? (
        <ErrorAlert>{apiError(queue.error, t`Failed to load the mail queue`).message}</ErrorAlert>
      ) : !data ? (
        <Stack gap="xs" aria-busy="true" aria-label={t`Loading the mail queue`}>
          <Skeleton h={28} />
          <Skeleton h={28} />
        </Stack>
      ) : data.mails.length === 0 ? (
        <Text c="dimmed">
          <Trans>Nothing waits: every mail went out.</Trans>
        </Text>
      ) : stacked ? (
        <MailQueueList mails={data.mails} retry={retry} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="xs" aria-label={t`Mail queue`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Recipient</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Subject</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Attempts</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Next try</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Last error</Trans>
                </Table.Th>
                <Table.Th>
                  <VisuallyHidden>
                    <Trans context="column: a button per row">Action</Trans>
                  </VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.mails.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.recipient}</Table.Td>
                  <Table.Td>{m.subject}</Table.Td>
                  <Table.Td>{m.attempts}</Table.Td>
                  <Table.Td>
                    <NextTry mail={m} />
                  </Table.Td>
                  <Table.Td>
                    <LastError mail={m} />
                  </Table.Td>
                  <Table.Td>
                    <RetryButton mail={m} retry={retry} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

/**
 * The transport and its check, the test mail of Settings, the mails waiting for another try, and the
 * last mails sent, written or failed.
 */
export function EmailManagement() {
  return (
    <Stack gap="md">
      <TransportCard />
      <EmailTester />
      <MailQueueCard />
      <RecentMail />
    </Stack>
  );
}
