import { useLingui as useLocale } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Select, SimpleGrid, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { contentFields, type FieldDef } from '../../../src/qr/content-fields';
import { withHttps } from '../../../src/qr/bare-url';
import type { QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';
import type { DesignerValues } from './designer-values';

const inputTypes: Partial<Record<FieldDef['kind'], string>> = {
  email: 'email',
  url: 'url',
  tel: 'tel',
  datetime: 'datetime-local',
};

const autoCompletes: Partial<Record<string, string>> = {
  firstName: 'given-name',
  lastName: 'family-name',
  organization: 'organization',
};

/** Long inputs take the full row; short ones pair up on wider screens. */
const isWide = (def: FieldDef) => def.kind === 'textarea' || def.kind === 'url';

/** The content inputs of one type, their inline errors from the type's schema. */
export function ContentForm({ form, type }: { form: UseFormReturnType<DesignerValues>; type: QrType }) {
  // The fields' labels, placeholders and options are src/'s English: shown in the app's language.
  useLocale();
  const defs = contentFields[type];
  const timeZone = type === 'event' ? form.values.fields.timeZone : undefined;
  const zone = timeZone?.replace(/_/g, ' ');
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: defs.length > 1 ? 2 : 1 }} spacing="sm" verticalSpacing="sm">
        {defs.map((def) => {
          const path = `fields.${def.name}`;
          const common = {
            label: translateShared(def.label),
            withAsterisk: def.required,
            placeholder: def.placeholder === undefined ? undefined : translateShared(def.placeholder),
            style: isWide(def) ? { gridColumn: '1 / -1' } : undefined,
          };
          if (def.kind === 'select') {
            return (
              <Select
                key={`${type}-${def.name}`}
                {...common}
                data={(def.options ?? []).map((o) => ({ value: o.value, label: translateShared(o.label) }))}
                allowDeselect={false}
                {...form.getInputProps(path)}
              />
            );
          }
          if (def.kind === 'textarea') {
            return (
              <Textarea
                key={`${type}-${def.name}`}
                {...common}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={def.maxLength}
                {...form.getInputProps(path)}
              />
            );
          }
          const input = form.getInputProps(path);
          return (
            <TextInput
              key={`${type}-${def.name}`}
              {...common}
              type={inputTypes[def.kind] ?? 'text'}
              inputMode={def.kind === 'tel' ? 'tel' : def.kind === 'url' ? 'url' : undefined}
              autoComplete={autoCompletes[def.name] ?? 'off'}
              maxLength={def.maxLength}
              {...input}
              onBlur={(event: React.FocusEvent<HTMLInputElement>) => {
                // A bare domain becomes https://… in the field itself, so the user sees what the code holds.
                if (def.kind === 'url') {
                  const completed = withHttps(event.currentTarget.value);
                  if (completed !== event.currentTarget.value) form.setFieldValue(path, completed);
                }
                (input.onBlur as ((e: React.FocusEvent<HTMLInputElement>) => void) | undefined)?.(event);
              }}
            />
          );
        })}
      </SimpleGrid>
      {timeZone && (
        <Text size="xs" c="dimmed" mt="xs">
          <Trans>Times are in {zone}, this device&apos;s time zone; the event page names it.</Trans>
        </Text>
      )}
    </>
  );
}
