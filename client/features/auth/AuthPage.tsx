import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconAlertCircle, IconQrcode, IconShieldLock } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authRoute } from '../../routes';
import { ForgotPasswordPanel } from './ForgotPasswordPanel';
import { LoginForm } from './LoginForm';
import { MarketingPanel } from './MarketingPanel';
import { RegisterForm } from './RegisterForm';
import { SsoButtons } from './SsoButtons';
import { loadApiOnIntent } from './use-api-call';

type Panel = 'login' | 'register' | 'forgot';

/**
 * The Login tab: "Sign in with <provider>" buttons above the form ("or" between them). In SSO-only mode
 * without a directory behind the form, the password form is the break-glass admin's alone: folded behind
 * a quiet button, so people reach for their company account first.
 */
function LoginPanel({
  ssoError,
  onDismissError,
  twoFactorFirst,
  onTwoFactorBack,
  onForgotPassword,
}: {
  ssoError: string | null;
  onDismissError: () => void;
  twoFactorFirst: boolean;
  onTwoFactorBack: () => void;
  onForgotPassword: () => void;
}) {
  const { t } = useLingui();
  const { returnTo, config } = authRoute.useLoaderData();
  const sso = config.sso;
  const providers = sso.providers;
  const passwordSignIn = sso.passwordSignIn;
  const folded = !passwordSignIn && !sso.ldap;
  const [unfolded, setUnfolded] = useState(false);

  const error = ssoError && (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertCircle aria-hidden size={20} />}
      role="alert"
      withCloseButton
      closeButtonLabel={t`Dismiss`}
      onClose={onDismissError}
    >
      {ssoError}
    </Alert>
  );
  const buttons = providers.length > 0 && <SsoButtons providers={providers} returnTo={returnTo} />;
  const form = (autoFocus: boolean) => (
    <LoginForm
      // No local passwords to reset in SSO-only mode (the break-glass admin's is the server's setting).
      onForgotPassword={passwordSignIn ? onForgotPassword : undefined}
      twoFactorFirst={twoFactorFirst}
      onTwoFactorBack={onTwoFactorBack}
      autoFocus={autoFocus}
      // "or": the form is another way in (a password here, or the directory's in SSO-only mode).
      before={
        buttons && !folded ? (
          <>
            {buttons}
            <Divider
              label={t({ message: 'or', context: 'between the company sign-in buttons and the form' })}
              labelPosition="center"
            />
          </>
        ) : undefined
      }
    />
  );

  if (!folded) {
    return (
      <Stack gap="md">
        {error}
        {form(false)}
      </Stack>
    );
  }
  // A company sign-in that asks for the person's two-factor code shows that step, fold or not.
  if (twoFactorFirst) return form(false);
  return (
    <Stack gap="md">
      {error}
      {buttons}
      <Button
        variant="subtle"
        color="gray"
        size="sm"
        fullWidth
        fw={500}
        // Its words wrap on a narrow card rather than being cut off.
        h="auto"
        py={6}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.4 } }}
        leftSection={<IconShieldLock aria-hidden size={16} />}
        aria-expanded={unfolded}
        aria-controls="local-admin-sign-in"
        onClick={() => setUnfolded((open) => !open)}
      >
        <Trans>Sign in with a local administrator account</Trans>
      </Button>
      {unfolded && <div id="local-admin-sign-in">{form(true)}</div>}
    </Stack>
  );
}

export function AuthPage() {
  const { t } = useLingui();
  const [panel, setPanel] = useState<Panel>('login');
  const passwordSignIn = authRoute.useLoaderData().config.sso.passwordSignIn;
  // What a company sign-in came back with, kept here: the address drops it at once (a reload or a shared
  // link must not show an old error or ask for a code again).
  const search = authRoute.useSearch();
  const [ssoError, setSsoError] = useState(search.sso_error ?? null);
  const [twoFactorFirst, setTwoFactorFirst] = useState(search.sso === 'two-factor');
  const navigate = useNavigate();
  const fromSso = search.sso !== undefined || search.sso_error !== undefined;
  useEffect(() => {
    if (fromSso) void navigate({ to: '/auth', search: {}, replace: true });
  }, [fromSso, navigate]);
  const title = t`Sign in · QR Creator`;
  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    // The tRPC client comes once the visitor starts to use the page, not with it (lib/load-api.ts).
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100dvh" {...loadApiOnIntent}>
      <Center p="md" component="main">
        <Stack w="100%" maw={420} gap="lg">
          <Group gap="sm" justify="center">
            <ThemeIcon size={44} radius="md" aria-hidden>
              <IconQrcode size={28} />
            </ThemeIcon>
            <div>
              <Title order={1} size="h2">
                QR Creator
              </Title>
              <Text size="sm" c="dimmed">
                <Trans>Create, manage and track QR codes</Trans>
              </Text>
            </div>
          </Group>
          <Paper withBorder shadow="sm" p="lg" radius="md">
            {panel === 'forgot' ? (
              <ForgotPasswordPanel onBack={() => setPanel('login')} />
            ) : (
              <Tabs
                keepMounted={false}
                value={panel}
                onChange={(v) => setPanel(v === 'register' ? 'register' : 'login')}
              >
                <Tabs.List grow mb="lg">
                  <Tabs.Tab value="login">
                    <Trans>Login</Trans>
                  </Tabs.Tab>
                  {/* SSO-only: accounts come from the company's sign-in, never from a registration. */}
                  {passwordSignIn && (
                    <Tabs.Tab value="register">
                      <Trans>Register</Trans>
                    </Tabs.Tab>
                  )}
                </Tabs.List>
                <Tabs.Panel value="login">
                  <LoginPanel
                    ssoError={ssoError}
                    onDismissError={() => setSsoError(null)}
                    twoFactorFirst={twoFactorFirst}
                    onTwoFactorBack={() => setTwoFactorFirst(false)}
                    onForgotPassword={() => setPanel('forgot')}
                  />
                </Tabs.Panel>
                {passwordSignIn && (
                  <Tabs.Panel value="register">
                    <RegisterForm onVerificationRequired={() => setPanel('login')} />
                  </Tabs.Panel>
                )}
              </Tabs>
            )}
          </Paper>
        </Stack>
      </Center>
      {/* The marketing panel is shown on large screens only. */}
      <Box visibleFrom="md">
        <MarketingPanel />
      </Box>
    </SimpleGrid>
  );
}
