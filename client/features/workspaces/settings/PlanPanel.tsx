import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { plans } from '../../../../src/plans';
import type { Workspace } from '../../../../src/workspaces/workspace.schema';
import { formatDate } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';

/** The workspace's plan (tier, status, end date); owners get the way to change it, others are told who can. */
export function PlanPanel({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const { plan } = workspace;
  const now = useNow(60_000);
  const count = workspace.qrCodeCount;
  const holds = plural(count, {
    one: 'This workspace holds # QR code.',
    other: 'This workspace holds # QR codes.',
  });
  const ended = plan.tier !== 'free' && plan.endDate !== null && new Date(plan.endDate).getTime() < now;
  // The status as the billing sets it, in words; another one shows as it is stored.
  const status = ended
    ? t({ message: 'ended', context: 'the status of a paid plan' })
    : plan.status === 'active'
      ? t({ message: 'active', context: 'the status of a paid plan' })
      : plan.status === 'canceled'
        ? t({ message: 'canceled', context: 'the status of a paid plan' })
        : plan.status;
  const date = plan.endDate === null ? '' : formatDate(plan.endDate);
  const until = ended
    ? t`Ended on ${date}.`
    : plan.status === 'canceled'
      ? t`Ends on ${date}.`
      : t`Renews or ends on ${date}.`;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="plan-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="plan-title">
          <Trans>Plan</Trans>
        </Title>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>{plans[plan.tier].name}</Text>
          {plan.tier !== 'free' && plan.status && (
            <Badge variant="light" color={plan.status === 'active' && !ended ? 'teal' : 'yellow'}>
              {status}
            </Badge>
          )}
          {plan.hasUnlimitedAccess && (
            <Badge variant="light" color="teal">
              <Trans>Unlimited access</Trans>
            </Badge>
          )}
        </Group>
        <Text size="sm">
          {plan.tier === 'free' || plan.endDate === null ? holds : `${until} ${holds}`}{' '}
          <Trans>Codes keep redirecting whatever the plan.</Trans>
        </Text>
        {workspace.role === 'owner' ? (
          <Group>
            <Button component={Link} to="/upgrade" leftSection={<IconCrown aria-hidden size={16} />}>
              <Trans>Change plan</Trans>
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>Only an owner can change the plan.</Trans>
          </Text>
        )}
      </Stack>
    </Card>
  );
}
