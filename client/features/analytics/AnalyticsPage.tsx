import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Select, Stack, Switch, Tabs, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { ANALYTICS_PERIODS, DEFAULT_DAYS } from '../../../src/analytics/analytics.schema';
import { ByQrCodeTab } from './ByQrCodeTab';
import { OverviewTab } from './OverviewTab';
import { ReportsTab } from './ReportsTab';

type Tab = 'overview' | 'by-code' | 'reports';

/** Narrower tabs on a phone so all three fit on one line at 375 px. */
const tabPadding = { base: 'xs', sm: 'md' };

export function AnalyticsPage() {
  const { t } = useLingui();
  const periods = ANALYTICS_PERIODS.map((days) => ({
    value: String(days),
    label: plural(days, { one: 'Last # day', other: 'Last # days' }),
  }));
  const [tab, setTab] = useState<Tab>('overview');
  const [days, setDays] = useState<number>(DEFAULT_DAYS);
  const [excludeBots, setExcludeBots] = useState(false);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        {/* The header already shows the page's name: said once on screen, kept for the outline. */}
        <VisuallyHidden>
          <Title order={2}>
            <Trans>Analytics</Trans>
          </Title>
        </VisuallyHidden>
        <Group gap="md" wrap="wrap" align="center" mih={36}>
          <Switch
            label={t`Exclude bots`}
            checked={excludeBots}
            onChange={(e) => setExcludeBots(e.currentTarget.checked)}
          />
          {tab !== 'reports' && (
            <Select
              aria-label={t`Period`}
              data={periods}
              value={String(days)}
              onChange={(v) => setDays(Number(v ?? DEFAULT_DAYS))}
              allowDeselect={false}
              w={160}
            />
          )}
        </Group>
      </Group>

      <Tabs value={tab} onChange={(v) => setTab((v as Tab | null) ?? 'overview')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="overview" px={tabPadding}>
            <Trans>Overview</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="by-code" px={tabPadding}>
            <Trans>By QR Code</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="reports" px={tabPadding}>
            <Trans>Reports &amp; Export</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <OverviewTab days={days} excludeBots={excludeBots} />
        </Tabs.Panel>
        <Tabs.Panel value="by-code">
          <ByQrCodeTab days={days} excludeBots={excludeBots} />
        </Tabs.Panel>
        <Tabs.Panel value="reports">
          <ReportsTab excludeBots={excludeBots} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
