import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import type { TwoFactorEnrolment } from '../../../src/auth/account.schema';
import { defaultCustomization } from '../../../src/qr/customization';
import { OneTimeCodeInput } from '../../components/OneTimeCodeInput';
import { notify } from '../../lib/notify';
import { saveBlob } from '../../lib/save-blob';
import { apiError, trpc } from '../../lib/trpc';
import { QrPreview } from '../qr/QrPreview';

/** The secret in groups of four, as authenticator apps show it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

type Step =
  { kind: 'password' } | { kind: 'scan'; enrolment: TwoFactorEnrolment } | { kind: 'codes'; codes: string[] };

/** Turning it on: the password, then the QR code and the secret, a code to confirm, then the recovery codes. */
function EnableDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new set of boxes after each refused code: empty, focused, ready for the next one.
  const [attempt, setAttempt] = useState(0);
  const confirming = useRef(false);
  const begin = trpc.twoFactor.begin.useMutation({
    onSuccess: (enrolment) => {
      setError(null);
      setStep({ kind: 'scan', enrolment });
    },
    onError: (e) => setError(apiError(e, t`Failed to start`).message),
  });
  const confirm = trpc.twoFactor.confirm.useMutation({
    onSuccess: async ({ recoveryCodes }) => {
      setError(null);
      setStep({ kind: 'codes', codes: recoveryCodes });
      await utils.twoFactor.status.invalidate();
      notify.success(t`Two-factor authentication is on`);
    },
    onError: (e) => {
      setError(apiError(e, t`Invalid authentication code`).message);
      setCode('');
      setAttempt((n) => n + 1);
    },
    onSettled: () => {
      confirming.current = false;
    },
  });
  /** Checks a complete code, once: typing the sixth digit sends it, as does "Turn on". */
  const submitCode = (value: string) => {
    if (confirming.current || value.length !== 6) return;
    confirming.current = true;
    confirm.mutate({ code: value });
  };
  const close = () => {
    setStep({ kind: 'password' });
    setPassword('');
    setCode('');
    setError(null);
    setAttempt(0);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t`Turn on two-factor authentication`} size="md" centered>
      {step.kind === 'password' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            begin.mutate({ password });
          }}
        >
          <Stack gap="md">
            <Text size="sm">
              <Trans>Enter your password to set up an authenticator app.</Trans>
            </Text>
            <PasswordInput
              label={t`Password`}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={error}
              data-autofocus
            />
            <Button type="submit" loading={begin.isPending} disabled={!password}>
              <Trans>Continue</Trans>
            </Button>
          </Stack>
        </form>
      )}
      {step.kind === 'scan' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submitCode(code);
          }}
        >
          <Stack gap="md" align="stretch">
            <Text size="sm">
              <Trans>
                Scan this code with an authenticator app (Google Authenticator, Authy, 1Password…), then enter
                the 6-digit code it shows.
              </Trans>
            </Text>
            <Group justify="center">
              <QrPreview
                data={step.enrolment.otpauthUrl}
                customization={defaultCustomization}
                size={200}
                label={t`Authenticator set-up QR code`}
              />
            </Group>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                <Trans>Or enter this key by hand</Trans>
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                  {grouped(step.enrolment.secret)}
                </Code>
                <CopyButton value={step.enrolment.secret}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="default" onClick={copy}>
                      {copied ? t`Copied` : t`Copy`}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
            {/* The focus goes straight to the boxes (after "Continue", and after a refused code). */}
            <OneTimeCodeInput
              key={attempt}
              value={code}
              onChange={setCode}
              onComplete={submitCode}
              readOnly={confirm.isPending}
              error={error}
              labelId="totp-code-label"
              label={t`Code from the app`}
              autoFocus
            />
            <Button type="submit" loading={confirm.isPending} disabled={code.length !== 6}>
              <Trans>Turn on</Trans>
            </Button>
          </Stack>
        </form>
      )}
      {step.kind === 'codes' && (
        <Stack gap="md">
          <Alert color="yellow" variant="light" title={t`Save your recovery codes`}>
            <Trans>
              Each code signs you in once if you lose your phone. They are shown only now: store them
              somewhere safe.
            </Trans>
          </Alert>
          <SimpleGrid cols={2} spacing="xs" data-testid="recovery-codes">
            {step.codes.map((c) => (
              <Code key={c} ta="center" fz="sm">
                {c}
              </Code>
            ))}
          </SimpleGrid>
          <Group>
            <CopyButton value={step.codes.join('\n')}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t`Copied` : t`Copy codes`}
                </Button>
              )}
            </CopyButton>
            <Button
              variant="default"
              onClick={() => {
                const heading = t`QR Creator recovery codes`;
                saveBlob(
                  new Blob([`${heading}\n\n${step.codes.join('\n')}\n`], {
                    type: 'text/plain',
                  }),
                  'qr-creator-recovery-codes.txt',
                );
              }}
            >
              <Trans>Download</Trans>
            </Button>
            <Button onClick={close}>
              <Trans>Done</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Turning it off: the password and a code (or a recovery code). */
function DisableDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const disable = trpc.twoFactor.disable.useMutation({
    onSuccess: async () => {
      await utils.twoFactor.status.invalidate();
      notify.success(t`Two-factor authentication is off`);
      setPassword('');
      setCode('');
      setError(null);
      onClose();
    },
    onError: (e) => setError(apiError(e, t`Failed to turn off two-factor authentication`).message),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t`Turn off two-factor authentication`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          disable.mutate({ password, code });
        }}
      >
        <Stack gap="md">
          <PasswordInput
            label={t`Password`}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            data-autofocus
          />
          <TextInput
            label={t`Authentication code`}
            description={t`From your authenticator app, or a recovery code`}
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
          <Button type="submit" color="red" loading={disable.isPending} disabled={!password || !code}>
            <Trans>Turn off</Trans>
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** Settings → Security: the two-factor switch, its status and the dialogs behind it. */
export function TwoFactorSection() {
  const { t } = useLingui();
  const status = trpc.twoFactor.status.useQuery();
  const [dialog, setDialog] = useState<'enable' | 'disable' | null>(null);
  if (status.isPending) return <Skeleton h={48} aria-label={t`Loading two-factor authentication`} />;
  const enabled = status.data?.enabled ?? false;
  const codesLeft = status.data?.recoveryCodesLeft ?? 0;
  return (
    <Stack gap={6}>
      <Switch
        size="md"
        checked={enabled}
        disabled={status.isError}
        onChange={(e) => setDialog(e.currentTarget.checked ? 'enable' : 'disable')}
        label={
          <Group gap="xs">
            <span>
              <Trans>Two-factor authentication</Trans>
            </span>
            {enabled && (
              <Badge size="xs" color="teal" variant="light">
                <Trans context="status: two-factor is switched on">On</Trans>
              </Badge>
            )}
          </Group>
        }
        description={
          enabled
            ? t`Sign-in asks for a code from your authenticator app. ${plural(codesLeft, {
                one: '# recovery codes left.',
                other: '# recovery codes left.',
              })}`
            : t`Ask for a code from an authenticator app after your password.`
        }
      />
      <EnableDialog opened={dialog === 'enable'} onClose={() => setDialog(null)} />
      <DisableDialog opened={dialog === 'disable'} onClose={() => setDialog(null)} />
    </Stack>
  );
}
