import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
  useMatches,
} from '@mantine/core';
import type { ScanHistoryRow } from '../../../src/analytics/analytics.schema';
import type { QrCode } from '../../../src/qr/qr.schema';
import { describeOutcome, type ScanOutcome } from '../../../src/qr/scan-outcome';
import { DeviceIcon, deviceLabels } from '../../components/DeviceBreakdown';
import { translateShared } from '../../i18n/shared-messages';
import { maskIp } from '../../../src/analytics/mask-ip';
import { exactTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';

const tooltipEvents = { hover: true, focus: true, touch: true };

/** A history row with where its scan went (src/qr/scan-outcome.ts). */
export type ScanHistoryRowWithOutcome = ScanHistoryRow & { outcome: ScanOutcome };

interface Props {
  scans: ScanHistoryRowWithOutcome[];
  busy: boolean;
  code: Pick<QrCode, 'redirectOptions' | 'content'>;
}

function When({ scan, now }: { scan: ScanHistoryRow; now: number }) {
  return (
    <Tooltip label={exactTime(scan.timestamp)} events={tooltipEvents} withinPortal>
      <Text component="time" size="sm" dateTime={scan.timestamp} tabIndex={0}>
        {relativeTime(scan.timestamp, now)}
      </Text>
    </Tooltip>
  );
}

function Device({ scan }: { scan: ScanHistoryRow }) {
  const { t } = useLingui();
  // The device's type (Mobile, Tablet, Desktop…) and name come from the server.
  const deviceName = scan.deviceName ?? t`Unknown`;
  const device = deviceLabels[scan.device] ? t(deviceLabels[scan.device]) : scan.device;
  return (
    <Tooltip label={`${device} · ${deviceName}`} events={tooltipEvents} withinPortal>
      <Group gap={6} wrap="nowrap" tabIndex={0} w="fit-content" data-device={scan.device}>
        <DeviceIcon device={scan.device} />
        <Text size="sm">{device}</Text>
        <VisuallyHidden>({deviceName})</VisuallyHidden>
      </Group>
    </Tooltip>
  );
}

/** Where the scan went: 'Rule 1 (App Store)' over its destination, 'Default', 'Password form', 'Refused: paused'. */
function Destination({ scan, code }: { scan: ScanHistoryRowWithOutcome; code: Props['code'] }) {
  // The words are src/'s English: in the active language, drawn again when it changes.
  useLocale();
  const outcome = describeOutcome(scan.outcome, code.redirectOptions, code.content);
  const label = translateShared(outcome.label);
  const { url } = outcome;
  return (
    <div data-destination={scan.outcome.kind} style={{ minWidth: 0 }}>
      <Text
        size="sm"
        c={scan.outcome.kind === 'rule' || scan.outcome.kind === 'default' ? undefined : 'dimmed'}
      >
        {label}
      </Text>
      {url && (
        <Text size="xs" c="dimmed" truncate="end" maw={260} title={url}>
          {url}
        </Text>
      )}
    </div>
  );
}

/**
 * One page of scans, newest first. Addresses are masked; anything missing reads 'Unknown'. On a phone each
 * scan is a small card (time, device, location, address, destination), so nothing is cut off at 375 px.
 */
export function ScanHistoryTable({ scans, busy, code }: Props) {
  const { t } = useLingui();
  const now = useNow();
  const stacked = useMatches({ base: true, sm: false });
  const dim = { opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' };

  if (stacked) {
    return (
      <Stack
        component="ul"
        gap="xs"
        p={0}
        m={0}
        aria-label={t`Scan history`}
        aria-busy={busy}
        style={{ listStyle: 'none', ...dim }}
      >
        {scans.map((scan) => (
          <Paper component="li" withBorder radius="sm" p="xs" key={scan.id} data-scan-row>
            <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
              <When scan={scan} now={now} />
              <Device scan={scan} />
            </Group>
            <SimpleGrid cols={2} spacing="xs" verticalSpacing={2}>
              <Text size="xs" c="dimmed">
                <Trans>Location</Trans>
              </Text>
              <Text size="xs" c="dimmed">
                <Trans>IP Address</Trans>
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {scan.location || t`Unknown`}
              </Text>
              <Text size="sm" ff="monospace" data-ip>
                {maskIp(scan.ipAddress)}
              </Text>
            </SimpleGrid>
            <Text size="xs" c="dimmed" mt={4}>
              <Trans>Destination</Trans>
            </Text>
            <Destination scan={scan} code={code} />
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table
        striped
        highlightOnHover
        verticalSpacing="xs"
        aria-label={t`Scan history`}
        aria-busy={busy}
        style={dim}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Time</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Device</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Location</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>IP Address</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Destination</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {scans.map((scan) => (
            <Table.Tr key={scan.id} data-scan-row>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <When scan={scan} now={now} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Device scan={scan} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{scan.location || t`Unknown`}</Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" ff="monospace" data-ip>
                  {maskIp(scan.ipAddress)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Destination scan={scan} code={code} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
