import { Group, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconDeviceDesktop,
  IconDeviceMobile,
  IconDeviceTablet,
  IconQuestionMark,
  IconRobot,
} from '@tabler/icons-react';
import type { DeviceCategory, DeviceCount } from '../../src/analytics/analytics.schema';
import { formatPercent, percentOf, scansLabel } from '../lib/format';
import { DEVICE_COLORS } from './chart-colors';

const icons: Record<DeviceCategory, typeof IconDeviceMobile> = {
  Mobile: IconDeviceMobile,
  Tablet: IconDeviceTablet,
  Desktop: IconDeviceDesktop,
  Bot: IconRobot,
  Unknown: IconQuestionMark,
};

export function DeviceIcon({ device, size = 16 }: { device: DeviceCategory; size?: number }) {
  const Icon = icons[device] ?? IconQuestionMark;
  return <Icon size={size} aria-hidden />;
}

/** Scans per device category with their share of the total: one line and a bar each. */
export function DeviceBreakdown({ devices, label }: { devices: DeviceCount[]; label: string }) {
  const total = devices.reduce((sum, d) => sum + d.count, 0);
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {devices.map((d) => (
        <li key={d.device}>
          <Group justify="space-between" wrap="nowrap" gap="sm" mb={4}>
            <Group gap="xs" wrap="nowrap">
              <ThemeIcon variant="light" color={DEVICE_COLORS[d.device]} size="sm" radius="sm">
                <DeviceIcon device={d.device} size={14} />
              </ThemeIcon>
              <Text size="sm" fw={600}>
                {d.device}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatPercent(d.count, total)} · {scansLabel(d.count)}
            </Text>
          </Group>
          <Progress
            value={percentOf(d.count, total)}
            color={DEVICE_COLORS[d.device]}
            size="sm"
            aria-label={`${d.device}: ${formatPercent(d.count, total)}`}
          />
        </li>
      ))}
    </Stack>
  );
}
