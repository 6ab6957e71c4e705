import { useLingui } from '@lingui/react/macro';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { ruleMessage } from './auth-form-messages';
import { check, type Rules } from './auth-form-rules';

/**
 * The part of @mantine/form's `useForm` the sign-in page's forms use, with their checks from
 * auth-form-rules.ts: the same props on each input (value, onChange, error, data-path), the errors
 * shown on submit (in the reader's language) and a field's cleared as it changes; `onSubmit` calls back
 * only with no error left.
 */
export function useFieldForm<T extends Record<string, string>>({
  initialValues,
  rules,
}: {
  initialValues: T;
  rules: Rules<T>;
}) {
  const { t } = useLingui();
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
  const shown = (message: string | undefined) => {
    const descriptor = message === undefined ? undefined : ruleMessage(message);
    return descriptor ? t(descriptor) : message;
  };
  return {
    values,
    getInputProps: (path: keyof T & string) => ({
      value: values[path],
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [path]: value }));
        setErrors((current) => {
          if (!(path in current)) return current;
          const { [path]: _cleared, ...rest } = current;
          return rest as Partial<Record<keyof T, string>>;
        });
      },
      error: shown(errors[path]),
      'data-path': path,
    }),
    onSubmit: (handler: (values: T) => void) => (event?: FormEvent) => {
      event?.preventDefault();
      const found = check(rules, values);
      setErrors(found);
      if (Object.keys(found).length === 0) handler(values);
    },
    reset: () => {
      setValues(initialValues);
      setErrors({});
    },
  };
}
