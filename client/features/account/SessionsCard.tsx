import { Badge, Button, Card, Checkbox, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { exactTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';

const MOBILE_OS = /^(iOS|Android)/;

/** The browsers signed in to this account, with Sign out for each other one and for all of them. */
export function SessionsCard() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const sessions = trpc.account.sessions.useQuery();
  const refresh = () => utils.account.sessions.invalidate();
  const revoke = trpc.account.revokeSession.useMutation({
    onSuccess: async () => {
      notify.success(t`Session signed out`);
      await refresh();
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to sign out the session`).message),
  });
  const revokeOthers = trpc.account.revokeOtherSessions.useMutation({
    onSuccess: async ({ count, tokensRevoked }, input) => {
      notify.success(
        t`Signed out`,
        input?.revokeTokens
          ? t`${plural(count, {
              one: '# other session was signed out',
              other: '# other sessions were signed out',
            })}, and ${plural(tokensRevoked, { one: '# API token was revoked.', other: '# API tokens were revoked.' })}`
          : plural(count, {
              one: '# other session was signed out.',
              other: '# other sessions were signed out.',
            }),
      );
      setRevokeTokens(false);
      await Promise.all([refresh(), utils.tokens.list.invalidate()]);
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to sign out other sessions`).message),
  });
  const now = useNow();
  const [revokeTokens, setRevokeTokens] = useState(false);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <div>
          <Title order={3} size="h4">
            <Trans>Active sessions</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Browsers signed in to your account.</Trans>
          </Text>
        </div>
        <Stack gap={6} align="flex-end">
          <Button
            variant="light"
            color="red"
            disabled={others === 0 && !revokeTokens}
            loading={revokeOthers.isPending}
            onClick={() => revokeOthers.mutate({ revokeTokens })}
          >
            <Trans>Sign out all other sessions</Trans>
          </Button>
          <Checkbox
            size="xs"
            label={t`Also revoke API tokens`}
            checked={revokeTokens}
            onChange={(event) => setRevokeTokens(event.currentTarget.checked)}
          />
        </Stack>
      </Group>
      {sessions.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label={t`Loading sessions`}>
          <Skeleton h={56} />
          <Skeleton h={56} />
        </Stack>
      )}
      {sessions.isError && (
        <ErrorAlert>
          <Trans>Error loading sessions. Please try again later.</Trans>
        </ErrorAlert>
      )}
      {sessions.data && (
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t`Active sessions`}
        >
          {sessions.data.map((s) => {
            const Icon = MOBILE_OS.test(s.os) ? IconDeviceMobile : IconDeviceDesktop;
            // The server names an unknown browser or system in English ('Unknown browser').
            const browser = translateShared(s.browser);
            const os = translateShared(s.os);
            const { ip } = s;
            const lastSeen = relativeTime(s.lastSeenAt, now);
            const lastSeenExact = exactTime(s.lastSeenAt);
            const signedIn = exactTime(s.createdAt);
            return (
              <Card component="li" key={s.id} withBorder radius="sm" padding="sm" data-session-id={s.id}>
                <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                  <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
                    <Icon size={24} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                    <Stack gap={2} miw={0}>
                      <Group gap="xs" wrap="wrap">
                        <Text fw={600} size="sm">
                          <Trans>
                            {browser} on {os}
                          </Trans>
                        </Text>
                        {s.current && (
                          <Badge size="xs" variant="light" color="teal">
                            <Trans>This device</Trans>
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed">
                        <Trans>
                          {ip} · last seen <span title={lastSeenExact}>{lastSeen}</span> · signed in{' '}
                          {signedIn}
                        </Trans>
                      </Text>
                    </Stack>
                  </Group>
                  {!s.current && (
                    <Button
                      size="xs"
                      variant="default"
                      loading={revoke.isPending && revoke.variables?.id === s.id}
                      onClick={() => revoke.mutate({ id: s.id })}
                      aria-label={t`Sign out ${browser} on ${os}`}
                    >
                      <Trans>Sign out</Trans>
                    </Button>
                  )}
                </Group>
              </Card>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
