import { Card, Code, Group, Pagination, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { exactTime } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';

const PAGE_SIZE = 20;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined || v === null ? '—' : JSON.stringify(v));

/** Only what changed: "isAdmin: false → true", one per line; a whole value when it is not an object. */
function changeOf(before: unknown, after: unknown): string {
  if (!isRecord(before) && !isRecord(after)) {
    if (before === null || before === undefined)
      return after === null || after === undefined ? '' : show(after);
    return `${show(before)} → ${show(after)}`;
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => (k in b && k in a ? `${k}: ${show(b[k])} → ${show(a[k])}` : `${k}: ${show(a[k] ?? b[k])}`))
    .join('\n');
}

/** "user grace", "settings", "mail ops@example.com". */
function targetOf(e: { targetType: string; targetLabel: string | null; targetId: string | null }) {
  const name = e.targetLabel ?? (e.targetId ? `#${e.targetId}` : null);
  return name ? `${e.targetType} ${name}` : e.targetType;
}

/** Every admin action: who, what, on whom, what changed, when. */
export function AuditLog() {
  const [page, setPage] = useState(1);
  const log = trpc.admin.auditLog.useQuery(
    { page, pageSize: PAGE_SIZE },
    { placeholderData: (p) => p, refetchOnMount: 'always' },
  );
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE_SIZE)) : 1;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        Audit log
      </Title>
      {log.isError ? (
        <ErrorAlert>{apiError(log.error, 'Failed to load the audit log').message}</ErrorAlert>
      ) : !log.data ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading the audit log">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={28} />
          ))}
        </Stack>
      ) : log.data.entries.length === 0 ? (
        <Text c="dimmed">No admin actions yet.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Admin</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Change</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data.entries.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{exactTime(e.createdAt)}</Table.Td>
                    <Table.Td>{e.actorUsername}</Table.Td>
                    <Table.Td>
                      <Code>{e.action}</Code>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{targetOf(e)}</Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ whiteSpace: 'pre-wrap' }} ff="monospace">
                        {changeOf(e.before, e.after) || '—'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Group justify="flex-end" mt="md">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </>
      )}
    </Card>
  );
}
