import { Alert, Anchor, Button, List, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCircleCheck, IconAlertTriangle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { resetPasswordForm } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { PublicCard } from './PublicCard';
import { useLinkToken } from './use-link-token';
import { useRedirectAfter } from './use-redirect-after';

function InvalidLink() {
  return (
    <Stack gap="sm">
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} role="alert">
        This password reset link is not valid. It may have:
        <List size="sm" mt="xs">
          <List.Item>expired (links are valid for 1 hour),</List.Item>
          <List.Item>already been used, or</List.Item>
          <List.Item>been copied incorrectly.</List.Item>
        </List>
      </Alert>
      <Text size="sm">
        Ask for a new link from the{' '}
        <Anchor component={Link} to="/auth">
          login page
        </Anchor>{' '}
        (Forgot password?).
      </Text>
    </Stack>
  );
}

export function ResetPasswordPage() {
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
      notify.success('Success', result.message);
    },
    onError: (error) =>
      notify.error('Failed to reset password', apiError(error, 'Failed to reset password').message),
  });
  const complete = reset.isSuccess;
  const secondsLeft = useRedirectAfter(complete, 5, '/login');

  let body: React.ReactNode;
  if (!token || check.isError) body = <InvalidLink />;
  else if (!check.isSuccess)
    body = (
      <Stack align="center" gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          Checking your reset link…
        </Text>
      </Stack>
    );
  else if (complete)
    body = (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
        {reset.data.message} Redirecting to login in {secondsLeft} s…
      </Alert>
    );
  else
    body = (
      <form noValidate onSubmit={form.onSubmit(({ password }) => reset.mutate({ token, password }))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Choose a new password of at least 6 characters. Every device signed in to your account will be
            signed out.
          </Text>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            data-autofocus
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" loading={reset.isPending}>
            Reset password
          </Button>
        </Stack>
      </form>
    );

  return <PublicCard title="Reset Password">{body}</PublicCard>;
}
