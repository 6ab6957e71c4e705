import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AdminUser } from '../../../../src/admin/admin.schema';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

/** A new password for a user; every session of theirs ends, and optionally their two-factor sign-in. */
export function ResetPasswordModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useLingui();
  const username = user.username;
  const [password, setPassword] = useState('');
  const [clearTwoFactor, setClearTwoFactor] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const reset = trpc.admin.resetPassword.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(t`Password reset`, translateShared(message));
      // Clearing two-factor changes the row; the lists are refetched after every change anyway.
      await Promise.all([utils.admin.users.invalidate(), utils.admin.subscriptions.invalidate()]);
      onClose();
    },
    onError: (e) => {
      const reason = apiError(e, t`Error`).message;
      notify.error(t`Failed to reset password: ${reason}`);
    },
  });
  return (
    <Modal opened onClose={onClose} title={t`Reset password of ${username}`} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (password.length === 0) return setError(t`New password is required`);
          if (password.length < 6) return setError(t`Password must be at least 6 characters`);
          setError(null);
          reset.mutate({ id: user.id, newPassword: password, clearTwoFactor });
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            <Trans>{username} is signed out everywhere and logs in with the new password.</Trans>
          </Text>
          <PasswordInput
            label={t`New password`}
            required
            data-autofocus
            value={password}
            error={error}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setError(null);
            }}
          />
          {user.twoFactorEnabled && (
            <Checkbox
              label={t`Also turn off two-factor sign-in`}
              description={t`For a user who lost their authenticator and recovery codes`}
              checked={clearTwoFactor}
              onChange={(e) => setClearTwoFactor(e.currentTarget.checked)}
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={reset.isPending}>
              <Trans>Reset password</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
