import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Group, MultiSelect, NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import {
  deviceLabels,
  osLabels,
  osNames,
  RULE_COUNTRIES_MAX,
  RULE_LANGUAGES_MAX,
  ruleDevices,
} from '../../../src/qr/smart-redirect';
import { translateShared } from '../../i18n/shared-messages';
import type { DesignerValues } from './designer-values';
import { countryChoices, languageChoices } from './regions';
import type { ConditionValues } from './smart-values';
import { weekdayName } from './zoned-time';

/** Monday first, as most calendars outside the US show a week; the values stay 0 = Sunday. */
const weekOrder = [1, 2, 3, 4, 5, 6, 0] as const;

interface ConditionFieldsProps {
  form: UseFormReturnType<DesignerValues>;
  /** 'smart.rules.0.conditions.1' */
  path: string;
  condition: ConditionValues;
  timeZone: string;
}

const zoneName = (timeZone: string) => timeZone.replace(/_/g, ' ');

/** The inputs of one condition, by its kind. */
export function ConditionFields({ form, path, condition, timeZone }: ConditionFieldsProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const countries = useMemo(
    () => (condition.kind === 'country' ? countryChoices(locale) : []),
    [condition.kind, locale],
  );
  const languages = useMemo(
    () => (condition.kind === 'language' ? languageChoices(locale) : []),
    [condition.kind, locale],
  );
  const zone = zoneName(timeZone);
  const props = (field: keyof ConditionValues) => form.getInputProps(`${path}.${field}`);

  switch (condition.kind) {
    case 'device':
      return (
        <Checkbox.Group label={t`Devices`} {...props('devices')}>
          <Group gap="md" mt={6}>
            {ruleDevices.map((d) => (
              <Checkbox key={d} value={d} label={translateShared(deviceLabels[d])} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'os':
      return (
        <Checkbox.Group label={t`Operating systems`} {...props('os')}>
          <Group gap="md" mt={6}>
            {osNames.map((os) => (
              <Checkbox key={os} value={os} label={translateShared(osLabels[os])} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'country':
      return (
        <MultiSelect
          label={t`Countries`}
          description={t`Where the scan comes from; an unknown place matches none.`}
          placeholder={condition.countries.length ? undefined : t`Search countries`}
          data={countries}
          searchable
          clearable
          hidePickedOptions
          maxValues={RULE_COUNTRIES_MAX}
          nothingFoundMessage={t`No country of that name`}
          comboboxProps={{ withinPortal: true }}
          {...props('countries')}
        />
      );
    case 'language':
      return (
        <MultiSelect
          label={t`Languages`}
          description={t`Matches when the browser accepts any of them.`}
          placeholder={condition.languages.length ? undefined : t`Search languages`}
          data={languages}
          searchable
          clearable
          hidePickedOptions
          maxValues={RULE_LANGUAGES_MAX}
          nothingFoundMessage={t`No language of that name`}
          comboboxProps={{ withinPortal: true }}
          {...props('languages')}
        />
      );
    case 'time':
      return (
        <>
          <Checkbox.Group label={t`Days`} {...props('days')}>
            <Group gap="sm" mt={6}>
              {weekOrder.map((day) => (
                <Checkbox
                  key={day}
                  value={String(day)}
                  label={weekdayName(day, locale, 'short')}
                  aria-label={weekdayName(day, locale)}
                />
              ))}
            </Group>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput type="time" label={t`From`} {...props('from')} />
            <TextInput type="time" label={t`Until`} {...props('until')} />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            <Trans>
              In {zone}. Until is not included; a range past midnight (22:00 to 02:00) belongs to the day it
              starts on, and the same time twice means the whole day.
            </Trans>
          </Text>
        </>
      );
    case 'dates':
      return (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label={t`From`}
            description={t`In ${zone}`}
            {...props('dateFrom')}
          />
          <TextInput
            type="datetime-local"
            label={t`Until`}
            description={t`Empty: no end`}
            {...props('dateUntil')}
          />
        </SimpleGrid>
      );
    case 'scans':
      return (
        <NumberInput
          label={t`After this many scans`}
          description={t`The code's scans before this one; 100 means from the 101st scan on.`}
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          {...props('after')}
        />
      );
  }
}
