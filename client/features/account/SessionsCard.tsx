import { Badge, Button, Card, Checkbox, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { exactTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

const MOBILE_OS = /^(iOS|Android)/;

/** The browsers signed in to this account, with Sign out for each other one and for all of them. */
export function SessionsCard() {
  const utils = trpc.useUtils();
  const sessions = trpc.account.sessions.useQuery();
  const refresh = () => utils.account.sessions.invalidate();
  const revoke = trpc.account.revokeSession.useMutation({
    onSuccess: async () => {
      notify.success('Session signed out');
      await refresh();
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to sign out the session').message),
  });
  const revokeOthers = trpc.account.revokeOtherSessions.useMutation({
    onSuccess: async ({ count, tokensRevoked }, input) => {
      const sessionsText = `${count} other ${count === 1 ? 'session was' : 'sessions were'} signed out`;
      notify.success(
        'Signed out',
        input?.revokeTokens
          ? `${sessionsText}, and ${tokensRevoked} API ${tokensRevoked === 1 ? 'token was' : 'tokens were'} revoked.`
          : `${sessionsText}.`,
      );
      setRevokeTokens(false);
      await Promise.all([refresh(), utils.tokens.list.invalidate()]);
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to sign out other sessions').message),
  });
  const now = useNow();
  const [revokeTokens, setRevokeTokens] = useState(false);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <div>
          <Title order={3} size="h4">
            Active sessions
          </Title>
          <Text size="sm" c="dimmed">
            Browsers signed in to your account.
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
            Sign out all other sessions
          </Button>
          <Checkbox
            size="xs"
            label="Also revoke API tokens"
            checked={revokeTokens}
            onChange={(event) => setRevokeTokens(event.currentTarget.checked)}
          />
        </Stack>
      </Group>
      {sessions.isPending && (
        <Stack gap="sm" aria-busy="true" aria-label="Loading sessions">
          <Skeleton h={56} />
          <Skeleton h={56} />
        </Stack>
      )}
      {sessions.isError && <ErrorAlert>Error loading sessions. Please try again later.</ErrorAlert>}
      {sessions.data && (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Active sessions">
          {sessions.data.map((s) => {
            const Icon = MOBILE_OS.test(s.os) ? IconDeviceMobile : IconDeviceDesktop;
            return (
              <Card component="li" key={s.id} withBorder radius="sm" padding="sm" data-session-id={s.id}>
                <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
                  <Group gap="sm" wrap="nowrap" miw={0} align="flex-start">
                    <Icon size={24} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                    <Stack gap={2} miw={0}>
                      <Group gap="xs" wrap="wrap">
                        <Text fw={600} size="sm">
                          {s.browser} on {s.os}
                        </Text>
                        {s.current && (
                          <Badge size="xs" variant="light" color="teal">
                            This device
                          </Badge>
                        )}
                      </Group>
                      <Text size="xs" c="dimmed">
                        {s.ip} · last seen{' '}
                        <span title={exactTime(s.lastSeenAt)}>{relativeTime(s.lastSeenAt, now)}</span> ·
                        signed in {exactTime(s.createdAt)}
                      </Text>
                    </Stack>
                  </Group>
                  {!s.current && (
                    <Button
                      size="xs"
                      variant="default"
                      loading={revoke.isPending && revoke.variables?.id === s.id}
                      onClick={() => revoke.mutate({ id: s.id })}
                      aria-label={`Sign out ${s.browser} on ${s.os}`}
                    >
                      Sign out
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
