import { Checkbox, Group, MultiSelect, NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import {
  dayNames,
  deviceLabels,
  osLabels,
  osNames,
  RULE_COUNTRIES_MAX,
  RULE_LANGUAGES_MAX,
  ruleDevices,
} from '../../../src/qr/smart-redirect';
import type { DesignerValues } from './designer-values';
import { countryChoices, languageChoices } from './regions';
import type { ConditionValues } from './smart-values';

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
  const countries = useMemo(() => (condition.kind === 'country' ? countryChoices() : []), [condition.kind]);
  const languages = useMemo(() => (condition.kind === 'language' ? languageChoices() : []), [condition.kind]);
  const props = (field: keyof ConditionValues) => form.getInputProps(`${path}.${field}`);

  switch (condition.kind) {
    case 'device':
      return (
        <Checkbox.Group label="Devices" {...props('devices')}>
          <Group gap="md" mt={6}>
            {ruleDevices.map((d) => (
              <Checkbox key={d} value={d} label={deviceLabels[d]} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'os':
      return (
        <Checkbox.Group label="Operating systems" {...props('os')}>
          <Group gap="md" mt={6}>
            {osNames.map((os) => (
              <Checkbox key={os} value={os} label={osLabels[os]} />
            ))}
          </Group>
        </Checkbox.Group>
      );
    case 'country':
      return (
        <MultiSelect
          label="Countries"
          description="Where the scan comes from; an unknown place matches none."
          placeholder={condition.countries.length ? undefined : 'Search countries'}
          data={countries}
          searchable
          clearable
          hidePickedOptions
          maxValues={RULE_COUNTRIES_MAX}
          nothingFoundMessage="No country of that name"
          comboboxProps={{ withinPortal: true }}
          {...props('countries')}
        />
      );
    case 'language':
      return (
        <MultiSelect
          label="Languages"
          description="Matches when the browser accepts any of them."
          placeholder={condition.languages.length ? undefined : 'Search languages'}
          data={languages}
          searchable
          clearable
          hidePickedOptions
          maxValues={RULE_LANGUAGES_MAX}
          nothingFoundMessage="No language of that name"
          comboboxProps={{ withinPortal: true }}
          {...props('languages')}
        />
      );
    case 'time':
      return (
        <>
          <Checkbox.Group label="Days" {...props('days')}>
            <Group gap="sm" mt={6}>
              {weekOrder.map((day) => (
                <Checkbox
                  key={day}
                  value={String(day)}
                  label={dayNames[day].slice(0, 3)}
                  aria-label={dayNames[day]}
                />
              ))}
            </Group>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput type="time" label="From" {...props('from')} />
            <TextInput type="time" label="Until" {...props('until')} />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            In {zoneName(timeZone)}. Until is not included; a range past midnight (22:00 to 02:00) belongs to
            the day it starts on, and the same time twice means the whole day.
          </Text>
        </>
      );
    case 'dates':
      return (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            type="datetime-local"
            label="From"
            description={`In ${zoneName(timeZone)}`}
            {...props('dateFrom')}
          />
          <TextInput
            type="datetime-local"
            label="Until"
            description="Empty: no end"
            {...props('dateUntil')}
          />
        </SimpleGrid>
      );
    case 'scans':
      return (
        <NumberInput
          label="After this many scans"
          description="The code's scans before this one; 100 means from the 101st scan on."
          min={0}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          {...props('after')}
        />
      );
  }
}
