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
import { IconExternalLink, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import type { TokenScope } from '../../../src/auth/api-token.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { useNow } from '../../lib/use-now';
import { apiError, trpc } from '../../lib/trpc';
import { useCurrentUser } from '../auth/use-auth';

const scopeLabels: Record<TokenScope, string> = {
  read: 'Read only',
  write: 'Read and write',
  admin: 'Admin (read, write and admin paths)',
};

const expiries = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];

function CreateTokenModal({ onClose }: { onClose: () => void }) {
  const utils = trpc.useUtils();
  const isAdmin = useCurrentUser()?.isAdmin ?? false;
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | null>(null);
  const create = trpc.tokens.create.useMutation({
    onSuccess: async () => {
      notify.success('Token created', 'Copy it now: it is shown only once.');
      await utils.tokens.list.invalidate();
    },
    onError: (e) => notify.error('Error', apiError(e, 'Failed to create the token').message),
  });
  const created = create.data?.token;
  return (
    <Modal opened onClose={onClose} title={created ? 'Your new API token' : 'Create API token'} centered>
      {created ? (
        <Stack gap="sm">
          <Alert color="yellow" variant="light" title="Shown only once">
            Copy this token now and keep it somewhere safe. Anyone with it can act as you within its scope.
          </Alert>
          <Code block style={{ wordBreak: 'break-all' }}>
            {created}
          </Code>
          <Group justify="space-between">
            <CopyButton value={created}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy token'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return setError('Name is required');
            create.mutate({
              name: name.trim(),
              scope,
              expiresInDays: expiry === 'never' ? null : Number(expiry),
            });
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Name"
              description="What the token is for, e.g. 'CI deploy script'"
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
              label="Scope"
              allowDeselect={false}
              value={scope}
              onChange={(v) => setScope(v ?? 'read')}
              data={(isAdmin ? (['read', 'write', 'admin'] as const) : (['read', 'write'] as const)).map(
                (s) => ({
                  value: s,
                  label: scopeLabels[s],
                }),
              )}
            />
            <Select
              label="Expires"
              allowDeselect={false}
              value={expiry}
              onChange={(v) => setExpiry(v ?? '90')}
              data={expiries}
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create token
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
  const utils = trpc.useUtils();
  const tokens = trpc.tokens.list.useQuery();
  const [creating, setCreating] = useState(false);
  const now = useNow();
  const revoke = trpc.tokens.revoke.useMutation({
    onSuccess: async () => {
      notify.success('Token revoked');
      await utils.tokens.list.invalidate();
    },
    onError: (e) => notify.error('Error', apiError(e, 'Failed to revoke the token').message),
  });
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <div>
          <Title order={3} size="h4">
            API tokens
          </Title>
          <Text size="sm" c="dimmed">
            Script QR Creator with <Code>Authorization: Bearer &lt;token&gt;</Code> on the /api paths. Tokens
            never reach your account itself (sign-in, e-mail, password, two-factor, sessions, tokens), and a
            new password revokes them all.
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
            Read the API documentation
            <IconExternalLink size={14} aria-hidden />
            <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
          </Anchor>
        </div>
        <Button
          variant="light"
          leftSection={<IconKey aria-hidden size={16} />}
          onClick={() => setCreating(true)}
        >
          Create token
        </Button>
      </Group>
      {tokens.isError ? (
        <ErrorAlert>{apiError(tokens.error, 'Failed to load your tokens').message}</ErrorAlert>
      ) : !tokens.data ? (
        <Skeleton h={56} aria-label="Loading tokens" />
      ) : tokens.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No tokens yet.
        </Text>
      ) : (
        <Stack gap="sm">
          {tokens.data.map((t) => (
            <Card key={t.id} withBorder radius="sm" padding="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <div>
                  <Group gap="xs">
                    <Text fw={600}>{t.name}</Text>
                    <Badge
                      variant="light"
                      color={t.scope === 'read' ? 'gray' : t.scope === 'write' ? 'blue' : 'red'}
                    >
                      {t.scope}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed">
                    <Code>{t.prefix}</Code> · created {formatDate(t.createdAt)} · last used{' '}
                    {t.lastUsedAt ? relativeTime(t.lastUsedAt, now) : 'never'} ·{' '}
                    {t.expiresAt ? `expires ${formatDate(t.expiresAt)}` : 'never expires'}
                  </Text>
                </div>
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  aria-label={`Revoke ${t.name}`}
                  loading={revoke.isPending && revoke.variables?.id === t.id}
                  onClick={() => revoke.mutate({ id: t.id })}
                >
                  Revoke
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
      {creating && <CreateTokenModal onClose={() => setCreating(false)} />}
    </Card>
  );
}
