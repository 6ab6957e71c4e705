import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useWorkspacePlan } from '../workspaces/use-workspace-plan';
import { IconCheck, IconCrown } from '@tabler/icons-react';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import type { PaidTier } from '../../../src/admin/admin.schema';
import type { SubscriptionTier } from '../../../src/auth/auth.schema';
import { DEFAULT_FREE_LIMIT, includedInEveryPlan, planSellingPoints, plans } from '../../../src/plans';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate as dateOf } from '../../lib/format';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useCurrentUser } from '../auth/use-auth';

/** How many codes the plan holds, and of how many (called at render: the global i18n is active). */
function usage(count: number, max: number | null) {
  if (max === null) {
    return plural(count, {
      one: `You have ${count} QR codes (unlimited).`,
      other: `You have ${count} QR codes (unlimited).`,
    });
  }
  return plural(max, {
    one: `You have ${count} of ${max} QR codes.`,
    other: `You have ${count} of ${max} QR codes.`,
  });
}

/** A plan's name ('Pro'), src/'s English, in the app's language where it has one (called at render). */
const planName = (tier: SubscriptionTier) => translateShared(plans[tier].name);

/** A paid plan's status as the server says it ('active', 'canceled'), in words. */
const statusLabels: Record<string, MessageDescriptor> = {
  active: msg({ message: 'active', context: 'subscription status' }),
  canceled: msg({ message: 'canceled', context: 'subscription status' }),
};

/** /upgrade: the plans, the current one marked, and the way up (Stripe Checkout or a request). */
/** A plan's price a month, the amount written by Intl in the user's language (a dollar sign before or after it). */
function usePerMonth() {
  const { t, i18n } = useLingui();
  return (tier: SubscriptionTier) => {
    const price = new Intl.NumberFormat(i18n.locale, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    }).format(plans[tier].priceMonthly);
    return t`${price}/month`;
  };
}

export function UpgradePage() {
  const { t } = useLingui();
  const perMonth = usePerMonth();
  const user = useCurrentUser();
  const workspacePlan = useWorkspacePlan(user ?? { isAdmin: false });
  const search: { checkout?: unknown } = useSearch({ strict: false });
  const paid = search.checkout === 'success';
  const status = trpc.billing.status.useQuery(undefined, {
    refetchOnMount: 'always',
    // Back from Stripe: the webhook may land a moment after the browser, so look again for a while.
    refetchInterval: (query) => (paid && query.state.dataUpdateCount < 10 ? 3000 : false),
  });
  const freeLimit = trpc.auth.publicConfig.useQuery().data?.freePlanLimit ?? DEFAULT_FREE_LIMIT;
  const utils = trpc.useUtils();
  // Between the answer and the payment page loading, the button keeps spinning.
  const [redirecting, setRedirecting] = useState<PaidTier | null>(null);
  const checkout = trpc.billing.checkout.useMutation({
    onSuccess: ({ url }, { tier }) => {
      setRedirecting(tier);
      window.location.assign(url);
    },
    onError: (error) =>
      notify.error(t`Upgrade failed`, apiError(error, t`Could not open the payment page`).message),
  });
  const request = trpc.billing.requestUpgrade.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(t`Request sent`, translateShared(message));
      await utils.billing.status.invalidate();
    },
    onError: (error) =>
      notify.error(t`Upgrade failed`, apiError(error, t`Could not send the request`).message),
  });

  if (status.isError)
    return (
      <ErrorAlert>
        <Trans>Could not load your plan. Please try again later.</Trans>
      </ErrorAlert>
    );
  const data = status.data;
  const current: SubscriptionTier | undefined = data?.effectiveTier;
  const expired = data && data.tier !== 'free' && data.tier !== data.effectiveTier;
  const pending = data?.pendingRequest;
  const busy = checkout.isPending || request.isPending || redirecting !== null;
  const busyTier = redirecting ?? checkout.variables?.tier ?? request.variables?.tier;

  // Premium, unlimited access and admins have nothing to buy: the page says so and offers no button. The
  // plan is the current workspace's, and only its owners buy one.
  const nothingToBuy = Boolean(user && data && !workspacePlan.offer);

  // Plan names are written as the product names them, in every language.
  const premium = planName('premium');
  const free = planName('free');
  const statusLabel = data?.status ? statusLabels[data.status] : undefined;

  const choose = (tier: PaidTier) =>
    data?.payments === 'stripe' ? checkout.mutate({ tier }) : request.mutate({ tier });

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={2}>{nothingToBuy ? t`Your plan` : t`Upgrade your plan`}</Title>
        <Text c="dimmed">
          {nothingToBuy
            ? t`What each plan gives, and the one you are on.`
            : t`Create more QR codes and keep every one of them working.`}
        </Text>
      </div>
      {paid && (
        <Alert color="teal" title={t`Thank you`}>
          <Trans>Payment received — your plan updates in a moment.</Trans>
        </Alert>
      )}
      {search.checkout === 'canceled' && (
        <Alert color="blue" title={t`Checkout canceled`}>
          <Trans>Checkout canceled. You have not been charged.</Trans>
        </Alert>
      )}
      {expired && data.endDate && <EndedAlert plan={planName(data.tier)} date={dateOf(data.endDate)} />}
      {pending && <PendingAlert plan={planName(pending.tier)} date={dateOf(pending.createdAt)} />}

      {!workspacePlan.owner && (
        <Alert color="gray" title={t`Only an owner can change the plan`}>
          <Trans>
            This workspace&apos;s plan is chosen by its owners; the plans below are what they can buy.
          </Trans>
        </Alert>
      )}
      {user?.isAdmin ? (
        <Alert color="gray" title={t`You are an admin`}>
          <Trans>Admins have no limit on QR codes; the plans below are what your users see.</Trans>
        </Alert>
      ) : user?.hasUnlimitedAccess ? (
        <Alert color="teal" title={t`You have unlimited access`}>
          <Trans>
            An administrator gave your account unlimited access: no limit on QR codes, so there is nothing to
            buy.
          </Trans>
        </Alert>
      ) : (
        nothingToBuy &&
        current === 'premium' && (
          <Alert color="teal" title={t`You are on ${premium}, the top plan`}>
            <Trans>{premium} has no limit on QR codes, so there is nothing more to buy.</Trans>
          </Alert>
        )
      )}

      <Card withBorder radius="md" padding="md" aria-label={t`Your plan`} component="section">
        {data ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs" wrap="wrap">
              <Text fw={600}>
                <CurrentPlan plan={planName(data.effectiveTier)} />
              </Text>
              {data.effectiveTier !== 'free' && data.status && (
                <Badge variant="light" color={data.status === 'active' ? 'teal' : 'yellow'}>
                  {statusLabel ? t(statusLabel) : data.status}
                </Badge>
              )}
              {data.effectiveTier !== 'free' && data.endDate && (
                <Text c="dimmed" size="sm">
                  <EndDate canceled={data.status === 'canceled'} date={dateOf(data.endDate)} />
                </Text>
              )}
            </Group>
            <Text c="dimmed">{usage(data.currentCount, data.maxCount)}</Text>
          </Group>
        ) : (
          <Skeleton h={24} aria-label={t`Loading your plan`} />
        )}
      </Card>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {(['pro', 'premium'] as const).map((tier) => {
          const isCurrent = current === tier;
          // Premium already holds everything Pro gives.
          const included = current === 'premium' && tier === 'pro';
          const name = planName(tier);
          const action = data?.payments === 'stripe' ? t`Upgrade to ${name}` : t`Request ${name}`;
          return (
            <Card
              key={tier}
              withBorder
              radius="md"
              padding="xl"
              component="section"
              aria-label={t`${name} plan`}
              style={
                isCurrent ? { borderColor: 'var(--mantine-color-blue-filled)', borderWidth: 2 } : undefined
              }
            >
              <Stack gap="md" h="100%">
                <Group justify="space-between">
                  <Group gap="xs">
                    <IconCrown aria-hidden size={22} color="var(--mantine-color-violet-6)" />
                    <Title order={3}>{name}</Title>
                  </Group>
                  {isCurrent && (
                    <Badge color="blue">
                      <Trans>Current plan</Trans>
                    </Badge>
                  )}
                  {included && nothingToBuy && (
                    <Badge color="gray" variant="light">
                      <Trans>Included in {premium}</Trans>
                    </Badge>
                  )}
                </Group>
                <Text fz={32} fw={700}>
                  {perMonth(tier)}
                </Text>
                <List
                  spacing="xs"
                  icon={<IconCheck aria-hidden size={16} color="var(--mantine-color-teal-6)" />}
                >
                  {planSellingPoints(tier, freeLimit).map((f) => (
                    <List.Item key={f}>{translateShared(f)}</List.Item>
                  ))}
                </List>
                {!nothingToBuy && (
                  <Button
                    mt="auto"
                    fullWidth
                    variant={tier === 'premium' ? 'gradient' : 'filled'}
                    disabled={
                      !data || isCurrent || included || Boolean(pending) || (busy && busyTier !== tier)
                    }
                    loading={busy && busyTier === tier}
                    onClick={() => choose(tier)}
                  >
                    {isCurrent ? t`Current plan` : included ? t`Included in ${premium}` : action}
                  </Button>
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <Text size="sm">{translateShared(includedInEveryPlan)}</Text>
      <Card withBorder radius="md" padding="md" component="section" aria-label={t`${free} plan`}>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Group gap="xs">
              <Title order={3} size="h5">
                {free}
              </Title>
              <Text size="sm" c="dimmed">
                {perMonth('free')}
              </Text>
              {current === 'free' && (
                <Badge color="gray">
                  <Trans>Current plan</Trans>
                </Badge>
              )}
            </Group>
            <List size="sm" c="dimmed" spacing={2} mt={4}>
              {planSellingPoints('free', freeLimit).map((f) => (
                <List.Item key={f}>{translateShared(f)}</List.Item>
              ))}
            </List>
            <Text size="sm" c="dimmed" mt={4}>
              <Trans>Codes you made keep working on every plan, even after a paid plan ends.</Trans>
            </Text>
          </div>
        </Group>
      </Card>
    </Stack>
  );
}

/** 'Current plan: Pro'. */
function CurrentPlan({ plan }: { plan: string }) {
  return <Trans>Current plan: {plan}</Trans>;
}

/** When a paid plan ends: 'Ends on …' once canceled, else 'Renews or ends on …'. */
function EndDate({ canceled, date }: { canceled: boolean; date: string }) {
  return canceled ? <Trans>Ends on {date}</Trans> : <Trans>Renews or ends on {date}</Trans>;
}

/** A paid plan whose end date has passed: the codes keep working. */
function EndedAlert({ plan, date }: { plan: string; date: string }) {
  const { t } = useLingui();
  return (
    <Alert color="yellow" title={t`Your ${plan} plan has ended`}>
      <Trans>
        Your {plan} plan ended on {date}; your codes keep working. Renew to create more.
      </Trans>
    </Alert>
  );
}

/** The user's own request, waiting for an administrator. */
function PendingAlert({ plan, date }: { plan: string; date: string }) {
  const { t } = useLingui();
  return (
    <Alert color="blue" title={t`Request pending`}>
      <Trans>
        Request for {plan} pending since {date}. An administrator will decide soon; you will get an e-mail.
      </Trans>
    </Alert>
  );
}
