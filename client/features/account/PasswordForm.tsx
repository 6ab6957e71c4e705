import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { profilePasswordForm, settingsPasswordForm } from '../../../src/auth/account.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

type Variant = 'settings' | 'profile';

/** The wording differs by page: the settings form and the profile form have their own messages and toasts. */
const wording = {
  settings: {
    schema: settingsPasswordForm,
    failedTitle: 'Password change failed',
    fallback: 'Failed to change password',
  },
  profile: {
    schema: profilePasswordForm,
    failedTitle: 'Failed to update password',
    fallback: 'Failed to update password',
  },
} as const;

/** Current, new and confirmed password; PUT /api/user/password through tRPC. */
export function PasswordForm({ variant }: { variant: Variant }) {
  const { schema, failedTitle, fallback } = wording[variant];
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
      notify.success('Password changed', result.message === 'Password changed' ? undefined : result.message);
    },
    onError: (error) => {
      const { message, extras } = apiError(error, fallback);
      if (extras.field === 'currentPassword') form.setFieldError('currentPassword', message);
      notify.error(failedTitle, message || fallback);
    },
  });
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        change.mutate({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
      )}
      noValidate
    >
      <Stack gap="sm" maw={420}>
        <PasswordInput
          label="Current Password"
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <PasswordInput
          label="New Password"
          autoComplete="new-password"
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label="Confirm New Password"
          autoComplete="new-password"
          {...form.getInputProps('confirmPassword')}
        />
        <Text size="xs" c="dimmed">
          A new password signs out your other browsers and revokes every API token: scripts will need a new
          token.
        </Text>
        <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
          {variant === 'settings' ? 'Change Password' : 'Update Password'}
        </Button>
      </Stack>
    </form>
  );
}
