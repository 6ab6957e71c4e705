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

/**
 * The security events (server/security-log.ts) in words; admin actions show their own name. The audit
 * log holds every event except those an admin's own entry already records.
 */
const securityLabels: Record<string, string> = {
  'login.failed': 'Failed sign-in',
  'account.locked': 'Sign-in locked',
  'twofactor.failed': 'Wrong two-factor code',
  'token.refused': 'API token refused',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'role.changed': 'Admin rights changed',
  'plan.changed': 'Plan changed',
  'password.changed': 'Password changed',
  'password.reset': 'Password reset',
  'email.changed': 'E-mail address changed',
  'twofactor.enabled': 'Two-factor turned on',
  'twofactor.disabled': 'Two-factor turned off',
  'session.revoked': 'Sessions signed out',
};

/** "user grace", "settings", "mail ops@example.com"; a security event's account: "account grace". */
function targetOf(e: { targetType: string; targetLabel: string | null; targetId: string | null }) {
  const name = e.targetLabel ?? (e.targetId ? `#${e.targetId}` : null);
  if (e.targetType === 'security') return name ? `account ${name}` : '—';
  return name ? `${e.targetType} ${name}` : e.targetType;
}

/** Every admin action and security event: who, what, on whom, what changed, when. */
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
        <Text c="dimmed">No admin actions or security events yet.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>By</Table.Th>
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
                      {securityLabels[e.action] ? (
                        <Stack gap={2}>
                          <Text size="sm">{securityLabels[e.action]}</Text>
                          <Code>{e.action}</Code>
                        </Stack>
                      ) : (
                        <Code>{e.action}</Code>
                      )}
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
