import { Button, Stack, Text, Title } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconArrowLeft } from '@tabler/icons-react';
import { notify } from '../../lib/notify';
import { apiError } from '../../lib/api-error';
import { EmailLinkForm } from './EmailLinkForm';
import { useApiCall } from './use-api-call';

export function ForgotPasswordPanel({ onBack }: { onBack: () => void }) {
  const { t } = useLingui();
  const request = useApiCall(
    (api, values: { email: string }) => api.trpcClient.auth.requestPasswordReset.mutate(values),
    {
      onError: (error) =>
        notify.error(
          t`Failed to request password reset`,
          apiError(error, t`Failed to request password reset`).message,
        ),
    },
  );

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          <Trans>Reset your password</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </Trans>
        </Text>
      </div>
      <EmailLinkForm
        submitLabel={t`Send reset link`}
        pending={request.isPending}
        sentMessage={request.data?.message}
        onSubmit={(values) => request.mutate(values)}
      />
      <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
        <Trans>Back to Login</Trans>
      </Button>
    </Stack>
  );
}
