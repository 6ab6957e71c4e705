import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { plans } from '../../../../src/plans';
import type { Workspace } from '../../../../src/workspaces/workspace.schema';
import { formatDate } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { codesLabel } from './words';

/** The workspace's plan (tier, status, end date); owners get the way to change it, others are told who can. */
export function PlanPanel({ workspace }: { workspace: Workspace }) {
  const { plan } = workspace;
  const now = useNow(60_000);
  const holds = `This workspace holds ${codesLabel(workspace.qrCodeCount)}.`;
  const ended = plan.tier !== 'free' && plan.endDate !== null && new Date(plan.endDate).getTime() < now;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="plan-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="plan-title">
          Plan
        </Title>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>{plans[plan.tier].name}</Text>
          {plan.tier !== 'free' && plan.status && (
            <Badge variant="light" color={plan.status === 'active' && !ended ? 'teal' : 'yellow'}>
              {ended ? 'ended' : plan.status}
            </Badge>
          )}
          {plan.hasUnlimitedAccess && (
            <Badge variant="light" color="teal">
              Unlimited access
            </Badge>
          )}
        </Group>
        <Text size="sm">
          {plan.tier === 'free' || plan.endDate === null
            ? holds
            : `${ended ? 'Ended' : plan.status === 'canceled' ? 'Ends' : 'Renews or ends'} on ${formatDate(plan.endDate)}. ${holds}`}{' '}
          Codes keep redirecting whatever the plan.
        </Text>
        {workspace.role === 'owner' ? (
          <Group>
            <Button component={Link} to="/upgrade" leftSection={<IconCrown aria-hidden size={16} />}>
              Change plan
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Only an owner can change the plan.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
