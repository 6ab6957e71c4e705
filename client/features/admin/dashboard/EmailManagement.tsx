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
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { EmailTester } from '../../account/EmailTester';

const statusColor = { sent: 'teal', outbox: 'blue', failed: 'red' } as const;

/** How the server sends mail, and its sender (the check and the test mail are in the tester below). */
function TransportCard() {
  const mails = trpc.admin.mails.useQuery();
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} miw={0} style={{ flex: '1 1 280px' }}>
          <Title order={3} size="h4">
            Mail transport
          </Title>
          {mails.isError ? (
            <ErrorAlert>{apiError(mails.error, 'Failed to load the mail settings').message}</ErrorAlert>
          ) : !mails.data ? (
            <Stack gap={6} aria-busy="true" aria-label="Loading the mail settings">
              <Skeleton h={14} w="70%" />
              <Skeleton h={14} w="45%" />
            </Stack>
          ) : (
            <>
              <Group gap="xs">
                <Badge variant="light" color={mails.data.transport === 'smtp' ? 'teal' : 'blue'}>
                  {mails.data.transport === 'smtp' ? 'SMTP' : 'Outbox'}
                </Badge>
                <Text size="sm" c="dimmed">
                  {mails.data.transport === 'smtp'
                    ? 'Mail is handed to your mail server (SMTP_URL).'
                    : 'SMTP_URL is not set: each message is written to the outbox in the data folder.'}
                </Text>
              </Group>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  Sender:
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
  return (
    <Tooltip label={mail.error ?? ''} disabled={!mail.error} multiline w={280} withArrow>
      <Badge color={statusColor[mail.status]} variant="light" style={{ flexShrink: 0 }}>
        {mail.status}
      </Badge>
    </Tooltip>
  );
}

/** The last mails: sent, written to the outbox, or failed with the server's error. */
function RecentMail() {
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
        Recent mail
      </Title>
      {mails.isError ? (
        <ErrorAlert>{apiError(mails.error, 'Failed to load the mail log').message}</ErrorAlert>
      ) : !mails.data ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the mail log">
          <Skeleton h={28} />
          <Skeleton h={28} />
          <Skeleton h={28} />
        </Stack>
      ) : mails.data.entries.length === 0 ? (
        <Text c="dimmed">No mail sent yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs" aria-label="Recent mail">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recipient</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Status</Table.Th>
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
                        {m.error}
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

function NextTry({ mail, label = '' }: { mail: QueuedMail; label?: string }) {
  if (mail.status === 'given-up')
    return (
      <Badge color="red" variant="light">
        Given up
      </Badge>
    );
  if (mail.status === 'sending') return <Text size="sm">Sending now</Text>;
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {label}
      {exactTime(mail.nextAttemptAt ?? '')}
    </Text>
  );
}

function RetryButton({ mail, retry }: { mail: QueuedMail; retry: Retry }) {
  const busy = retry.isPending && retry.variables.id === mail.id;
  return (
    <Button
      size="xs"
      variant="light"
      disabled={mail.status === 'sending' || (retry.isPending && !busy)}
      loading={busy}
      onClick={() => retry.mutate({ id: mail.id })}
      aria-label={`Retry now: ${mail.subject} to ${mail.recipient}`}
      style={{ whiteSpace: 'nowrap' }}
    >
      Retry now
    </Button>
  );
}

function LastError({ mail }: { mail: QueuedMail }) {
  return (
    <Text size="xs" c="red" lineClamp={2} maw={260} title={mail.lastError ?? undefined}>
      {mail.lastError}
    </Text>
  );
}

type Retry = ReturnType<typeof trpc.admin.retryMail.useMutation>;

/** The queue on a phone: a small card per mail, so nothing is cut off at 375 px. */
function MailQueueList({ mails, retry }: { mails: QueuedMail[]; retry: Retry }) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label="Mail queue" style={{ listStyle: 'none' }}>
      {mails.map((m) => (
        <Paper component="li" withBorder radius="sm" p="xs" key={m.id}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {m.recipient}
          </Text>
          <Text size="sm">{m.subject}</Text>
          <Group gap="xs" mt={4} wrap="wrap">
            <Text size="xs" c="dimmed">
              {m.attempts} {m.attempts === 1 ? 'attempt' : 'attempts'}
            </Text>
            <NextTry mail={m} label="Next try: " />
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
  const stacked = useMatches({ base: true, sm: false });
  const utils = trpc.useUtils();
  const queue = trpc.admin.mailQueue.useQuery(undefined, {
    refetchInterval: 30_000,
    refetchOnMount: 'always',
  });
  const retry = trpc.admin.retryMail.useMutation({
    onSuccess: (answer) => notify.success('Sent', answer.message),
    onError: (error) => notify.error('Not sent', apiError(error, 'Failed to send email').message),
    onSettled: () =>
      Promise.all([
        utils.admin.mailQueue.invalidate(),
        utils.admin.mails.invalidate(),
        utils.admin.auditLog.invalidate(),
      ]),
  });
  const data = queue.data;
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb={4} wrap="wrap">
        <Title order={3} size="h4">
          Mail queue
        </Title>
        {data && (
          <>
            <Badge variant="light" color={data.waiting > 0 ? 'yellow' : 'gray'}>
              {data.waiting} waiting
            </Badge>
            <Badge variant="light" color={data.givenUp > 0 ? 'red' : 'gray'}>
              {data.givenUp} given up
            </Badge>
          </>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        A mail the server could not send is tried again after 1, 5 and 30 minutes, then 2, 6 and 16 hours, and
        given up after that. A mail whose link has expired is never sent.
      </Text>
      {queue.isError ? (
        <ErrorAlert>{apiError(queue.error, 'Failed to load the mail queue').message}</ErrorAlert>
      ) : !data ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the mail queue">
          <Skeleton h={28} />
          <Skeleton h={28} />
        </Stack>
      ) : data.mails.length === 0 ? (
        <Text c="dimmed">Nothing waits: every mail went out.</Text>
      ) : stacked ? (
        <MailQueueList mails={data.mails} retry={retry} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="xs" aria-label="Mail queue">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recipient</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Next try</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
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
