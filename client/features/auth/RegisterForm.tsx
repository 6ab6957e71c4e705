import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { registerInput, type RegisterInput } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcUtils } from '../../lib/trpc';

export function RegisterForm({ onVerificationRequired }: { onVerificationRequired: () => void }) {
  const navigate = useNavigate();
  const form = useForm<RegisterInput>({
    mode: 'controlled',
    initialValues: { username: '', password: '', name: '', email: '' },
    validate: schemaResolver(registerInput, { sync: true }),
  });
  const register = trpc.auth.register.useMutation({
    onSuccess: async (result) => {
      if (result.requiresVerification) {
        notify.success('Registration successful', result.message);
        form.reset();
        onVerificationRequired();
        return;
      }
      trpcUtils.auth.me.setData(undefined, result.user);
      notify.success('Registration successful', `Welcome, ${result.user.username}`);
      await navigate({ to: '/' });
    },
    onError: (error) => notify.error('Registration failed', apiError(error, 'Registration failed').message),
  });

  const registrationOpen = trpc.auth.publicConfig.useQuery().data?.registrationOpen ?? true;
  if (!registrationOpen) {
    return (
      <Alert variant="light" color="gray" title="Registration is closed">
        This server does not take new accounts right now. Ask an administrator to create one for you.
      </Alert>
    );
  }

  return (
    <form onSubmit={form.onSubmit((values) => register.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput label="Full Name" autoComplete="name" required {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <TextInput label="Username" autoComplete="username" required {...form.getInputProps('username')} />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          description="At least 6 characters"
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={register.isPending}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
