import { useLingui } from '@lingui/react/macro';
import { NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { pad } from '../../../src/qr/dates';
import type { SmartRedirect } from '../../../src/qr/smart-redirect';
import { translateShared } from '../../i18n/shared-messages';
import { countryChoices, countryCodes, languageChoices, languageCodes } from './regions';
import { scanDeviceLabel, scanDevices, testScan, type SampleScan } from './scan-sentence';
import { isoToZonedLocal } from './zoned-time';

/** Now in the zone, and this browser's language and region as the first guess of a scan. */
function initialSample(timeZone: string): SampleScan {
  const [date = '', time = ''] = isoToZonedLocal(new Date().toISOString(), timeZone).split('T');
  const locale = typeof navigator === 'undefined' ? 'en' : navigator.language || 'en';
  const [language = 'en', region] = locale.split('-');
  return {
    device: 'iphone',
    country: region && countryCodes.includes(region.toUpperCase()) ? region.toUpperCase() : null,
    language: languageCodes.includes(language.toLowerCase()) ? language.toLowerCase() : null,
    date,
    time: time || `${pad(9)}:00`,
    scansBefore: 0,
  };
}

interface ScanTesterProps {
  /** The checked options (null: nothing on; undefined: the inputs hold a problem). */
  options: SmartRedirect | null | undefined;
  /** Why the options cannot be tried yet ('Rule 1: Destination is required'). */
  problem: string | null;
  /** The code's own link, or null while the content is incomplete. */
  destination: string | null;
  timeZone: string;
  /** The code will ask for a password: a first scan sees the form before anything else is served. */
  password: boolean;
}

/** A sample scan → one sentence saying where it goes, computed as the server will decide it. */
export function ScanTester({ options, problem, destination, timeZone, password }: ScanTesterProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const [sample, setSample] = useState<SampleScan>(() => initialSample(timeZone));
  const set = (patch: Partial<SampleScan>) => setSample((s) => ({ ...s, ...patch }));
  const deviceChoices = scanDevices.map((d) => ({ value: d.value, label: scanDeviceLabel(d) }));
  const countries = useMemo(() => countryChoices(locale), [locale]);
  const languages = useMemo(() => languageChoices(locale), [locale]);
  // The sentence is written in the app's language: made again when it changes.
  const outcome = useMemo(
    () =>
      options === undefined || !locale ? null : testScan(options, destination, sample, timeZone, password),
    [options, destination, sample, timeZone, password, locale],
  );

  // The check's words are src/'s English ('Rule 1: Destination is required'): in the app's language.
  const reason = problem ? translateShared(problem) : t`a rule or setting is incomplete`;
  const zone = timeZone.replace(/_/g, ' ');
  const result =
    options === undefined
      ? t`To test a scan, fix this first: ${reason}.`
      : (outcome?.sentence ?? t`Pick a day and a time to test a scan.`);

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <Select
          label={t`Scanned with`}
          data={deviceChoices}
          value={sample.device}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(device) => device && set({ device })}
        />
        <Select
          label={t`Country`}
          placeholder={t({ message: 'Unknown', context: 'country of a sample scan' })}
          data={countries}
          value={sample.country}
          searchable
          clearable
          nothingFoundMessage={t`No country of that name`}
          comboboxProps={{ withinPortal: true }}
          onChange={(country) => set({ country })}
        />
        <Select
          label={t`Browser language`}
          placeholder={t({ message: 'None', context: 'browser language of a sample scan' })}
          data={languages}
          value={sample.language}
          searchable
          clearable
          nothingFoundMessage={t`No language of that name`}
          comboboxProps={{ withinPortal: true }}
          onChange={(language) => set({ language })}
        />
        <NumberInput
          label={t`Scans so far`}
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          value={sample.scansBefore}
          onChange={(n) => set({ scansBefore: typeof n === 'number' && Number.isFinite(n) ? n : 0 })}
        />
        <TextInput
          type="date"
          label={t`Day`}
          value={sample.date}
          onChange={(e) => set({ date: e.currentTarget.value })}
        />
        <TextInput
          type="time"
          label={t`Time`}
          description={t`In ${zone}`}
          value={sample.time}
          onChange={(e) => set({ time: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Paper
        withBorder
        radius="sm"
        p="sm"
        bg="var(--mantine-primary-color-light)"
        role="status"
        aria-live="polite"
        aria-label={t`Test result`}
        data-scan-result={outcome?.decision.kind ?? 'none'}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {result}
        </Text>
      </Paper>
    </Stack>
  );
}
