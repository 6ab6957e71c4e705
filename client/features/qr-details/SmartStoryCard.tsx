import { Badge, Box, Card, Group, List, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { QrCode } from '../../../src/qr/qr.schema';
import { describeOutcome, type ScanOutcomes } from '../../../src/qr/scan-outcome';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatCount } from '../../lib/format';
import { ruleInWords, scheduleInWords, statusLabels, statusNow, utmInWords } from './smart-story';

const statusColors = {
  active: 'teal',
  paused: 'orange',
  'not-started': 'blue',
  ended: 'gray',
  limit: 'red',
} as const;

/** A label and its value, one row of the settings' description list (the label above it on a phone). */
function Fact({ term, children, data }: { term: string; children: ReactNode; data?: string }) {
  return (
    <Box
      data-fact={data}
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 12, rowGap: 0 }}
    >
      <Text component="dt" size="sm" fw={600} w={{ base: '100%', sm: '10rem' }} style={{ flexShrink: 0 }}>
        {term}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ flex: '1 1 0', minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}

/**
 * The whole story of a smart code on its details page: what it does with a scan (its rules in order, the
 * default, its schedule and status, its scan limit and how much is used, password, UTM, what an inactive
 * code shows, where scans go while the destination is down) and where its scans went (per outcome).
 * Never the password itself.
 */
export function SmartStoryCard({
  code,
  outcomes,
  failed,
}: {
  code: QrCode;
  outcomes: ScanOutcomes | undefined;
  failed: boolean;
}) {
  const options = code.redirectOptions;
  const served = outcomes?.servedScans ?? null;
  const status = statusNow(options, served, new Date());
  const schedule = options ? scheduleInWords(options) : null;
  const utm = utmInWords(options);
  const rules = options?.rules ?? [];

  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="smart-story"
      data-smart-story
    >
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={3} size="h4" id="smart-story">
          Smart redirect
        </Title>
        <Group gap={6}>
          <Badge variant="light" color={statusColors[status]} data-status={status}>
            {statusLabels[status]}
          </Badge>
          {code.hasPassword && (
            <Badge variant="light" color="grape" leftSection={<IconLock size={12} aria-hidden />}>
              Password on
            </Badge>
          )}
        </Group>
      </Group>
      <Stack gap="xs" component="dl" m={0}>
        <Fact term="Rules" data="rules">
          {rules.length === 0 ? (
            'None: every scan goes to the default destination.'
          ) : (
            <List type="ordered" size="sm" spacing={4} component="ol">
              {rules.map((rule, i) => (
                <List.Item key={i}>
                  {rule.label ? <strong>{rule.label}: </strong> : null}
                  {ruleInWords(rule.conditions, options!.timeZone)} → {rule.destination}
                </List.Item>
              ))}
            </List>
          )}
        </Fact>
        <Fact term="Default destination" data="default">
          {code.content}
        </Fact>
        <Fact term="Schedule" data="schedule">
          {options?.paused ? 'Paused. ' : ''}
          {schedule ?? (options?.paused ? 'No dates set.' : 'Always active.')}
        </Fact>
        <Fact term="Scan limit" data="limit">
          {options?.maxScans == null ? (
            'No limit.'
          ) : served === null ? (
            failed ? (
              `${formatCount(options.maxScans)} scans`
            ) : (
              <Skeleton h={14} w={160} mt={3} />
            )
          ) : (
            <Stack gap={4}>
              <span>
                {formatCount(Math.min(served, options.maxScans))} of {formatCount(options.maxScans)} scans
                used
              </span>
              <Progress
                value={Math.min(100, (served / options.maxScans) * 100)}
                size="sm"
                aria-label="Scan limit used"
                color={served >= options.maxScans ? 'red' : 'blue'}
                maw={260}
              />
            </Stack>
          )}
        </Fact>
        <Fact term="Password" data="password">
          {code.hasPassword ? 'On: a scanner enters it before the destination opens.' : 'Off.'}
        </Fact>
        <Fact term="When inactive" data="inactive">
          {options?.fallbackUrl
            ? `Goes to ${options.fallbackUrl}`
            : options?.inactiveMessage
              ? `Shows a notice with your message: “${options.inactiveMessage}”`
              : 'Shows a notice page.'}
        </Fact>
        {options?.fallbackWhenDown && options.fallbackUrl && (
          <Fact term="When down" data="down">
            Goes to {options.fallbackUrl} while the daily check finds the destination down, until it answers
            again.
          </Fact>
        )}
        <Fact term="UTM parameters" data="utm">
          {utm ? utm : 'None.'}
          {options?.forwardQuery ? ' The scan’s own query parameters are passed on.' : ''}
        </Fact>
      </Stack>

      <Title order={4} size="h5" mt="lg" mb="xs" id="scan-outcomes">
        Where scans went
      </Title>
      {failed ? (
        <ErrorAlert>Error loading QR code details. Please try again later.</ErrorAlert>
      ) : !outcomes ? (
        <Skeleton h={80} />
      ) : outcomes.outcomes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No scan data available yet
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={0} type="native">
          <Table aria-labelledby="scan-outcomes" verticalSpacing={6} data-scan-outcomes>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Outcome</Table.Th>
                <Table.Th ta="right">Scans</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outcomes.outcomes.map((o) => {
                const { label, url } = describeOutcome(o, options, code.content);
                return (
                  <Table.Tr key={`${o.kind}${o.rule ?? ''}`} data-outcome={o.kind}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm">{label}</Text>
                      {url && (
                        <Text size="xs" c="dimmed">
                          {url}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatCount(o.count)}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {outcomes && outcomes.outcomes.length > 0 && (
        <Text size="xs" c="dimmed" mt="xs" data-outcomes-note>
          {outcomes.from
            ? `Counted from the kept scan history, since ${new Date(outcomes.from).toLocaleDateString()}. `
            : ''}
          Rules are numbered as they are now. A scanner who gives the right password is counted again when the
          destination opens.
        </Text>
      )}
    </Card>
  );
}
