import { useLingui } from '@lingui/react/macro';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { destinationIssueText } from '../my-qr-codes/code-marks';
import { useDestinationIssuesQuery } from '../my-qr-codes/use-destination-issues';

/**
 * "Destinations down" on the dashboard (issue 35, item 4): each code whose destination (or a rule's, or
 * its fallback URL) failed the daily check twice in a row, linked to its details page, with what it does
 * since when ("Opens a 404 since 2 days"). Nothing while none is down, while loading, or when the question
 * fails: the dashboard is whole without it. A URL that failed once only is not listed (not confirmed).
 */
export function DestinationAlerts({ now }: { now: number }) {
  const { t } = useLingui();
  const issues = useDestinationIssuesQuery();
  const down = issues.data?.items.filter((issue) => issue.state === 'down') ?? [];
  if (down.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconLinkOff size={20} aria-hidden />}
      title={t`Destinations down`}
      // A standing notice, not an interruption: named for the outline, not read out as it loads.
      role="region"
      aria-label={t`Destinations down`}
      data-destination-alerts
    >
      <List size="sm" spacing={4} listStyleType="none" m={0} p={0}>
        {down.map((issue) => (
          <List.Item key={`${issue.codeId} ${issue.label} ${issue.url}`} style={{ overflowWrap: 'anywhere' }}>
            <Anchor
              component={Link}
              to={`/qr-details/${issue.codeId}`}
              size="sm"
              fw={600}
              c="red.9"
              underline="always"
            >
              {issue.codeName}
            </Anchor>
            <Text span size="sm">
              {': '}
              {destinationIssueText(issue, now)}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
