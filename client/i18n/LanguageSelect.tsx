import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Select } from '@mantine/core';
import { isLocale, LOCALES, localeNames, type Locale } from '../../src/i18n/locales';

const AUTOMATIC = 'auto';
const automaticLabel = msg`Automatic (your browser's language)`;
// Each language by its own name, in every language.
const localeOptions = LOCALES.map((locale) => ({ value: locale, label: localeNames[locale] }));

/**
 * The language of the screens and the mails (Settings → Appearance): automatic (the browser's) or one of
 * ours. `value` null is automatic; `onChange` is called with a new choice only.
 */
export function LanguageSelect({
  value,
  onChange,
  disabled,
}: {
  value: Locale | null;
  onChange: (language: Locale | null) => void;
  disabled?: boolean;
}) {
  const { t } = useLingui();
  return (
    <Select
      label={t`Language`}
      description={t`The language of QR Creator's screens and of your e-mails.`}
      data={[{ value: AUTOMATIC, label: t(automaticLabel) }, ...localeOptions]}
      value={value ?? AUTOMATIC}
      onChange={(choice) => {
        const language = choice === null || choice === AUTOMATIC ? null : choice;
        if (language === value || !(language === null || isLocale(language))) return;
        onChange(language);
      }}
      allowDeselect={false}
      disabled={disabled}
      wrapperProps={{ 'data-language-select': true }}
      // Each language's name is written in it: said as such by screen readers.
      renderOption={({ option }) => (
        <span lang={option.value === AUTOMATIC ? undefined : option.value}>{option.label}</span>
      )}
      maw={360}
    />
  );
}
