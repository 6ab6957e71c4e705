import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import {
  DEFAULT_DURATION_DAYS,
  DURATION_MAX,
  DURATION_MIN,
  type PaidTier,
} from '../../../../src/admin/admin.schema';
import { plans } from '../../../../src/plans';
import type { AdminWorkspace } from '../../../../src/workspaces/workspace.schema';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError } from '../../../lib/trpc';
import { adminWorkspaceApi, useInvalidateAdminWorkspaces } from './admin-workspaces-api';

export type WorkspacePlanChange = 'upgrade' | 'extend' | 'cancel-later' | 'cancel-now';

const titles: Record<WorkspacePlanChange, MessageDescriptor> = {
  upgrade: msg`Upgrade subscription`,
  extend: msg`Extend subscription`,
  'cancel-later': msg`Cancel at period end`,
  'cancel-now': msg`Cancel immediately`,
};

/** Upgrade (tier and duration), extend (days) or cancel (at period end or now) a team workspace's plan. */
export function WorkspacePlanModal({
  workspace,
  change,
  onClose,
}: {
  workspace: AdminWorkspace;
  change: WorkspacePlanChange;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const invalidate = useInvalidateAdminWorkspaces();
  const after = {
    onSuccess: async ({ message }: { message: string }) => {
      notify.success(t`Success`, translateShared(message));
      await invalidate();
      onClose();
    },
    onError: (error: unknown) =>
      notify.error(t`Error`, apiError(error, t`Failed to change the subscription`).message),
  };
  const upgrade = adminWorkspaceApi.workspaceUpgrade.useMutation(after);
  const extend = adminWorkspaceApi.workspaceExtend.useMutation(after);
  const cancel = adminWorkspaceApi.workspaceCancel.useMutation(after);
  const [tier, setTier] = useState<PaidTier>(workspace.plan.tier === 'premium' ? 'premium' : 'pro');
  const [days, setDays] = useState<number | string>(DEFAULT_DURATION_DAYS);
  const [error, setError] = useState<string | null>(null);
  const pending = upgrade.isPending || extend.isPending || cancel.isPending;
  const needsDays = change === 'upgrade' || change === 'extend';

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
    if (change === 'upgrade') upgrade.mutate({ id: workspace.id, tier, duration: n });
    if (change === 'extend') extend.mutate({ id: workspace.id, days: n });
    if (change === 'cancel-later') cancel.mutate({ id: workspace.id, immediate: false });
    if (change === 'cancel-now') cancel.mutate({ id: workspace.id, immediate: true });
  };

  const plan = translateShared(plans[workspace.plan.tier].name);
  const name = workspace.name;
  const title = t(titles[change]);
  return (
    <Modal opened onClose={onClose} title={t`${title}: ${name}`} centered>
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
          {change === 'cancel-later' && (
            <Text size="sm">
              <Trans>
                {name} keeps {plan} until the end date, then falls back to Free. Its codes keep working.
              </Trans>
            </Text>
          )}
          {change === 'cancel-now' && (
            <Text size="sm">
              <Trans>
                {name} goes back to Free now. Its codes keep working, but its members cannot create more than
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
