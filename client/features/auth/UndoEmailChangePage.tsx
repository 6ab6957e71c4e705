import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { PublicCard } from './PublicCard';
import { useLinkToken } from './use-link-token';

/**
 * /undo-email-change#token=…: the link mailed to the old address when the account's address changed.
 * It asks before it acts (a mail scanner that opens links must not undo a change the owner made), then
 * puts the old address back, signs every browser out and revokes every API token.
 */
export function UndoEmailChangePage() {
  const { t } = useLingui();
  const { token, forget } = useLinkToken('/undo-email-change');
  const undo = trpc.auth.undoEmailChange.useMutation({
    onSuccess: () => {
      forget();
      notify.success(t`E-mail address restored`);
    },
    onError: forget,
  });

  let body: React.ReactNode;
  if (undo.isSuccess) {
    body = (
      <>
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
          {translateShared(undo.data.message)}
        </Alert>
        <Text size="sm">
          <Trans>
            On the sign-in page, choose <strong>Forgot password?</strong> to get a reset link at this address.
          </Trans>
        </Text>
        <Anchor component={Link} to="/auth" size="sm">
          <Trans>Go to sign-in</Trans>
        </Anchor>
      </>
    );
  } else if (undo.isError) {
    body = (
      <>
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={20} aria-hidden />}
          role="alert"
          title={t`The change could not be undone`}
        >
          {apiError(undo.error, t`The change could not be undone`).message}
        </Alert>
        <Anchor component={Link} to="/auth" size="sm">
          <Trans>Back to Login</Trans>
        </Anchor>
      </>
    );
  } else if (!token) {
    body = (
      <>
        <Text size="sm">
          <Trans>
            Open the link from the e-mail that told you your address was changed: it works for 7 days.
          </Trans>
        </Text>
        <Anchor component={Link} to="/auth" size="sm">
          <Trans>Back to Login</Trans>
        </Anchor>
      </>
    );
  } else {
    body = (
      <>
        <Text size="sm">
          <Trans>
            If you did not change the e-mail address of your QR Creator account, undo the change: your
            previous address comes back, every browser is signed out and every API token is revoked. Then
            choose a new password.
          </Trans>
        </Text>
        <Group>
          <Button color="red" loading={undo.isPending} onClick={() => undo.mutate({ token })}>
            <Trans>Undo the change</Trans>
          </Button>
          <Anchor component={Link} to="/auth" size="sm">
            <Trans>I made this change</Trans>
          </Anchor>
        </Group>
      </>
    );
  }
  return (
    <PublicCard title={t`Undo e-mail change`}>
      <Stack gap="md">{body}</Stack>
    </PublicCard>
  );
}
