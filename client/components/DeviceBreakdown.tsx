import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
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

/** A device category as the screens name it (the categories themselves are the server's English values). */
export const deviceLabels: Record<DeviceCategory, MessageDescriptor> = {
  Mobile: msg({ message: 'Mobile', context: 'device category' }),
  Tablet: msg({ message: 'Tablet', context: 'device category' }),
  Desktop: msg({ message: 'Desktop', context: 'device category' }),
  Bot: msg({ message: 'Bot', context: 'device category' }),
  Unknown: msg({ message: 'Unknown', context: 'device category' }),
};

export function DeviceIcon({ device, size = 16 }: { device: DeviceCategory; size?: number }) {
  const Icon = icons[device] ?? IconQuestionMark;
  return <Icon size={size} aria-hidden />;
}

/** Scans per device category with their share of the total: one line and a bar each. */
export function DeviceBreakdown({ devices, label }: { devices: DeviceCount[]; label: string }) {
  const { t } = useLingui();
  const total = devices.reduce((sum, d) => sum + d.count, 0);
  return (
    <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label={label}>
      {devices.map((d) => {
        const device = deviceLabels[d.device] ? t(deviceLabels[d.device]) : d.device;
        const share = formatPercent(d.count, total);
        return (
          <li key={d.device}>
            <Group justify="space-between" wrap="nowrap" gap="sm" mb={4}>
              <Group gap="xs" wrap="nowrap">
                <ThemeIcon variant="light" color={DEVICE_COLORS[d.device]} size="sm" radius="sm">
                  <DeviceIcon device={d.device} size={14} />
                </ThemeIcon>
                <Text size="sm" fw={600}>
                  {device}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {share} · {scansLabel(d.count)}
              </Text>
            </Group>
            <Progress
              value={percentOf(d.count, total)}
              color={DEVICE_COLORS[d.device]}
              size="sm"
              aria-label={t`${device}: ${share}`}
            />
          </li>
        );
      })}
    </Stack>
  );
}
