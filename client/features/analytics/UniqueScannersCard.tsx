import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconUsers } from '@tabler/icons-react';
import { NOT_COUNTED } from '../../components/DailyScansChart';
import { StatCard } from '../../components/StatCard';
import { formatCount } from '../../lib/format';

/** The card's description: what "unique" means here, in plain words (translated where it is drawn). */
export const DAILY_UNIQUE = msg`Daily-unique: a person scanning on two days counts twice`;
export const DAILY_UNIQUE_PER_CODE = msg`Daily-unique, per code: a person scanning on two days, or two codes, counts twice`;
const EARLIER = msg`Scans recorded before this server counted unique scanners have none: those days are left out here and shown as — in the chart’s table.`;

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
  description?: MessageDescriptor;
  /** Shown instead of the figure for a code that is not tracked (a static code). */
  notTracked?: string;
}) {
  const { t } = useLingui();
  const earlier = t(EARLIER);
  return (
    <StatCard
      label={t`Unique Scanners`}
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
            {t(description)}
          </Text>
          {partial && (
            <Group gap={2} wrap="nowrap" data-unique-scanners-partial>
              <Text size="xs" c="dimmed">
                <Trans>Earlier scans not included</Trans>
              </Text>
              <Tooltip label={earlier} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
                <ActionIcon variant="subtle" color="gray" size="sm" aria-label={earlier}>
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
