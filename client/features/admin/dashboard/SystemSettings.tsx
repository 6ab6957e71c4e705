import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, NumberInput, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { InstanceSettings } from '../../../../src/admin/admin.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';

function SettingsForm({ stored }: { stored: InstanceSettings }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [values, setValues] = useState(stored);
  const save = trpc.admin.updateSettings.useMutation({
    onSuccess: async (saved) => {
      utils.admin.settings.setData(undefined, saved);
      setValues(saved);
      notify.success(t`Settings saved`);
      await Promise.all([utils.auth.publicConfig.invalidate(), utils.admin.auditLog.invalidate()]);
    },
    onError: (e) => notify.error(t`Error`, apiError(e, t`Failed to save the settings`).message),
  });
  const limitValid = Number.isInteger(values.freePlanLimit) && values.freePlanLimit >= 0;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (limitValid) save.mutate(values);
      }}
    >
      <Stack gap="md">
        <Switch
          label={t`Registration open`}
          description={t`Visitors can create an account on the sign-in page`}
          checked={values.registrationOpen}
          onChange={(e) => setValues({ ...values, registrationOpen: e.currentTarget.checked })}
        />
        <Switch
          label={t`Require e-mail verification`}
          description={t`New users confirm their address before they can log in`}
          checked={values.requireEmailVerification}
          onChange={(e) => setValues({ ...values, requireEmailVerification: e.currentTarget.checked })}
        />
        <NumberInput
          label={t`Free plan limit`}
          description={t`How many QR codes a user on the free plan may own`}
          min={0}
          allowDecimal={false}
          maw={360}
          value={values.freePlanLimit}
          error={limitValid ? undefined : t`Free plan limit must be 0 or more`}
          onChange={(v) => setValues({ ...values, freePlanLimit: typeof v === 'number' ? v : Number.NaN })}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            <Trans>Save settings</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Registration, e-mail verification and the free limit, stored in the database (the environment gives defaults). */
export function SystemSettings() {
  const { t } = useLingui();
  const settings = trpc.admin.settings.useQuery();
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4">
        <Trans>System Settings</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>
          Stored in the database for every instance; REGISTRATION_OPEN, REQUIRE_EMAIL_VERIFICATION and
          FREE_PLAN_LIMIT give the values until you change them here.
        </Trans>
      </Text>
      {settings.isError ? (
        <ErrorAlert>{apiError(settings.error, t`Failed to load the settings`).message}</ErrorAlert>
      ) : settings.data ? (
        <SettingsForm stored={settings.data} />
      ) : (
        <Skeleton h={180} aria-label={t`Loading settings`} />
      )}
    </Card>
  );
}
