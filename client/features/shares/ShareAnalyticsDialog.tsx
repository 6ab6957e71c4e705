import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { translateShared } from '../../i18n/shared-messages';
import { trpc } from '../../lib/trpc';

/** What the dialog shares: one code or one folder, with its name for the title. */
export type ShareTarget = { qrCodeId: number; name: string } | { folderId: number; name: string };

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
  const { t, i18n } = useLingui();
  const expiries = [
    { value: 'never', label: t({ message: 'Never', context: 'the link never expires' }) },
    ...SHARE_EXPIRIES.map((days) => ({
      value: String(days),
      label: plural(days, { one: 'In # day', other: 'In # days' }),
    })),
  ];
  // English as before (the browser's own date format); another language writes the date its way.
  const dateLocale = i18n.locale === 'en' ? undefined : i18n.locale;
  const name = target.name;
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
    <Modal opened={opened} onClose={close} title={t`Share analytics of ${name}`} size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {'qrCodeId' in target
            ? t`Anyone with the link sees this code's charts and tables, without signing in, and nothing else of your account.`
            : t`Anyone with the link sees this folder's charts and tables, without signing in, and nothing else of your account.`}
        </Text>
        <PasswordInput
          label={t`Password (optional)`}
          description={t`Those who open the link must enter it first`}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          autoComplete="new-password"
        />
        <Select
          label={t`Expires`}
          data={expiries}
          value={expiry}
          onChange={(v) => setExpiry(v ?? 'never')}
          allowDeselect={false}
        />
        {create.error && (
          <Alert color="red" role="alert">
            {translateShared(create.error.message)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={create.isPending}>
            <Trans>Create link</Trans>
          </Button>
        </Group>
        {made && <LinkRow url={made.url} label={t`New link`} copyLabel={t`Copy new link`} />}

        <Divider label={t`Active links`} labelPosition="left" />
        {list.isError ? (
          <Text c="red" size="sm" role="alert">
            {translateShared(list.error.message)}
          </Text>
        ) : !list.data ? (
          <Text size="sm" c="dimmed">
            <Trans>Loading…</Trans>
          </Text>
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            <Trans>No active links.</Trans>
          </Text>
        ) : (
          <Stack gap="sm" data-share-links>
            {list.data.items.map((s) => {
              const linkId = s.id;
              const views = s.views;
              const expires = s.expiresAt ? new Date(s.expiresAt).toLocaleDateString(dateLocale) : null;
              return (
                <Stack key={s.id} gap={4} data-share-link={s.id}>
                  <LinkRow url={s.url} label={t`Link ${linkId}`} copyLabel={t`Copy link ${linkId}`} />
                  <Group justify="space-between" gap="xs">
                    <Text size="xs" c="dimmed">
                      {plural(views, { one: `${views} view`, other: `${views} views` })} ·{' '}
                      {expires ? t`expires ${expires}` : t`never expires`}
                      {s.hasPassword
                        ? ` · ${t({ message: 'password', context: 'the link has a password' })}`
                        : ''}
                    </Text>
                    {confirming === s.id ? (
                      <Group gap="xs">
                        <Button size="compact-xs" variant="default" onClick={() => setConfirming(null)}>
                          <Trans context="keep the link">Keep</Trans>
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
                          <Trans>Yes, revoke</Trans>
                        </Button>
                      </Group>
                    ) : (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setConfirming(s.id)}
                      >
                        <Trans>Revoke</Trans>
                      </Button>
                    )}
                  </Group>
                </Stack>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

function LinkRow({ url, label, copyLabel }: { url: string; label: string; copyLabel: string }) {
  const { t } = useLingui();
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
          <Tooltip label={copied ? t`Copied` : t`Copy`} withArrow>
            <ActionIcon
              variant="light"
              color={copied ? 'teal' : 'blue'}
              size="lg"
              onClick={copy}
              aria-label={copied ? t`Copied` : copyLabel}
            >
              {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
