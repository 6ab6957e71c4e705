import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useRef, useState } from 'react';
import { loginInput, type LoginInput, type User } from '../../../src/auth/auth.schema';
import { OneTimeCodeInput } from '../../components/OneTimeCodeInput';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { lastUsername } from './last-username';
import { useEnterApp } from './use-enter-app';

/**
 * The second step of a sign-in with two-factor on: a code from the app, or a recovery code. A complete
 * 6-digit code is sent by itself (once); a refused one empties the boxes and puts the focus back in them.
 */
function TwoFactorStep({
  onSignedIn,
  onBack,
}: {
  onSignedIn: (user: User) => Promise<void>;
  onBack: () => void;
}) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new set of boxes after each refusal: empty, focused, ready for the next code.
  const [attempt, setAttempt] = useState(0);
  const sending = useRef(false);
  const verify = trpc.auth.loginTwoFactor.useMutation({
    onSuccess: onSignedIn,
    onError: (e) => {
      const { message } = apiError(e, 'Login failed');
      setError(message);
      notify.error('Login failed', message);
      if (!useRecovery) {
        setCode('');
        setAttempt((n) => n + 1);
      }
    },
    onSettled: () => {
      sending.current = false;
    },
  });
  const submit = (value: string) => {
    if (sending.current || value.trim() === '') return;
    sending.current = true;
    verify.mutate({ code: value });
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit(code);
      }}
      noValidate
    >
      <Stack gap="md">
        <Text size="sm" id="two-factor-label">
          {useRecovery
            ? 'Enter one of your recovery codes.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Text>
        {useRecovery ? (
          <TextInput
            label="Recovery code"
            autoComplete="off"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error}
            data-autofocus
          />
        ) : (
          <OneTimeCodeInput
            key={attempt}
            value={code}
            onChange={setCode}
            onComplete={submit}
            readOnly={verify.isPending}
            error={error}
            labelId="two-factor-label"
            autoFocus
          />
        )}
        <Button type="submit" fullWidth loading={verify.isPending} disabled={code.trim() === ''}>
          Verify
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onBack}>
            Back
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setUseRecovery((r) => !r);
              setCode('');
              setError(null);
            }}
          >
            {useRecovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const demo = trpc.auth.publicConfig.useQuery().data?.demoAccount;
  const [needsCode, setNeedsCode] = useState(false);
  // The demo account only in a browser that never signed in to another account here; otherwise the last
  // username (no password), so Enter never signs a returning user in to the shared demo.
  const [returning] = useState(lastUsername);
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: returning
      ? { username: returning, password: '' }
      : { username: demo?.username ?? '', password: demo?.password ?? '' },
    validate: schemaResolver(loginInput, { sync: true }),
  });
  const enterApp = useEnterApp(demo?.username);
  const signedIn = async (user: User) => {
    await enterApp(user);
    notify.success('Login successful', `Welcome back, ${user.username}`);
  };
  const login = trpc.auth.login.useMutation({
    onSuccess: async (result) => {
      if ('requiresTwoFactor' in result) {
        setNeedsCode(true);
        return;
      }
      // A directory account whose address is an existing account's: prove that password once.
      if ('linkRequired' in result) {
        window.location.assign('/auth/link');
        return;
      }
      await signedIn(result);
    },
    onError: (error) => {
      const { message, extras } = apiError(error, 'Login failed');
      notify.error(extras.requiresVerification ? 'Email verification required' : 'Login failed', message);
    },
  });

  if (needsCode) return <TwoFactorStep onSignedIn={signedIn} onBack={() => setNeedsCode(false)} />;

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
          // A returning user's name is filled in: the password is what is left to type.
          autoFocus={returning !== null}
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
