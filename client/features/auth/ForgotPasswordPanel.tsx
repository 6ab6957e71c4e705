import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconArrowLeft, IconMailCheck } from '@tabler/icons-react';
import { forgotPasswordInput } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';

export function ForgotPasswordPanel({ onBack }: { onBack: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: schemaResolver(forgotPasswordInput, { sync: true }),
  });
  const request = trpc.auth.requestPasswordReset.useMutation({
    onError: (error) =>
      notify.error(
        'Failed to request password reset',
        apiError(error, 'Failed to request password reset').message,
      ),
  });

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          Reset your password
        </Title>
        <Text size="sm" c="dimmed">
          Enter the e-mail address of your account and we will send you a link to choose a new password.
        </Text>
      </div>
      {request.data ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck size={20} aria-hidden />} role="status">
          {request.data.message}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((values) => request.mutate(values))} noValidate>
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              data-autofocus
              {...form.getInputProps('email')}
            />
            <Button type="submit" fullWidth loading={request.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
        Back to Login
      </Button>
    </Stack>
  );
}
