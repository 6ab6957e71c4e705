import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { profilePasswordForm, settingsPasswordForm } from '../../../src/auth/account.schema';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

type Variant = 'settings' | 'profile';

/** The wording differs by page: the settings form and the profile form have their own messages and toasts. */
const wording = {
  settings: {
    schema: settingsPasswordForm,
    failedTitle: msg`Password change failed`,
    fallback: msg`Failed to change password`,
  },
  profile: {
    schema: profilePasswordForm,
    failedTitle: msg`Failed to update password`,
    fallback: msg`Failed to update password`,
  },
} as const;

/** Current, new and confirmed password; PUT /api/user/password through tRPC. */
export function PasswordForm({ variant }: { variant: Variant }) {
  const { t } = useLingui();
  const { schema } = wording[variant];
  const failedTitle = t(wording[variant].failedTitle);
  const fallback = t(wording[variant].fallback);
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => {
      const result = schema.safeParse(values);
      if (result.success) return {};
      const errors: Record<string, string> = {};
      for (const issue of result.error.issues) {
        const key = String(issue.path[0]);
        errors[key] ??= issue.message;
      }
      return errors;
    },
  });
  const change = trpc.account.changePassword.useMutation({
    onSuccess: (result) => {
      form.reset();
      // The server's own words, shown unless they only repeat the title.
      notify.success(
        t`Password changed`,
        result.message === 'Password changed' ? undefined : translateShared(result.message),
      );
    },
    onError: (error) => {
      const { message, extras } = apiError(error, fallback);
      if (extras.field === 'currentPassword') form.setFieldError('currentPassword', message);
      notify.error(failedTitle, message || fallback);
    },
  });
  // src/'s checks write their messages in English: shown in the active language.
  const inputProps = (name: 'currentPassword' | 'newPassword' | 'confirmPassword') => {
    const error = form.errors[name];
    return { ...form.getInputProps(name), error: typeof error === 'string' ? translateShared(error) : error };
  };
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
      )}
      noValidate
    >
      <Stack gap="sm" maw={420}>
        <PasswordInput
          label={t`Current Password`}
          autoComplete="current-password"
          {...inputProps('currentPassword')}
        />
        <PasswordInput label={t`New Password`} autoComplete="new-password" {...inputProps('newPassword')} />
        <PasswordInput
          label={t`Confirm New Password`}
          autoComplete="new-password"
          {...inputProps('confirmPassword')}
        />
        <Text size="xs" c="dimmed">
          <Trans>
            A new password signs out your other browsers and revokes every API token: scripts will need a new
            token.
          </Trans>
        </Text>
        <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
          {variant === 'settings' ? t`Change Password` : t`Update Password`}
        </Button>
      </Stack>
    </form>
  );
}
