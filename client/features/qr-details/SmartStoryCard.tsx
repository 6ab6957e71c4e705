import { Badge, Box, Card, Group, List, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { QrCode } from '../../../src/qr/qr.schema';
import { describeOutcome, type ScanOutcomes } from '../../../src/qr/scan-outcome';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
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
  const { t, i18n } = useLingui();
  const maxScans = options?.maxScans ?? null;
  const fallbackUrl = options?.fallbackUrl;
  const inactiveMessage = options?.inactiveMessage;
  // '120 of 500 scans used'.
  const used = served !== null && maxScans !== null ? formatCount(Math.min(served, maxScans)) : '';
  // English as before (the browser's own date format); another language writes the date its way.
  const since = outcomes?.from
    ? new Date(outcomes.from).toLocaleDateString(i18n.locale === 'en' ? undefined : i18n.locale)
    : null;

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
          <Trans>Smart redirect</Trans>
        </Title>
        <Group gap={6}>
          <Badge variant="light" color={statusColors[status]} data-status={status}>
            {t(statusLabels[status])}
          </Badge>
          {code.hasPassword && (
            <Badge variant="light" color="grape" leftSection={<IconLock size={12} aria-hidden />}>
              <Trans>Password on</Trans>
            </Badge>
          )}
        </Group>
      </Group>
      <Stack gap="xs" component="dl" m={0}>
        <Fact term={t`Rules`} data="rules">
          {rules.length === 0 ? (
            t`None: every scan goes to the default destination.`
          ) : (
            <List type="ordered" size="sm" spacing={4} component="ol">
              {rules.map((rule, i) => {
                const label = rule.label;
                return (
                  <List.Item key={i}>
                    {label ? <strong>{t`${label}:`} </strong> : null}
                    {ruleInWords(rule.conditions, options!.timeZone)} → {rule.destination}
                  </List.Item>
                );
              })}
            </List>
          )}
        </Fact>
        <Fact term={t`Default destination`} data="default">
          {code.content}
        </Fact>
        <Fact term={t`Schedule`} data="schedule">
          {options?.paused ? `${t`Paused.`} ` : ''}
          {schedule ?? (options?.paused ? t`No dates set.` : t`Always active.`)}
        </Fact>
        <Fact term={t`Scan limit`} data="limit">
          {maxScans === null ? (
            t`No limit.`
          ) : served === null ? (
            failed ? (
              // English says "scans" for 1 as well, as it always has.
              plural(maxScans, { one: '# scans', other: '# scans' })
            ) : (
              <Skeleton h={14} w={160} mt={3} />
            )
          ) : (
            <Stack gap={4}>
              <span>
                {
                  // English says "scans" for 1 as well, as it always has.
                  plural(maxScans, { one: `${used} of # scans used`, other: `${used} of # scans used` })
                }
              </span>
              <Progress
                value={Math.min(100, (served / maxScans) * 100)}
                size="sm"
                aria-label={t`Scan limit used`}
                color={served >= maxScans ? 'red' : 'blue'}
                maw={260}
              />
            </Stack>
          )}
        </Fact>
        <Fact term={t`Password`} data="password">
          {code.hasPassword ? t`On: a scanner enters it before the destination opens.` : t`Off.`}
        </Fact>
        <Fact term={t`When inactive`} data="inactive">
          {fallbackUrl
            ? t`Goes to ${fallbackUrl}`
            : inactiveMessage
              ? t`Shows a notice with your message: “${inactiveMessage}”`
              : t`Shows a notice page.`}
        </Fact>
        {options?.fallbackWhenDown && fallbackUrl && (
          <Fact term={t`When down`} data="down">
            <Trans>
              Goes to {fallbackUrl} while the daily check finds the destination down, until it answers again.
            </Trans>
          </Fact>
        )}
        <Fact term={t`UTM parameters`} data="utm">
          {utm ? utm : t`None.`}
          {options?.forwardQuery ? ` ${t`The scan’s own query parameters are passed on.`}` : ''}
        </Fact>
      </Stack>

      <Title order={4} size="h5" mt="lg" mb="xs" id="scan-outcomes">
        <Trans>Where scans went</Trans>
      </Title>
      {failed ? (
        <ErrorAlert>
          <Trans>Error loading QR code details. Please try again later.</Trans>
        </ErrorAlert>
      ) : !outcomes ? (
        <Skeleton h={80} />
      ) : outcomes.outcomes.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No scan data available yet</Trans>
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={0} type="native">
          <Table aria-labelledby="scan-outcomes" verticalSpacing={6} data-scan-outcomes>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Outcome</Trans>
                </Table.Th>
                <Table.Th ta="right">
                  <Trans>Scans</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outcomes.outcomes.map((o) => {
                const { label, url } = describeOutcome(o, options, code.content);
                return (
                  <Table.Tr key={`${o.kind}${o.rule ?? ''}`} data-outcome={o.kind}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Text size="sm">{translateShared(label)}</Text>
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
          {since ? `${t`Counted from the kept scan history, since ${since}.`} ` : ''}
          <Trans>
            Rules are numbered as they are now. A scanner who gives the right password is counted again when
            the destination opens.
          </Trans>
        </Text>
      )}
    </Card>
  );
}
