import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import type { User } from '../../../src/auth/auth.schema';
import { OneTimeCodeInput } from '../../components/OneTimeCodeInput';
import { notify } from '../../lib/notify';
import { apiError } from '../../lib/api-error';
import { useApiCall } from './use-api-call';

/**
 * The second step of a sign-in with two-factor on: a code from the app, or a recovery code. A complete
 * 6-digit code is sent by itself (once); a refused one empties the boxes and puts the focus back in them.
 */
export function TwoFactorStep({
  onSignedIn,
  onBack,
}: {
  onSignedIn: (user: User) => Promise<void>;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new set of boxes after each refusal: empty, focused, ready for the next code.
  const [attempt, setAttempt] = useState(0);
  const sending = useRef(false);
  const verify = useApiCall(
    (api, input: { code: string }) => api.trpcClient.auth.loginTwoFactor.mutate(input),
    {
      onSuccess: onSignedIn,
      onError: (e) => {
        const { message } = apiError(e, t`Login failed`);
        setError(message);
        notify.error(t`Login failed`, message);
        if (!useRecovery) {
          setCode('');
          setAttempt((n) => n + 1);
        }
      },
      onSettled: () => {
        sending.current = false;
      },
    },
  );
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
            ? t`Enter one of your recovery codes.`
            : t`Enter the 6-digit code from your authenticator app.`}
        </Text>
        {useRecovery ? (
          <TextInput
            label={t`Recovery code`}
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
          <Trans>Verify</Trans>
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onBack}>
            <Trans>Back</Trans>
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
            {useRecovery ? t`Use the authenticator app` : t`Use a recovery code`}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
