import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ssoLinkInput, type SsoLink, type User } from '../../../src/auth/auth.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { authLinkRoute } from '../../routes';
import { PublicCard } from './PublicCard';
import { TwoFactorStep } from './TwoFactorStep';
import { useEnterApp } from './use-enter-app';

/** The link request is gone (expired, used up, never made): the server's words and the way back. */
function NoLink({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden size={20} />} role="alert">
        {message}
      </Alert>
      <Button component={Link} to="/auth">
        Back to sign-in
      </Button>
    </Stack>
  );
}

function LinkForm({ link }: { link: SsoLink }) {
  const demoUsername = trpc.auth.publicConfig.useQuery().data?.demoAccount?.username;
  const enterApp = useEnterApp(demoUsername);
  const [needsCode, setNeedsCode] = useState(false);
  // The request expired while the page was open: nothing left to link.
  const [gone, setGone] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '' },
    validate: schemaResolver(ssoLinkInput, { sync: true }),
  });
  const signedIn = async (user: User) => {
    await enterApp(user);
    notify.success('Login successful', `Welcome back, ${user.username}`);
  };
  const complete = trpc.auth.ssoLinkComplete.useMutation({
    onSuccess: async (result) => {
      // The existing account has two-factor sign-in on: its code, as after its password at /auth.
      if ('requiresTwoFactor' in result) {
        setNeedsCode(true);
        return;
      }
      await signedIn(result);
    },
    onError: (error) => {
      const { message } = apiError(error, 'Link failed');
      notify.error('Link failed', message);
      if (error.data?.code === 'NOT_FOUND') setGone(message);
      form.setFieldValue('password', '');
    },
  });

  if (gone) return <NoLink message={gone} />;
  if (needsCode) return <TwoFactorStep onSignedIn={signedIn} onBack={() => setNeedsCode(false)} />;

  return (
    <form onSubmit={form.onSubmit((values) => complete.mutate(values))} noValidate>
      <Stack gap="md">
        <Text size="sm">
          An account with the address <strong>{link.email}</strong> already exists ({link.username}). Enter
          its password once to link it to your {link.provider} sign-in.
        </Text>
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          autoFocus
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={complete.isPending}>
          Link account
        </Button>
        <Group justify="center">
          <Anchor component={Link} to="/auth" size="sm">
            Cancel
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * /auth/link: a company account whose address is an existing account's. The person proves that
 * account's password once; from then on the company sign-in opens it.
 */
export function LinkAccountPage() {
  const pending = authLinkRoute.useLoaderData();
  useEffect(() => {
    document.title = 'Link your company account · QR Creator';
  }, []);
  return (
    <PublicCard title="Link your company account">
      {pending.link ? <LinkForm link={pending.link} /> : <NoLink message={pending.error} />}
    </PublicCard>
  );
}
