import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconExternalLink, IconKey } from '@tabler/icons-react';
import type { MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import type { TokenScope } from '../../../src/auth/api-token.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useNow } from '../../lib/use-now';
import { apiError, trpc } from '../../lib/trpc';
import { useCurrentUser } from '../auth/use-auth';

const scopeLabels: Record<TokenScope, MessageDescriptor> = {
  read: msg`Read only`,
  write: msg`Read and write`,
  admin: msg`Admin (read, write and admin paths)`,
};

/** The scope's badge on a token: the short word. */
const scopeBadges: Record<TokenScope, MessageDescriptor> = {
  read: msg({ message: 'read', context: 'API token scope badge' }),
  write: msg({ message: 'write', context: 'API token scope badge' }),
  admin: msg({ message: 'admin', context: 'API token scope badge' }),
};

const expiries = [
  { value: '30', label: msg`30 days` },
  { value: '90', label: msg`90 days` },
  { value: '365', label: msg`1 year` },
  { value: 'never', label: msg({ message: 'Never', context: 'token expiry option' }) },
];

/** What the header of an API call looks like (a technical token, not translated). */
const BEARER_HEADER = 'Authorization: Bearer <token>';

function CreateTokenModal({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const isAdmin = useCurrentUser()?.isAdmin ?? false;
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | null>(null);
  const create = trpc.tokens.create.useMutation({
    onSuccess: async () => {
      notify.success(t`Token created`, t`Copy it now: it is shown only once.`);
      await utils.tokens.list.invalidate();
    },
    onError: (e) => notify.error(t`Error`, apiError(e, t`Failed to create the token`).message),
  });
  const created = create.data?.token;
  return (
    <Modal opened onClose={onClose} title={created ? t`Your new API token` : t`Create API token`} centered>
      {created ? (
        <Stack gap="sm">
          <Alert color="yellow" variant="light" title={t`Shown only once`}>
            <Trans>
              Copy this token now and keep it somewhere safe. Anyone with it can act as you within its scope.
            </Trans>
          </Alert>
          <Code block style={{ wordBreak: 'break-all' }}>
            {created}
          </Code>
          <Group justify="space-between">
            <CopyButton value={created}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? t`Copied` : t`Copy token`}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return setError(t`Name is required`);
            create.mutate({
              name: name.trim(),
              scope,
              expiresInDays: expiry === 'never' ? null : Number(expiry),
            });
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t`Name`}
              description={t`What the token is for, e.g. 'CI deploy script'`}
              required
              data-autofocus
              value={name}
              error={error}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setError(null);
              }}
            />
            <Select
              label={t`Scope`}
              allowDeselect={false}
              value={scope}
              onChange={(v) => setScope(v ?? 'read')}
              data={(isAdmin ? (['read', 'write', 'admin'] as const) : (['read', 'write'] as const)).map(
                (s) => ({
                  value: s,
                  label: t(scopeLabels[s]),
                }),
              )}
            />
            <Select
              label={t`Expires`}
              allowDeselect={false}
              value={expiry}
              onChange={(v) => setExpiry(v ?? '90')}
              data={expiries.map(({ value, label }) => ({ value, label: t(label) }))}
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onClose}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={create.isPending}>
                <Trans>Create token</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** Settings → Security: personal API tokens for `Authorization: Bearer` on the /api paths. */
export function ApiTokensCard() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const tokens = trpc.tokens.list.useQuery();
  const [creating, setCreating] = useState(false);
  const now = useNow();
  const header = BEARER_HEADER;
  const revoke = trpc.tokens.revoke.useMutation({
    onSuccess: async () => {
      notify.success(t`Token revoked`);
      await utils.tokens.list.invalidate();
    },
    onError: (e) => notify.error(t`Error`, apiError(e, t`Failed to revoke the token`).message),
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <div>
          <Title order={3} size="h4">
            <Trans>API tokens</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>
              Script QR Creator with <Code>{header}</Code> on the /api paths. Tokens never reach your account
              itself (sign-in, e-mail, password, two-factor, sessions, tokens), and a new password revokes
              them all.
            </Trans>
          </Text>
          <Anchor
            href="/api/docs"
            target="_blank"
            rel="noopener"
            size="sm"
            mt={4}
            display="inline-flex"
            style={{ alignItems: 'center', gap: 4 }}
          >
            <Trans>Read the API documentation</Trans>
            <IconExternalLink size={14} aria-hidden />
            <VisuallyHidden>
              <Trans>(opens in a new tab)</Trans>
            </VisuallyHidden>
          </Anchor>
        </div>
        <Button
          variant="light"
          leftSection={<IconKey aria-hidden size={16} />}
          onClick={() => setCreating(true)}
        >
          <Trans>Create token</Trans>
        </Button>
      </Group>
      {tokens.isError ? (
        <ErrorAlert>{apiError(tokens.error, t`Failed to load your tokens`).message}</ErrorAlert>
      ) : !tokens.data ? (
        <Skeleton h={56} aria-label={t`Loading tokens`} />
      ) : tokens.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No tokens yet.</Trans>
        </Text>
      ) : (
        <Stack gap="sm">
          {tokens.data.map((token) => {
            const { name, prefix } = token;
            const created = formatDate(token.createdAt);
            const ago = token.lastUsedAt ? relativeTime(token.lastUsedAt, now) : null;
            const lastUsed = ago === null ? t`last used never` : t`last used ${ago}`;
            const expires = token.expiresAt ? formatDate(token.expiresAt) : null;
            const expiry = expires === null ? t`never expires` : t`expires ${expires}`;
            return (
              <Card key={token.id} withBorder radius="sm" padding="sm">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <div>
                    <Group gap="xs">
                      <Text fw={600}>{name}</Text>
                      <Badge
                        variant="light"
                        color={token.scope === 'read' ? 'gray' : token.scope === 'write' ? 'blue' : 'red'}
                      >
                        {t(scopeBadges[token.scope])}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      <Trans>
                        <Code>{prefix}</Code> · created {created} · {lastUsed} · {expiry}
                      </Trans>
                    </Text>
                  </div>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    aria-label={t`Revoke ${name}`}
                    loading={revoke.isPending && revoke.variables?.id === token.id}
                    onClick={() => revoke.mutate({ id: token.id })}
                  >
                    <Trans>Revoke</Trans>
                  </Button>
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
      {creating && <CreateTokenModal onClose={() => setCreating(false)} />}
    </Card>
  );
}
