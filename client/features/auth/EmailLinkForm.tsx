import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { IconMailCheck } from '@tabler/icons-react';
import { translateShared } from '../../i18n/shared-messages';
import { emailLinkRules } from './auth-form-rules';
import { useFieldForm } from './use-field-form';

/**
 * Asks for an e-mail address to send a link to (password reset, verification), then shows the
 * server's neutral answer in place of the form.
 */
export function EmailLinkForm({
  submitLabel,
  pending,
  sentMessage,
  onSubmit,
}: {
  submitLabel: string;
  pending: boolean;
  sentMessage: string | undefined;
  onSubmit: (values: { email: string }) => void;
}) {
  const { t } = useLingui();
  const form = useFieldForm({ initialValues: { email: '' }, rules: emailLinkRules });
  if (sentMessage) {
    return (
      <Alert color="teal" variant="light" icon={<IconMailCheck size={20} aria-hidden />} role="status">
        {translateShared(sentMessage)}
      </Alert>
    );
  }
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        <TextInput
          label={t`Email`}
          type="email"
          autoComplete="email"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth loading={pending}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
