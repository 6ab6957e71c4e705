import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { notify } from '../../lib/notify';
import { apiError } from '../../lib/api-error';
import { translateShared } from '../../i18n/shared-messages';
import { authRoute } from '../../routes';
import { registerRules } from './auth-form-rules';
import { rememberUsername } from './last-username';
import { useEnterApp } from './use-enter-app';
import { useApiCall } from './use-api-call';
import { useFieldForm } from './use-field-form';

export function RegisterForm({ onVerificationRequired }: { onVerificationRequired: () => void }) {
  const { t } = useLingui();
  const { config } = authRoute.useLoaderData();
  const enterApp = useEnterApp(config?.demoAccount?.username);
  const form = useFieldForm({
    initialValues: { username: '', password: '', name: '', email: '' },
    rules: registerRules,
  });
  const register = useApiCall(
    (api, values: { username: string; password: string; name: string; email: string }) =>
      api.trpcClient.auth.register.mutate(values),
    {
      onSuccess: async (result) => {
        if (result.requiresVerification) {
          notify.success(t`Registration successful`, translateShared(result.message));
          // The login form then offers this name (once the address is verified, only the password is left).
          rememberUsername(form.values.username, config?.demoAccount?.username);
          form.reset();
          onVerificationRequired();
          return;
        }
        await enterApp(result.user);
        const { username } = result.user;
        notify.success(t`Registration successful`, t`Welcome, ${username}`);
      },
      onError: (error) =>
        notify.error(t`Registration failed`, apiError(error, t`Registration failed`).message),
    },
  );

  const registrationOpen = config?.registrationOpen ?? true;
  if (!registrationOpen) {
    return (
      <Alert variant="light" color="gray" title={t`Registration is closed`}>
        <Trans>
          This server does not take new accounts right now. Ask an administrator to create one for you.
        </Trans>
      </Alert>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => register.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput label={t`Full Name`} autoComplete="name" required {...form.getInputProps('name')} />
        <TextInput
          label={t`Email`}
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <TextInput label={t`Username`} autoComplete="username" required {...form.getInputProps('username')} />
        <PasswordInput
          label={t`Password`}
          autoComplete="new-password"
          description={t`At least 6 characters`}
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={register.isPending}>
          <Trans>Create account</Trans>
        </Button>
      </Stack>
    </form>
  );
}
