import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
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
const securityLabels: Record<string, MessageDescriptor> = {
  'login.failed': msg`Failed sign-in`,
  'account.locked': msg`Sign-in locked`,
  'twofactor.failed': msg`Wrong two-factor code`,
  'token.refused': msg`API token refused`,
  'token.created': msg`API token created`,
  'token.revoked': msg`API token revoked`,
  'role.changed': msg`Admin rights changed`,
  'plan.changed': msg`Plan changed`,
  'password.changed': msg`Password changed`,
  // The same words as the toast of the reset (users/ResetPasswordModal.tsx).
  'password.reset': msg`Password reset`,
  'email.changed': msg`E-mail address changed`,
  'twofactor.enabled': msg`Two-factor turned on`,
  'twofactor.disabled': msg`Two-factor turned off`,
  'session.revoked': msg`Sessions signed out`,
};

/**
 * The kinds of target the server records, in words (the English is the server's own token); a kind not
 * listed shows as the server names it.
 */
const targetTypeLabels: Record<string, MessageDescriptor> = {
  user: msg({ message: 'user', context: 'audit log target kind' }),
  workspace: msg({ message: 'workspace', context: 'audit log target kind' }),
  member: msg({ message: 'member', context: 'audit log target kind' }),
  invitation: msg({ message: 'invitation', context: 'audit log target kind' }),
  settings: msg({ message: 'settings', context: 'audit log target kind' }),
  mail: msg({ message: 'mail', context: 'audit log target kind' }),
  domain: msg({ message: 'domain', context: 'audit log target kind' }),
  code: msg({ message: 'code', context: 'audit log target kind' }),
  codes: msg({ message: 'codes', context: 'audit log target kind' }),
  'upgrade-request': msg({ message: 'upgrade-request', context: 'audit log target kind' }),
};

/** "user grace", "settings", "mail ops@example.com"; a security event's account: "account grace". */
function useTargetOf() {
  const { t } = useLingui();
  return (e: { targetType: string; targetLabel: string | null; targetId: string | null }) => {
    const name = e.targetLabel ?? (e.targetId ? `#${e.targetId}` : null);
    if (e.targetType === 'security') return name ? t`account ${name}` : '—';
    const kind = targetTypeLabels[e.targetType];
    const type = kind ? t(kind) : e.targetType;
    return name
      ? t({ message: `${type} ${name}`, comment: 'audit log target: its kind, then its name' })
      : type;
  };
}

/** Every admin action and security event: who, what, on whom, what changed, when. */
export function AuditLog() {
  const { t } = useLingui();
  const targetOf = useTargetOf();
  const [page, setPage] = useState(1);
  const log = trpc.admin.auditLog.useQuery(
    { page, pageSize: PAGE_SIZE },
    { placeholderData: (p) => p, refetchOnMount: 'always' },
  );
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PAGE_SIZE)) : 1;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        <Trans>Audit log</Trans>
      </Title>
      {log.isError ? (
        <ErrorAlert>{apiError(log.error, t`Failed to load the audit log`).message}</ErrorAlert>
      ) : !log.data ? (
        <Stack gap="xs" aria-busy="true" aria-label={t`Loading the audit log`}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={28} />
          ))}
        </Stack>
      ) : log.data.entries.length === 0 ? (
        <Text c="dimmed">
          <Trans>No admin actions or security events yet.</Trans>
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Trans context="column: when it happened">When</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans context="column: who did it">By</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans context="column: what was done">Action</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans context="column: what it was done to">Target</Trans>
                  </Table.Th>
                  <Table.Th>
                    <Trans context="column: what changed">Change</Trans>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data.entries.map((e) => {
                  const label = securityLabels[e.action];
                  return (
                    <Table.Tr key={e.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{exactTime(e.createdAt)}</Table.Td>
                      <Table.Td>{e.actorUsername}</Table.Td>
                      <Table.Td>
                        {label ? (
                          <Stack gap={2}>
                            <Text size="sm">{t(label)}</Text>
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
                  );
                })}
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
