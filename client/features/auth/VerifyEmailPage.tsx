import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcUtils } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { EmailLinkForm } from './EmailLinkForm';
import { PublicCard } from './PublicCard';
import { useLinkToken } from './use-link-token';
import { useRedirectAfter } from './use-redirect-after';

function ResendForm() {
  const { t } = useLingui();
  const resend = trpc.auth.resendVerification.useMutation({
    onError: (error) =>
      notify.error(t`Failed to resend email`, apiError(error, t`Failed to resend email`).message),
  });
  return (
    <EmailLinkForm
      submitLabel={t`Send verification link`}
      pending={resend.isPending}
      sentMessage={resend.data?.message}
      onSubmit={(values) => resend.mutate(values)}
    />
  );
}

export function VerifyEmailPage() {
  const { t } = useLingui();
  const { token, forget } = useLinkToken('/verify-email');
  const verify = trpc.auth.verifyEmail.useMutation({
    onSuccess: (result) => {
      forget();
      notify.success(t`Email verified successfully!`, translateShared(result.message));
      // Signed in (in this browser)? The profile shows the address verified, not the badge it loaded before.
      void trpcUtils.auth.me.invalidate(undefined, { refetchType: 'all' });
    },
    // A refused token is dropped too: the next visit without a link shows the resend form.
    onError: forget,
  });
  const started = useRef(false);
  useEffect(() => {
    // Once per page view, also under StrictMode's double effects: a token is single use.
    if (token && !started.current) {
      started.current = true;
      verify.mutate({ token });
    }
  }, [token, verify]);
  const secondsLeft = useRedirectAfter(verify.isSuccess, 3, '/auth');

  let body: React.ReactNode;
  if (!token) {
    body = (
      <>
        <Text size="sm" c="dimmed">
          <Trans>
            Enter the e-mail address of your account and we will send you a new verification link.
          </Trans>
        </Text>
        <ResendForm />
      </>
    );
  } else if (verify.isSuccess) {
    const message = translateShared(verify.data.message);
    body = (
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
        <Trans>
          {message} Redirecting to login in {secondsLeft} s…
        </Trans>
      </Alert>
    );
  } else if (verify.isError) {
    const { message, extras } = apiError(verify.error, t`Verification failed`);
    const expired = Boolean(extras.expired) || /expired/i.test(message);
    body = (
      <>
        <Alert
          color={expired ? 'orange' : 'red'}
          variant="light"
          icon={<IconAlertTriangle size={20} aria-hidden />}
          role="alert"
          title={t`Verification failed`}
        >
          {message}
        </Alert>
        {expired ? (
          <ResendForm />
        ) : (
          <Anchor component={Link} to="/auth" size="sm">
            <Trans>Back to Login</Trans>
          </Anchor>
        )}
      </>
    );
  } else {
    body = (
      <Stack align="center" gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          <Trans>Verifying your e-mail address…</Trans>
        </Text>
      </Stack>
    );
  }
  return <PublicCard title={t`Verify Email`}>{body}</PublicCard>;
}
