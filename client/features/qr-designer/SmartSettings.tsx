// The section's settings parts: schedule and limits, password, tracking.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { withHttps } from '../../../src/qr/bare-url';
import {
  INACTIVE_MESSAGE_MAX,
  PASSWORD_MAX,
  UTM_VALUE_MAX,
  utmKeys,
  withTracking,
  type UtmKey,
} from '../../../src/qr/smart-redirect';
import type { DesignerValues } from './designer-values';

type Form = UseFormReturnType<DesignerValues>;

const zoneName = (timeZone: string) => timeZone.replace(/_/g, ' ');

/** A URL input that completes a bare domain to https:// when the user leaves it, as the content's does. */
function urlInputProps(form: Form, path: string) {
  const input = form.getInputProps(path);
  return {
    ...input,
    type: 'url',
    inputMode: 'url' as const,
    autoComplete: 'off',
    onBlur: (event: React.FocusEvent<HTMLInputElement>) => {
      const completed = withHttps(event.currentTarget.value);
      if (completed !== event.currentTarget.value) form.setFieldValue(path, completed);
      (input.onBlur as ((e: React.FocusEvent<HTMLInputElement>) => void) | undefined)?.(event);
    },
  };
}

export function ScheduleFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const { timeZone, fallbackUrl, fallbackWhenDown } = form.values.smart;
  const zone = zoneName(timeZone);
  const hasFallback = fallbackUrl.trim() !== '';
  return (
    <Stack gap="sm">
      <Switch
        label={t`Pause this code`}
        description={t`Scans see a notice (or the fallback URL) until you turn this off; they are still counted.`}
        {...form.getInputProps('smart.paused', { type: 'checkbox' })}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <TextInput
          type="datetime-local"
          label={t`Active from`}
          description={t`In ${zone}; empty: from now`}
          {...form.getInputProps('smart.activeFrom')}
        />
        <TextInput
          type="datetime-local"
          label={t`Active until`}
          description={t`Empty: no end`}
          {...form.getInputProps('smart.activeUntil')}
        />
      </SimpleGrid>
      <NumberInput
        label={t`Maximum scans`}
        description={t`After this many scans the code stops redirecting. Empty: no limit.`}
        placeholder={t`No limit`}
        min={1}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        {...form.getInputProps('smart.maxScans')}
      />
      <Textarea
        label={t`Message shown when inactive`}
        description={t`On the page scans see while the code is paused, before or after its dates, or over its limit.`}
        autosize
        minRows={2}
        maxRows={5}
        maxLength={INACTIVE_MESSAGE_MAX}
        {...form.getInputProps('smart.inactiveMessage')}
      />
      <TextInput
        label={t`Fallback URL`}
        description={t`Optional: send scans of an inactive code here instead of showing the notice.`}
        placeholder="https://example.com/campaign-over"
        {...urlInputProps(form, 'smart.fallbackUrl')}
      />
      <Checkbox
        label={t`Use the fallback URL while the destination is down`}
        description={t`The destination is checked daily; after two failures in a row, scans go to the fallback URL until it answers again.`}
        disabled={!hasFallback}
        {...form.getInputProps('smart.fallbackWhenDown', { type: 'checkbox' })}
        // Without a fallback URL it is off (and not sent): the choice comes back with the URL.
        checked={hasFallback && fallbackWhenDown}
      />
      <Text size="xs" c="dimmed">
        <Trans>The time zone is the one chosen under Rules.</Trans>
      </Text>
    </Stack>
  );
}

export function PasswordFields({ form }: { form: Form }) {
  const { t } = useLingui();
  const { hasPassword, protect, changePassword } = form.values.smart;
  const typing = protect && (!hasPassword || changePassword);
  return (
    <Stack gap="sm">
      <Switch
        label={t`Protect with a password`}
        description={t`People who scan enter it before they are sent on; a browser remembers a correct entry for a while.`}
        checked={protect}
        onChange={(event) => {
          form.setFieldValue('smart.protect', event.currentTarget.checked);
          form.setFieldValue('smart.changePassword', false);
          form.setFieldValue('smart.password', '');
          form.clearFieldError('smart.password');
        }}
      />
      {hasPassword && protect && !changePassword && (
        <Group justify="space-between" gap="xs">
          <Text size="sm">
            <Trans>A password is set.</Trans>
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              onClick={() => form.setFieldValue('smart.changePassword', true)}
            >
              <Trans context="button: change the password">Change</Trans>
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => form.setFieldValue('smart.protect', false)}
            >
              <Trans context="button: remove the password">Remove</Trans>
            </Button>
          </Group>
        </Group>
      )}
      {hasPassword && !protect && (
        <Text size="sm" c="dimmed">
          <Trans>The password is removed when you save.</Trans>
        </Text>
      )}
      {typing && (
        <Stack gap={4}>
          <PasswordInput
            label={
              hasPassword
                ? t`New password`
                : t({ message: 'Password', context: 'the password input of a protected code' })
            }
            withAsterisk
            description={t`At least 6 characters. It is stored hashed and never shown again.`}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX}
            {...form.getInputProps('smart.password')}
          />
          {hasPassword && (
            <Group>
              <Button
                size="xs"
                variant="subtle"
                onClick={() => {
                  form.setFieldValue('smart.changePassword', false);
                  form.setFieldValue('smart.password', '');
                  form.clearFieldError('smart.password');
                }}
              >
                <Trans>Keep the current password</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

// UTM parameters (utm_source…): translators may keep the marketing words their language uses.
const utmLabels: Record<UtmKey, MessageDescriptor> = {
  source: msg({ message: 'Source', context: 'UTM parameter utm_source' }),
  medium: msg({ message: 'Medium', context: 'UTM parameter utm_medium' }),
  campaign: msg({ message: 'Campaign', context: 'UTM parameter utm_campaign' }),
  term: msg({ message: 'Term', context: 'UTM parameter utm_term' }),
  content: msg({ message: 'Content', context: 'UTM parameter utm_content' }),
};

const utmPlaceholders: Record<UtmKey, string> = {
  source: 'qr',
  medium: 'print',
  campaign: 'spring-sale',
  term: '',
  content: 'poster-a',
};

export function TrackingFields({ form, destination }: { form: Form; destination: string | null }) {
  const { t } = useLingui();
  const { utmOn, utm } = form.values.smart;
  const example =
    utmOn && destination
      ? withTracking(
          destination,
          {
            source: utm.source.trim() || 'qr',
            medium: utm.medium.trim() || undefined,
            campaign: utm.campaign.trim() || undefined,
            term: utm.term.trim() || undefined,
            content: utm.content.trim() || undefined,
          },
          false,
          '',
        )
      : null;
  return (
    <Stack gap="sm">
      <Switch label={t`Add UTM parameters`} {...form.getInputProps('smart.utmOn', { type: 'checkbox' })} />
      {utmOn && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            {utmKeys.map((key) => (
              <TextInput
                key={key}
                label={t(utmLabels[key])}
                placeholder={utmPlaceholders[key] || undefined}
                maxLength={UTM_VALUE_MAX}
                autoComplete="off"
                {...form.getInputProps(`smart.utm.${key}`)}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {example
              ? t`Scans go to ${example}`
              : t`Appended to every destination as utm_source=qr and the others you fill in.`}{' '}
            <Trans>A parameter the destination already has is kept as it is.</Trans>
          </Text>
        </>
      )}
      <Switch
        label={t`Forward the scan's query string`}
        description={t`A link such as …/r/abc?ref=poster passes ref=poster on to the destination; it never replaces a parameter the destination already has.`}
        {...form.getInputProps('smart.forwardQuery', { type: 'checkbox' })}
      />
    </Stack>
  );
}
