import { Badge, Card, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { exactTime } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';
import { EmailTester } from '../../settings/EmailTester';

const statusColor = { sent: 'teal', outbox: 'blue', failed: 'red' } as const;

/** The transport, the check and test of Settings, and the last mails sent, written or failed. */
export function EmailManagement() {
  // Polled while open: a test mail sent just above shows up here by itself.
  const mails = trpc.admin.mails.useQuery(undefined, { refetchInterval: 5000 });
  return (
    <Stack gap="md">
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="xs">
          Transport
        </Title>
        {mails.data ? (
          <Text size="sm">
            {mails.data.transport === 'smtp'
              ? 'SMTP (SMTP_URL is set): mail is handed to your mail server.'
              : 'Outbox (SMTP_URL is not set): every message is written as a file to the data folder’s outbox.'}{' '}
            Sender:{' '}
            <Text span ff="monospace" size="sm">
              {mails.data.from}
            </Text>
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Loading…
          </Text>
        )}
      </Card>
      <EmailTester />
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          Recent mail
        </Title>
        {mails.isError ? (
          <ErrorAlert>{apiError(mails.error, 'Failed to load the mail log').message}</ErrorAlert>
        ) : mails.data && mails.data.entries.length === 0 ? (
          <Text c="dimmed">No mail sent yet.</Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Recipient</Table.Th>
                  <Table.Th>Subject</Table.Th>
                  <Table.Th>Sent</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {mails.data?.entries.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{m.recipient}</Table.Td>
                    <Table.Td>{m.subject}</Table.Td>
                    <Table.Td>{exactTime(m.createdAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Tooltip label={m.error ?? ''} disabled={!m.error} multiline w={280}>
                          <Badge color={statusColor[m.status]} variant="light">
                            {m.status}
                          </Badge>
                        </Tooltip>
                      </Group>
                      {m.error && (
                        <Text size="xs" c="red" lineClamp={2}>
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
    </Stack>
  );
}
