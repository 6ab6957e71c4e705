import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ssoLinkInput, type SsoLink, type User } from '../../../src/auth/auth.schema';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { authLinkRoute } from '../../routes';
import { PublicCard } from './PublicCard';
import { TwoFactorStep } from './TwoFactorStep';
import { useEnterApp } from './use-enter-app';

/** The link request is gone (expired, used up, never made): the server's words and the way back. */
function NoLink({ message }: { message: string | MessageDescriptor }) {
  const { t } = useLingui();
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden size={20} />} role="alert">
        {typeof message === 'string' ? translateShared(message) : t(message)}
      </Alert>
      <Button component={Link} to="/auth">
        <Trans>Back to sign-in</Trans>
      </Button>
    </Stack>
  );
}

function LinkForm({ link }: { link: SsoLink }) {
  const { t } = useLingui();
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
    const { username } = user;
    notify.success(t`Login successful`, t`Welcome back, ${username}`);
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
      const { message } = apiError(error, t`Link failed`);
      notify.error(t`Link failed`, message);
      if (error.data?.code === 'NOT_FOUND') setGone(message);
      form.setFieldValue('password', '');
    },
  });

  if (gone) return <NoLink message={gone} />;
  if (needsCode) return <TwoFactorStep onSignedIn={signedIn} onBack={() => setNeedsCode(false)} />;
  const { email, username, provider } = link;
  // src/'s check writes its message in English: shown in the active language.
  const passwordError =
    typeof form.errors.password === 'string' ? translateShared(form.errors.password) : form.errors.password;

  return (
    <form onSubmit={form.onSubmit((values) => complete.mutate(values))} noValidate>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            An account with the address <strong>{email}</strong> already exists ({username}). Enter its
            password once to link it to your {provider} sign-in.
          </Trans>
        </Text>
        <PasswordInput
          label={t`Password`}
          autoComplete="current-password"
          required
          autoFocus
          {...form.getInputProps('password')}
          error={passwordError}
        />
        <Button type="submit" fullWidth loading={complete.isPending}>
          <Trans>Link account</Trans>
        </Button>
        <Group justify="center">
          <Anchor component={Link} to="/auth" size="sm">
            <Trans>Cancel</Trans>
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
  const { t } = useLingui();
  const pending = authLinkRoute.useLoaderData();
  const title = t`Link your company account · QR Creator`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <PublicCard title={t`Link your company account`}>
      {pending.link ? <LinkForm link={pending.link} /> : <NoLink message={pending.error} />}
    </PublicCard>
  );
}
