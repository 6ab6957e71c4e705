import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { User } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError } from '../../lib/api-error';
import { authRoute } from '../../routes';
import { loginRules } from './auth-form-rules';
import { lastUsername } from './last-username';
import { TwoFactorStep } from './TwoFactorStep';
import { useApiCall } from './use-api-call';
import { useEnterApp } from './use-enter-app';
import { useFieldForm } from './use-field-form';

export interface LoginFormProps {
  /** Opens the forgot-password panel; without it (SSO-only: no local passwords to reset) no link. */
  onForgotPassword?: (() => void) | undefined;
  /** A company sign-in came back asking for the person's two-factor code: that step first. */
  twoFactorFirst?: boolean;
  /** The two-factor step's Back was pressed. */
  onTwoFactorBack?: () => void;
  /** Shown above the form, not in the two-factor step: the company sign-in buttons. */
  before?: ReactNode;
  /** The username (or, for a returning user, the password) takes the focus: the form was just unfolded. */
  autoFocus?: boolean;
}

export function LoginForm({
  onForgotPassword,
  twoFactorFirst = false,
  onTwoFactorBack,
  before,
  autoFocus = false,
}: LoginFormProps) {
  const { t } = useLingui();
  const { config } = authRoute.useLoaderData();
  // In SSO-only mode the form is the break-glass admin's (or the directory's): never the demo account's.
  const demo = config?.sso.passwordSignIn === false ? null : config?.demoAccount;
  const ldap = config?.sso.ldap ?? null;
  const navigate = useNavigate();
  const [needsCode, setNeedsCode] = useState(twoFactorFirst);
  // The demo account only in a browser that never signed in to another account here; otherwise the last
  // username (no password), so Enter never signs a returning user in to the shared demo.
  const [returning] = useState(lastUsername);
  const form = useFieldForm({
    initialValues: returning
      ? { username: returning, password: '' }
      : { username: demo?.username ?? '', password: demo?.password ?? '' },
    rules: loginRules,
  });
  const enterApp = useEnterApp(demo?.username);
  const signedIn = async (user: User) => {
    await enterApp(user);
    const { username } = user;
    notify.success(t`Login successful`, t`Welcome back, ${username}`);
  };
  const login = useApiCall(
    (api, values: { username: string; password: string }) => api.trpcClient.auth.login.mutate(values),
    {
      onSuccess: async (result) => {
        if ('requiresTwoFactor' in result) {
          setNeedsCode(true);
          return;
        }
        // A directory account whose address is an existing account's: prove that password once.
        if ('linkRequired' in result) {
          await navigate({ to: '/auth/link' });
          return;
        }
        await signedIn(result);
      },
      onError: (error) => {
        const { message, extras } = apiError(error, t`Login failed`);
        notify.error(extras.requiresVerification ? t`Email verification required` : t`Login failed`, message);
      },
    },
  );

  if (needsCode) {
    return (
      <TwoFactorStep
        onSignedIn={signedIn}
        onBack={() => {
          setNeedsCode(false);
          onTwoFactorBack?.();
        }}
      />
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack gap="md">
        {before}
        <TextInput
          label={t`Username`}
          description={ldap ? t`Use your ${ldap} account` : undefined}
          autoComplete="username"
          required
          data-autofocus
          autoFocus={autoFocus && returning === null}
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t`Password`}
          autoComplete="current-password"
          required
          // A returning user's name is filled in: the password is what is left to type.
          autoFocus={returning !== null}
          {...form.getInputProps('password')}
        />
        {onForgotPassword && (
          <Group justify="flex-end">
            <Anchor component="button" type="button" size="sm" onClick={onForgotPassword}>
              <Trans>Forgot password?</Trans>
            </Anchor>
          </Group>
        )}
        <Button type="submit" fullWidth loading={login.isPending}>
          <Trans>Log in</Trans>
        </Button>
      </Stack>
    </form>
  );
}
