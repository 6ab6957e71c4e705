import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import {
  DEFAULT_DURATION_DAYS,
  DURATION_MAX,
  DURATION_MIN,
  type AdminUser,
  type PaidTier,
} from '../../../../src/admin/admin.schema';
import { plans } from '../../../../src/plans';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

export type PlanChange = 'upgrade' | 'extend' | 'cancel-later' | 'cancel-now' | 'approve';

function useAfterChange(onClose: () => void) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  return {
    onSuccess: async ({ message }: { message: string }) => {
      notify.success(t`Success`, translateShared(message));
      await Promise.all([
        utils.admin.users.invalidate(),
        utils.admin.subscriptions.invalidate(),
        // The pending-request counts in the sidebar and on /admin.
        utils.admin.notices.invalidate(),
      ]);
      onClose();
    },
    onError: (error: unknown) =>
      notify.error(t`Error`, apiError(error, t`Failed to change the subscription`).message),
  };
}

const titles: Record<PlanChange, MessageDescriptor> = {
  upgrade: msg`Upgrade subscription`,
  extend: msg`Extend subscription`,
  'cancel-later': msg`Cancel at period end`,
  'cancel-now': msg`Cancel immediately`,
  approve: msg`Approve upgrade request`,
};

/** Upgrade (tier and duration), extend (days), cancel (at period end or now), approve a request. */
export function PlanChangeModal({
  user,
  change,
  onClose,
}: {
  user: AdminUser;
  change: PlanChange;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const after = useAfterChange(onClose);
  const upgrade = trpc.admin.upgrade.useMutation(after);
  const extend = trpc.admin.extend.useMutation(after);
  const cancel = trpc.admin.cancel.useMutation(after);
  const decide = trpc.admin.decideRequest.useMutation(after);
  const [tier, setTier] = useState<PaidTier>(
    user.upgradeRequest?.tier ?? (user.subscriptionTier === 'premium' ? 'premium' : 'pro'),
  );
  const [days, setDays] = useState<number | string>(DEFAULT_DURATION_DAYS);
  const [error, setError] = useState<string | null>(null);
  const pending = upgrade.isPending || extend.isPending || cancel.isPending || decide.isPending;
  const needsDays = change === 'upgrade' || change === 'extend' || change === 'approve';

  const submit = () => {
    const n = Number(days);
    if (needsDays && (!Number.isInteger(n) || n < DURATION_MIN || n > DURATION_MAX)) {
      setError(
        change === 'extend'
          ? t`Days must be between 1 and 365 days`
          : t`Duration must be between 1 and 365 days`,
      );
      return;
    }
    setError(null);
    if (change === 'upgrade') upgrade.mutate({ id: user.id, tier, duration: n });
    if (change === 'extend') extend.mutate({ id: user.id, days: n });
    if (change === 'cancel-later') cancel.mutate({ id: user.id, immediate: false });
    if (change === 'cancel-now') cancel.mutate({ id: user.id, immediate: true });
    if (change === 'approve' && user.upgradeRequest) {
      decide.mutate({ id: user.upgradeRequest.id, approve: true, duration: n });
    }
  };

  const plan = translateShared(plans[user.subscriptionTier].name);
  const username = user.username;
  const title = t(titles[change]);
  const requested = user.upgradeRequest ? translateShared(plans[user.upgradeRequest.tier].name) : '';
  return (
    <Modal opened onClose={onClose} title={t`${title}: ${username}`} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {change === 'upgrade' && (
            <Select
              label={t`Tier`}
              data={[
                { value: 'pro', label: translateShared(plans.pro.name) },
                { value: 'premium', label: translateShared(plans.premium.name) },
              ]}
              value={tier}
              allowDeselect={false}
              onChange={(v) => setTier(v === 'premium' ? 'premium' : 'pro')}
            />
          )}
          {change === 'approve' && user.upgradeRequest && (
            <Text size="sm">
              <Trans>
                {username} asked for {requested}. Approving puts them on it for the days below and tells them
                by e-mail.
              </Trans>
            </Text>
          )}
          {change === 'cancel-later' && (
            <Text size="sm">
              <Trans>
                {username} keeps {plan} until the end date, then falls back to Free. Their codes keep working.
              </Trans>
            </Text>
          )}
          {change === 'cancel-now' && (
            <Text size="sm">
              <Trans>
                {username} goes back to Free now. Their codes keep working, but they cannot create more than
                the free plan allows.
              </Trans>
            </Text>
          )}
          {needsDays && (
            <NumberInput
              label={change === 'extend' ? t`Days` : t`Duration (days)`}
              min={DURATION_MIN}
              max={DURATION_MAX}
              allowDecimal={false}
              clampBehavior="none"
              value={days}
              error={error}
              onChange={setDays}
              data-autofocus
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Back</Trans>
            </Button>
            <Button type="submit" loading={pending} color={change.startsWith('cancel') ? 'red' : undefined}>
              {title}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Declines a pending request at once (nothing to choose). */
export function useDeclineRequest() {
  return trpc.admin.decideRequest.useMutation(useAfterChange(() => undefined));
}
