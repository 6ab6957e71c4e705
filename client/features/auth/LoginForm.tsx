import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { loginInput, type LoginInput } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc, trpcUtils } from '../../lib/trpc';

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const navigate = useNavigate();
  const demo = trpc.auth.publicConfig.useQuery().data?.demoAccount;
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { username: demo?.username ?? '', password: demo?.password ?? '' },
    validate: schemaResolver(loginInput, { sync: true }),
  });
  const login = trpc.auth.login.useMutation({
    onSuccess: async (user) => {
      trpcUtils.auth.me.setData(undefined, user);
      notify.success('Login successful', `Welcome back, ${user.username}`);
      await navigate({ to: '/' });
    },
    onError: (error) => {
      const { message, extras } = apiError(error, 'Login failed');
      notify.error(extras.requiresVerification ? 'Email verification required' : 'Login failed', message);
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label="Username"
          autoComplete="username"
          required
          data-autofocus
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Anchor component="button" type="button" size="sm" onClick={onForgotPassword}>
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={login.isPending}>
          Log in
        </Button>
      </Stack>
    </form>
  );
}
