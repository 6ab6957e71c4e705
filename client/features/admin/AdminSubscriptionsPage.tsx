import { plural } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Menu,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowUp, IconCalendarPlus, IconDots, IconPlayerStop, IconX } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import type { AdminUser } from '../../../src/admin/admin.schema';
import { plans } from '../../../src/plans';
import { translateShared } from '../../i18n/shared-messages';
import { formatDate } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';
import { PlanBadge, SearchBox, statusLabel, UserCell, useUserList, type ListFilter } from './user-list';
import { UserTable } from './UserTable';
import { PlanChangeModal, useDeclineRequest, type PlanChange } from './subscriptions/PlanChangeModal';

function EndDate({ iso, now }: { iso: string | null; now: number }) {
  if (!iso)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const expired = new Date(iso).getTime() < now;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{formatDate(iso)}</Text>
      {expired && (
        <Badge miw="max-content" color="red" variant="light">
          <Trans>Expired</Trans>
        </Badge>
      )}
    </Group>
  );
}

function Actions({ user, open }: { user: AdminUser; open: (change: PlanChange) => void }) {
  const { t } = useLingui();
  const username = user.username;
  const paid = user.subscriptionTier !== 'free';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t`Subscription actions for ${username}`}>
          <IconDots aria-hidden size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconArrowUp aria-hidden size={16} />} onClick={() => open('upgrade')}>
          <Trans context="menu: upgrade the plan">Upgrade</Trans>
        </Menu.Item>
        {paid && (
          <>
            <Menu.Item
              leftSection={<IconCalendarPlus aria-hidden size={16} />}
              onClick={() => open('extend')}
            >
              <Trans context="menu: extend the plan">Extend</Trans>
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item
              color="orange"
              leftSection={<IconPlayerStop aria-hidden size={16} />}
              onClick={() => open('cancel-later')}
            >
              <Trans>Cancel at period end</Trans>
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconX aria-hidden size={16} />}
              onClick={() => open('cancel-now')}
            >
              <Trans>Cancel immediately</Trans>
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function RequestCell({ user, approve }: { user: AdminUser; approve: () => void }) {
  useLocale();
  const decline = useDeclineRequest();
  const request = user.upgradeRequest;
  if (!request) return null;
  const plan = translateShared(plans[request.tier].name);
  return (
    <Group gap={6} mt={4} wrap="nowrap">
      <Badge miw="max-content" color="yellow" variant="light">
        <Trans>Requested {plan}</Trans>
      </Badge>
      <Button size="compact-xs" onClick={approve}>
        <Trans>Approve</Trans>
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        loading={decline.isPending}
        onClick={() => decline.mutate({ id: request.id, approve: false, duration: 30 })}
      >
        <Trans>Decline</Trans>
      </Button>
    </Group>
  );
}

/** /admin/subscriptions: every user's plan, with upgrade, extend and cancel; pending upgrade requests. */
export function AdminSubscriptionsPage() {
  const { t } = useLingui();
  // ?show=requests (the link in the admins' mail and on /admin) opens the pending requests.
  const search: { show?: unknown } = useSearch({ strict: false });
  const [filter, setFilter] = useState<ListFilter>(search.show === 'requests' ? 'requests' : 'all');
  const pending = trpc.admin.notices.useQuery().data?.pendingUpgradeRequests ?? 0;
  const list = useUserList('subscriptions', filter);
  const [dialog, setDialog] = useState<{ user: AdminUser; change: PlanChange } | null>(null);
  const now = useNow(10_000);
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Subscriptions</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            Upgrade, extend or cancel a plan for 1 to 365 days; approve the upgrades users ask for.
          </Trans>
        </Text>
      </div>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SearchBox list={list} label={t`Search subscriptions`} />
        <SegmentedControl
          aria-label={t({ message: 'Show', context: 'which users the list shows' })}
          // On a phone: the whole width, each segment as wide as its label, so all three fit at 375 px.
          size={narrow ? 'xs' : 'sm'}
          fullWidth={narrow}
          w={narrow ? '100%' : undefined}
          styles={narrow ? { control: { flex: '1 1 auto' } } : undefined}
          value={filter}
          onChange={(v) => {
            setFilter(v);
            list.setPage(1);
          }}
          data={[
            { value: 'all', label: t`All users` },
            { value: 'paid', label: t`Paid plans` },
            {
              value: 'requests',
              label: (
                <Group gap={6} wrap="nowrap" justify="center">
                  <span>
                    <Trans>Upgrade requests</Trans>
                  </span>
                  {pending > 0 && (
                    <Badge size="sm" circle={pending < 10} color="red" variant="filled">
                      {pending}
                      <VisuallyHidden>
                        {' '}
                        {plural(pending, { one: 'pending', other: 'pending' })}
                      </VisuallyHidden>
                    </Badge>
                  )}
                </Group>
              ),
            },
          ]}
        />
      </Group>
      <UserTable
        list={list}
        minWidth={820}
        columns={[
          { label: t`User`, sortBy: 'username' },
          { label: t`Plan`, sortBy: 'tier' },
          { label: t`Status`, sortBy: 'status' },
          { label: t`End date` },
          { label: t`Unlimited` },
        ]}
        cells={(user) => (
          <>
            <Table.Td>
              <UserCell user={user} />
              <RequestCell user={user} approve={() => setDialog({ user, change: 'approve' })} />
            </Table.Td>
            <Table.Td>
              <PlanBadge user={user} />
            </Table.Td>
            <Table.Td>{statusLabel(user.subscriptionStatus)}</Table.Td>
            <Table.Td>
              <EndDate iso={user.subscriptionEndDate} now={now} />
            </Table.Td>
            <Table.Td>
              {user.hasUnlimitedAccess ? (
                <Badge miw="max-content" color="teal">
                  <Trans>Unlimited</Trans>
                </Badge>
              ) : (
                <Text size="sm" c="dimmed">
                  —
                </Text>
              )}
            </Table.Td>
          </>
        )}
        actions={(user) => <Actions user={user} open={(change) => setDialog({ user, change })} />}
      />
      {dialog && (
        <PlanChangeModal user={dialog.user} change={dialog.change} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
