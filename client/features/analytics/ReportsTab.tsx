import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Card,
  Group,
  Progress,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDownload, IconFileAnalytics, IconListDetails, IconTrophy } from '@tabler/icons-react';
import {
  MAX_REPORT_DAYS,
  REPORT_FORMATS,
  REPORT_TYPE_LABELS,
  REPORT_TYPES,
  type ReportFormat,
  type ReportType,
} from '../../../src/analytics/analytics.schema';
import { translateShared } from '../../i18n/shared-messages';
import { daysBefore, formatBytes, localIsoDate, viewerTimeZone } from '../../lib/format';
import { useReportDownload } from './use-report-download';

/** The export range defaults to the last 30 days up to today. */
const DEFAULT_RANGE_DAYS = 30;

const typeInfo: Record<ReportType, { description: MessageDescriptor; icon: typeof IconFileAnalytics }> = {
  full: {
    description: msg`Summary, daily scans, devices, locations, time of day and every QR code.`,
    icon: IconFileAnalytics,
  },
  activity: {
    description: msg`Daily totals and every scan in the range, one row each.`,
    icon: IconListDetails,
  },
  performance: { description: msg`Scans per QR code in the range.`, icon: IconTrophy },
};

/** File formats: names, not words. */
const formatLabels: Record<ReportFormat, string> = { csv: 'CSV', xlsx: 'Excel', pdf: 'PDF', json: 'JSON' };

interface ReportForm {
  from: string;
  to: string;
  type: ReportType;
  format: ReportFormat;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

export function ReportsTab({ excludeBots }: { excludeBots: boolean }) {
  const { t } = useLingui();
  const { download, progress, downloading } = useReportDownload();
  // Written as digits, as the server's message says it.
  const maxDays = String(MAX_REPORT_DAYS);
  const form = useForm<ReportForm>({
    initialValues: {
      from: localIsoDate(daysBefore(new Date(), DEFAULT_RANGE_DAYS)),
      to: localIsoDate(new Date()),
      type: 'full',
      format: 'csv',
    },
    validate: {
      from: (from, { to }) => {
        if (!from) return t`Start date is required`;
        if (to && from > to) return t`Start date must be on or before the end date`;
        return null;
      },
      to: (to, { from }) => {
        if (!to) return t`End date is required`;
        if (from && from <= to && dayNumber(to) - dayNumber(from) >= MAX_REPORT_DAYS)
          return t`A report covers at most ${maxDays} days`;
        return null;
      },
    },
  });

  const submit = form.onSubmit((values) => void download({ ...values, tz: viewerTimeZone(), excludeBots }));
  const percent = progress?.total ? Math.min(100, (progress.received / progress.total) * 100) : 100;
  const timeZone = viewerTimeZone();
  const received = progress ? formatBytes(progress.received) : '';
  const total = progress?.total ? formatBytes(progress.total) : '';

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="reports-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <div>
            <Title order={3} size="h4" id="reports-title">
              <Trans>Generate a Report</Trans>
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>
                Download the scans of your QR codes between two dates (days counted in your time zone,{' '}
                {timeZone}).
              </Trans>
            </Text>
          </div>

          <SimpleGrid cols={{ base: 1, xs: 2 }} maw={520}>
            <TextInput
              type="date"
              label={t`Start date`}
              required
              {...form.getInputProps('from')}
              onChange={(e) => {
                form.setFieldValue('from', e.currentTarget.value);
                form.clearFieldError('to');
              }}
            />
            <TextInput
              type="date"
              label={t`End date`}
              required
              {...form.getInputProps('to')}
              onChange={(e) => {
                form.setFieldValue('to', e.currentTarget.value);
                form.clearFieldError('from');
              }}
            />
          </SimpleGrid>

          <Radio.Group
            label={t`Report type`}
            value={form.values.type}
            onChange={(v) => form.setFieldValue('type', v)}
          >
            <SimpleGrid cols={{ base: 1, md: 3 }} mt="xs">
              {REPORT_TYPES.map((type) => {
                const Icon = typeInfo[type].icon;
                return (
                  <Radio.Card key={type} value={type} radius="md" p="md" withBorder>
                    <Group wrap="nowrap" align="flex-start" gap="sm">
                      <Radio.Indicator />
                      <div>
                        <Group gap={6} wrap="nowrap">
                          <Icon size={18} aria-hidden />
                          <Text fw={700} size="sm">
                            {translateShared(REPORT_TYPE_LABELS[type])}
                          </Text>
                        </Group>
                        <Text size="xs" c="dimmed" mt={4}>
                          {t(typeInfo[type].description)}
                        </Text>
                      </div>
                    </Group>
                  </Radio.Card>
                );
              })}
            </SimpleGrid>
          </Radio.Group>

          <Radio.Group
            label={t`Format`}
            value={form.values.format}
            onChange={(v) => form.setFieldValue('format', v)}
          >
            <Group mt="xs" gap="sm">
              {REPORT_FORMATS.map((f) => (
                <Radio key={f} value={f} label={formatLabels[f]} />
              ))}
            </Group>
          </Radio.Group>

          <Stack gap="xs">
            <Group>
              <Button
                type="submit"
                loading={downloading}
                disabled={downloading}
                leftSection={<IconDownload size={18} aria-hidden />}
              >
                <Trans>Generate &amp; Download Report</Trans>
              </Button>
            </Group>
            {progress && (
              <Stack gap={4} maw={520} role="status" aria-live="polite">
                <Progress
                  value={percent}
                  animated={progress.total === null}
                  striped={progress.total === null}
                  aria-label={t`Report download progress`}
                />
                <Text size="xs" c="dimmed">
                  {progress.received === 0
                    ? t`Preparing the report…`
                    : progress.total
                      ? t`Received ${received} of ${total}`
                      : t`Received ${received}`}
                </Text>
              </Stack>
            )}
          </Stack>
        </Stack>
      </form>
    </Card>
  );
}
