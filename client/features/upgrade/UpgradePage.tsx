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
import {
  DEFAULT_FREE_LIMIT,
  includedInEveryPlan,
  monthlyPrice,
  planSellingPoints,
  plans,
} from '../../../src/plans';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate as dateOf } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useCurrentUser } from '../auth/use-auth';

function usage(count: number, max: number | null) {
  return max === null ? `You have ${count} QR codes (unlimited).` : `You have ${count} of ${max} QR codes.`;
}

/** /upgrade: the plans, the current one marked, and the way up (Stripe Checkout or a request). */
export function UpgradePage() {
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
      notify.error('Upgrade failed', apiError(error, 'Could not open the payment page').message),
  });
  const request = trpc.billing.requestUpgrade.useMutation({
    onSuccess: async ({ message }) => {
      notify.success('Request sent', message);
      await utils.billing.status.invalidate();
    },
    onError: (error) => notify.error('Upgrade failed', apiError(error, 'Could not send the request').message),
  });

  if (status.isError) return <ErrorAlert>Could not load your plan. Please try again later.</ErrorAlert>;
  const data = status.data;
  const current: SubscriptionTier | undefined = data?.effectiveTier;
  const expired = data && data.tier !== 'free' && data.tier !== data.effectiveTier;
  const pending = data?.pendingRequest;
  const busy = checkout.isPending || request.isPending || redirecting !== null;
  const busyTier = redirecting ?? checkout.variables?.tier ?? request.variables?.tier;

  // Premium, unlimited access and admins have nothing to buy: the page says so and offers no button. The
  // plan is the current workspace's, and only its owners buy one.
  const nothingToBuy = Boolean(user && data && !workspacePlan.offer);

  const choose = (tier: PaidTier) =>
    data?.payments === 'stripe' ? checkout.mutate({ tier }) : request.mutate({ tier });

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={2}>{nothingToBuy ? 'Your plan' : 'Upgrade your plan'}</Title>
        <Text c="dimmed">
          {nothingToBuy
            ? 'What each plan gives, and the one you are on.'
            : 'Create more QR codes and keep every one of them working.'}
        </Text>
      </div>
      {paid && (
        <Alert color="teal" title="Thank you">
          Payment received — your plan updates in a moment.
        </Alert>
      )}
      {search.checkout === 'canceled' && (
        <Alert color="blue" title="Checkout canceled">
          Checkout canceled. You have not been charged.
        </Alert>
      )}
      {expired && data.endDate && (
        <Alert color="yellow" title={`Your ${plans[data.tier].name} plan has ended`}>
          Your {plans[data.tier].name} plan ended on {dateOf(data.endDate)}; your codes keep working. Renew to
          create more.
        </Alert>
      )}
      {pending && (
        <Alert color="blue" title="Request pending">
          Request for {plans[pending.tier].name} pending since {dateOf(pending.createdAt)}. An administrator
          will decide soon; you will get an e-mail.
        </Alert>
      )}

      {!workspacePlan.owner && (
        <Alert color="gray" title="Only an owner can change the plan">
          This workspace&apos;s plan is chosen by its owners; the plans below are what they can buy.
        </Alert>
      )}
      {user?.isAdmin ? (
        <Alert color="gray" title="You are an admin">
          Admins have no limit on QR codes; the plans below are what your users see.
        </Alert>
      ) : user?.hasUnlimitedAccess ? (
        <Alert color="teal" title="You have unlimited access">
          An administrator gave your account unlimited access: no limit on QR codes, so there is nothing to
          buy.
        </Alert>
      ) : (
        nothingToBuy &&
        current === 'premium' && (
          <Alert color="teal" title={`You are on ${plans.premium.name}, the top plan`}>
            {plans.premium.name} has no limit on QR codes, so there is nothing more to buy.
          </Alert>
        )
      )}

      <Card withBorder radius="md" padding="md" aria-label="Your plan" component="section">
        {data ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs" wrap="wrap">
              <Text fw={600}>Current plan: {plans[data.effectiveTier].name}</Text>
              {data.effectiveTier !== 'free' && data.status && (
                <Badge variant="light" color={data.status === 'active' ? 'teal' : 'yellow'}>
                  {data.status}
                </Badge>
              )}
              {data.effectiveTier !== 'free' && data.endDate && (
                <Text c="dimmed" size="sm">
                  {data.status === 'canceled' ? 'Ends' : 'Renews or ends'} on {dateOf(data.endDate)}
                </Text>
              )}
            </Group>
            <Text c="dimmed">{usage(data.currentCount, data.maxCount)}</Text>
          </Group>
        ) : (
          <Skeleton h={24} aria-label="Loading your plan" />
        )}
      </Card>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {(['pro', 'premium'] as const).map((tier) => {
          const isCurrent = current === tier;
          // Premium already holds everything Pro gives.
          const included = current === 'premium' && tier === 'pro';
          const verb = data?.payments === 'stripe' ? 'Upgrade to' : 'Request';
          return (
            <Card
              key={tier}
              withBorder
              radius="md"
              padding="xl"
              component="section"
              aria-label={`${plans[tier].name} plan`}
              style={
                isCurrent ? { borderColor: 'var(--mantine-color-blue-filled)', borderWidth: 2 } : undefined
              }
            >
              <Stack gap="md" h="100%">
                <Group justify="space-between">
                  <Group gap="xs">
                    <IconCrown aria-hidden size={22} color="var(--mantine-color-violet-6)" />
                    <Title order={3}>{plans[tier].name}</Title>
                  </Group>
                  {isCurrent && <Badge color="blue">Current plan</Badge>}
                  {included && nothingToBuy && (
                    <Badge color="gray" variant="light">
                      Included in {plans.premium.name}
                    </Badge>
                  )}
                </Group>
                <Text fz={32} fw={700}>
                  {monthlyPrice(tier)}
                </Text>
                <List
                  spacing="xs"
                  icon={<IconCheck aria-hidden size={16} color="var(--mantine-color-teal-6)" />}
                >
                  {planSellingPoints(tier, freeLimit).map((f) => (
                    <List.Item key={f}>{f}</List.Item>
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
                    {isCurrent
                      ? 'Current plan'
                      : included
                        ? `Included in ${plans.premium.name}`
                        : `${verb} ${plans[tier].name}`}
                  </Button>
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <Text size="sm">{includedInEveryPlan}</Text>
      <Card withBorder radius="md" padding="md" component="section" aria-label={`${plans.free.name} plan`}>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Group gap="xs">
              <Title order={3} size="h5">
                {plans.free.name}
              </Title>
              <Text size="sm" c="dimmed">
                {monthlyPrice('free')}
              </Text>
              {current === 'free' && <Badge color="gray">Current plan</Badge>}
            </Group>
            <List size="sm" c="dimmed" spacing={2} mt={4}>
              {planSellingPoints('free', freeLimit).map((f) => (
                <List.Item key={f}>{f}</List.Item>
              ))}
            </List>
            <Text size="sm" c="dimmed" mt={4}>
              Codes you made keep working on every plan, even after a paid plan ends.
            </Text>
          </div>
        </Group>
      </Card>
    </Stack>
  );
}
