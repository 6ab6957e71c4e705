import { Alert, Anchor, Button, List, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconCircleCheck, IconAlertTriangle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { resetPasswordForm } from '../../../src/auth/auth.schema';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { PublicCard } from './PublicCard';
import { useLinkToken } from './use-link-token';
import { useRedirectAfter } from './use-redirect-after';

function InvalidLink() {
  return (
    <Stack gap="sm">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} role="alert">
        <Trans>This password reset link is not valid. It may have:</Trans>
        <List size="sm" mt="xs">
          <List.Item>
            <Trans>expired (links are valid for 1 hour),</Trans>
          </List.Item>
          <List.Item>
            <Trans>already been used, or</Trans>
          </List.Item>
          <List.Item>
            <Trans>been copied incorrectly.</Trans>
          </List.Item>
        </List>
      </Alert>
      <Text size="sm">
        <Trans>
          Ask for a new link from the{' '}
          <Anchor component={Link} to="/auth">
            login page
          </Anchor>{' '}
          (Forgot password?).
        </Trans>
      </Text>
    </Stack>
  );
}

export function ResetPasswordPage() {
  const { t } = useLingui();
  const { token, forget } = useLinkToken('/reset-password');
  // Checked with a POST (a mutation), once per page view: a token never travels in a URL the server logs.
  // A refused token is dropped too: the next visit without a link starts clean.
  const check = trpc.auth.verifyResetToken.useMutation({ onError: forget });
  const started = useRef(false);
  useEffect(() => {
    if (token && !started.current) {
      started.current = true;
      check.mutate({ token });
    }
  }, [token, check]);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(resetPasswordForm, { sync: true }),
  });
  const reset = trpc.auth.resetPassword.useMutation({
    onSuccess: (result) => {
      forget();
      notify.success(t`Success`, translateShared(result.message));
    },
    onError: (error) =>
      notify.error(t`Failed to reset password`, apiError(error, t`Failed to reset password`).message),
  });
  const complete = reset.isSuccess;
  // src/'s checks write their messages in English: shown in the active language.
  const inputProps = (name: 'password' | 'confirmPassword') => {
    const error = form.errors[name];
    return { ...form.getInputProps(name), error: typeof error === 'string' ? translateShared(error) : error };
  };
  const secondsLeft = useRedirectAfter(complete, 5, '/login');

  let body: React.ReactNode;
  if (!token || check.isError) body = <InvalidLink />;
  else if (!check.isSuccess)
    body = (
      <Stack align="center" gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          <Trans>Checking your reset link…</Trans>
        </Text>
      </Stack>
    );
  else if (complete) {
    const message = translateShared(reset.data.message);
    body = (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
        <Trans>
          {message} Redirecting to login in {secondsLeft} s…
        </Trans>
      </Alert>
    );
  } else
    body = (
      <form noValidate onSubmit={form.onSubmit(({ password }) => reset.mutate({ token, password }))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            <Trans>
              Choose a new password of at least 6 characters. Every device signed in to your account will be
              signed out.
            </Trans>
          </Text>
          <PasswordInput
            label={t`New password`}
            autoComplete="new-password"
            required
            data-autofocus
            {...inputProps('password')}
          />
          <PasswordInput
            label={t`Confirm password`}
            autoComplete="new-password"
            required
            {...inputProps('confirmPassword')}
          />
          <Button type="submit" loading={reset.isPending}>
            <Trans>Reset password</Trans>
          </Button>
        </Stack>
      </form>
    );

  return <PublicCard title={t`Reset Password`}>{body}</PublicCard>;
}
