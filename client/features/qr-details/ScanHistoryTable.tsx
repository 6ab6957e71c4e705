import { Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { ScanHistoryRow } from '../../../src/analytics/analytics.schema';
import { DeviceIcon } from '../../components/DeviceBreakdown';
import { maskIp } from '../../../src/analytics/mask-ip';
import { exactTime, relativeTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';

const tooltipEvents = { hover: true, focus: true, touch: true };

/** One page of scans, newest first. Addresses are masked; anything missing reads 'Unknown'. */
export function ScanHistoryTable({ scans, busy }: { scans: ScanHistoryRow[]; busy: boolean }) {
  const now = useNow();
  return (
    <Table.ScrollContainer minWidth={520} type="native">
      <Table
        striped
        highlightOnHover
        verticalSpacing="xs"
        aria-label="Scan history"
        aria-busy={busy}
        style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Device</Table.Th>
            <Table.Th>Location</Table.Th>
            <Table.Th>IP Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {scans.map((scan) => {
            const deviceName = scan.deviceName ?? 'Unknown';
            return (
              <Table.Tr key={scan.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Tooltip label={exactTime(scan.timestamp)} events={tooltipEvents} withinPortal>
                    <Text component="time" size="sm" dateTime={scan.timestamp} tabIndex={0}>
                      {relativeTime(scan.timestamp, now)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Tooltip label={`${scan.device} · ${deviceName}`} events={tooltipEvents} withinPortal>
                    <Group gap={6} wrap="nowrap" tabIndex={0} w="fit-content" data-device={scan.device}>
                      <DeviceIcon device={scan.device} />
                      <Text size="sm">{scan.device}</Text>
                      <VisuallyHidden>({deviceName})</VisuallyHidden>
                    </Group>
                  </Tooltip>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{scan.location || 'Unknown'}</Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" ff="monospace" data-ip>
                    {maskIp(scan.ipAddress)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
