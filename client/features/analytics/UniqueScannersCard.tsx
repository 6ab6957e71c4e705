import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconUsers } from '@tabler/icons-react';
import { NOT_COUNTED } from '../../components/DailyScansChart';
import { StatCard } from '../../components/StatCard';
import { formatCount } from '../../lib/format';

/** The card's description: what "unique" means here, in plain words. */
export const DAILY_UNIQUE = 'Daily-unique: a person scanning on two days counts twice';
export const DAILY_UNIQUE_PER_CODE =
  'Daily-unique, per code: a person scanning on two days, or two codes, counts twice';
const EARLIER =
  'Scans recorded before this server counted unique scanners have none: those days are left out here and shown as — in the chart’s table.';

/**
 * "Unique Scanners" beside "Total Scans": the period's daily-unique scanners (bots never count),
 * "—" when none of its scans had them counted, and a note when earlier days are left out.
 */
export function UniqueScannersCard({
  value,
  partial,
  loading = false,
  description = DAILY_UNIQUE,
  notTracked,
}: {
  value: number | null | undefined;
  partial: boolean | undefined;
  loading?: boolean;
  description?: string;
  /** Shown instead of the figure for a code that is not tracked (a static code). */
  notTracked?: string;
}) {
  return (
    <StatCard
      label="Unique Scanners"
      icon={<IconUsers size={24} />}
      color="cyan"
      loading={loading}
      value={
        notTracked ?? (value === undefined ? undefined : value === null ? NOT_COUNTED : formatCount(value))
      }
    >
      {!notTracked && (
        <>
          <Text size="xs" c="dimmed" data-unique-scanners-note>
            {description}
          </Text>
          {partial && (
            <Group gap={2} wrap="nowrap" data-unique-scanners-partial>
              <Text size="xs" c="dimmed">
                Earlier scans not included
              </Text>
              <Tooltip label={EARLIER} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={EARLIER}>
                  <IconInfoCircle size={14} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </>
      )}
    </StatCard>
  );
}
