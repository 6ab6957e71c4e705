import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { SHARE_EXPIRIES, type AnalyticsShare } from '../../../src/shares/share.schema';
import { trpc } from '../../lib/trpc';

/** What the dialog shares: one code or one folder, with its name for the title. */
export type ShareTarget = { qrCodeId: number; name: string } | { folderId: number; name: string };

const expiries = [
  { value: 'never', label: 'Never' },
  ...SHARE_EXPIRIES.map((d) => ({ value: String(d), label: `In ${d} days` })),
];
const DAY_MS = 86_400_000;

/**
 * "Share analytics" (issue 36): makes a read-only link to the code's or folder's analytics (optionally
 * with a password and an expiry), shows it with a Copy button, and lists the live links with their
 * views and expiry, each revocable.
 */
export function ShareAnalyticsDialog({
  opened,
  onClose,
  target,
}: {
  opened: boolean;
  onClose: () => void;
  target: ShareTarget;
}) {
  const filter = 'qrCodeId' in target ? { qrCodeId: target.qrCodeId } : { folderId: target.folderId };
  const utils = trpc.useUtils();
  const list = trpc.shares.list.useQuery(filter, { enabled: opened });
  const create = trpc.shares.create.useMutation({ onSuccess: () => utils.shares.list.invalidate() });
  const revoke = trpc.shares.revoke.useMutation({ onSuccess: () => utils.shares.list.invalidate() });
  const [password, setPassword] = useState('');
  const [expiry, setExpiry] = useState('never');
  const [made, setMade] = useState<AnalyticsShare | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);

  function close() {
    setMade(null);
    setPassword('');
    setExpiry('never');
    setConfirming(null);
    create.reset();
    onClose();
  }

  function submit() {
    const expiresAt =
      expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString();
    create.mutate(
      { ...filter, ...(password ? { password } : {}), expiresAt },
      {
        onSuccess: (share) => {
          setMade(share);
          setPassword('');
        },
      },
    );
  }

  return (
    <Modal opened={opened} onClose={close} title={`Share analytics of ${target.name}`} size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Anyone with the link sees this {'qrCodeId' in target ? "code's" : "folder's"} charts and tables,
          without signing in, and nothing else of your account.
        </Text>
        <PasswordInput
          label="Password (optional)"
          description="Those who open the link must enter it first"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="new-password"
        />
        <Select
          label="Expires"
          data={expiries}
          value={expiry}
          onChange={(v) => setExpiry(v ?? 'never')}
          allowDeselect={false}
        />
        {create.error && (
          <Alert color="red" role="alert">
            {create.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={create.isPending}>
            Create link
          </Button>
        </Group>
        {made && <LinkRow url={made.url} label="New link" />}

        <Divider label="Active links" labelPosition="left" />
        {list.isError ? (
          <Text c="red" size="sm" role="alert">
            {list.error.message}
          </Text>
        ) : !list.data ? (
          <Text size="sm" c="dimmed">
            Loading…
          </Text>
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No active links.
          </Text>
        ) : (
          <Stack gap="sm" data-share-links>
            {list.data.items.map((s) => (
              <Stack key={s.id} gap={4} data-share-link={s.id}>
                <LinkRow url={s.url} label={`Link ${s.id}`} />
                <Group justify="space-between" gap="xs">
                  <Text size="xs" c="dimmed">
                    {s.views} {s.views === 1 ? 'view' : 'views'} ·{' '}
                    {s.expiresAt ? `expires ${new Date(s.expiresAt).toLocaleDateString()}` : 'never expires'}
                    {s.hasPassword ? ' · password' : ''}
                  </Text>
                  {confirming === s.id ? (
                    <Group gap="xs">
                      <Button size="compact-xs" variant="default" onClick={() => setConfirming(null)}>
                        Keep
                      </Button>
                      <Button
                        size="compact-xs"
                        color="red"
                        loading={revoke.isPending}
                        onClick={() =>
                          revoke.mutate(
                            { id: s.id },
                            {
                              onSettled: () => setConfirming(null),
                              onSuccess: () => setMade((m) => (m?.id === s.id ? null : m)),
                            },
                          )
                        }
                      >
                        Yes, revoke
                      </Button>
                    </Group>
                  ) : (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => setConfirming(s.id)}
                    >
                      Revoke
                    </Button>
                  )}
                </Group>
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

function LinkRow({ url, label }: { url: string; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <TextInput
        aria-label={label}
        value={url}
        readOnly
        style={{ flex: 1 }}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon
              variant="light"
              color={copied ? 'teal' : 'blue'}
              size="lg"
              onClick={copy}
              aria-label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`}
            >
              {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
