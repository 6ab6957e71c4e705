import { Card, Code, Group, Pagination, Skeleton, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { exactTime } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';

const PAGE_SIZE = 20;

/** Only what changed: "isAdmin: false → true", one per line. */
function changeOf(entry: { before?: unknown; after?: unknown }): string {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));
  const lines = keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) =>
      k in before && k in after
        ? `${k}: ${show(before[k])} → ${show(after[k])}`
        : `${k}: ${show(after[k] ?? before[k])}`,
    );
  return lines.join('\n');
}

/** Every admin action: who, what, on whom, what changed, when. */
export function AuditLog() {
  const [page, setPage] = useState(1);
  const log = trpc.admin.auditLog.useQuery({ page, pageSize: PAGE_SIZE }, { placeholderData: (p) => p });
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE_SIZE)) : 1;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        Audit log
      </Title>
      {log.isError ? (
        <ErrorAlert>{apiError(log.error, 'Failed to load the audit log').message}</ErrorAlert>
      ) : !log.data ? (
        <Skeleton h={160} aria-label="Loading the audit log" />
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
                    <Table.Td>{exactTime(e.createdAt)}</Table.Td>
                    <Table.Td>{e.actorUsername}</Table.Td>
                    <Table.Td>
                      <Code>{e.action}</Code>
                    </Table.Td>
                    <Table.Td>{e.targetLabel ?? e.targetType}</Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ whiteSpace: 'pre-wrap' }} ff="monospace">
                        {changeOf(e)}
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
