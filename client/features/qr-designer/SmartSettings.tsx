// The section's settings parts: schedule and limits, password, tracking.
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
  const { timeZone, fallbackUrl, fallbackWhenDown } = form.values.smart;
  const hasFallback = fallbackUrl.trim() !== '';
  return (
    <Stack gap="sm">
      <Switch
        label="Pause this code"
        description="Scans see a notice (or the fallback URL) until you turn this off; they are still counted."
        {...form.getInputProps('smart.paused', { type: 'checkbox' })}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <TextInput
          type="datetime-local"
          label="Active from"
          description={`In ${zoneName(timeZone)}; empty: from now`}
          {...form.getInputProps('smart.activeFrom')}
        />
        <TextInput
          type="datetime-local"
          label="Active until"
          description="Empty: no end"
          {...form.getInputProps('smart.activeUntil')}
        />
      </SimpleGrid>
      <NumberInput
        label="Maximum scans"
        description="After this many scans the code stops redirecting. Empty: no limit."
        placeholder="No limit"
        min={1}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=","
        {...form.getInputProps('smart.maxScans')}
      />
      <Textarea
        label="Message shown when inactive"
        description="On the page scans see while the code is paused, before or after its dates, or over its limit."
        autosize
        minRows={2}
        maxRows={5}
        maxLength={INACTIVE_MESSAGE_MAX}
        {...form.getInputProps('smart.inactiveMessage')}
      />
      <TextInput
        label="Fallback URL"
        description="Optional: send scans of an inactive code here instead of showing the notice."
        placeholder="https://example.com/campaign-over"
        {...urlInputProps(form, 'smart.fallbackUrl')}
      />
      <Checkbox
        label="Use the fallback URL while the destination is down"
        description="The destination is checked daily; after two failures in a row, scans go to the fallback URL until it answers again."
        disabled={!hasFallback}
        {...form.getInputProps('smart.fallbackWhenDown', { type: 'checkbox' })}
        // Without a fallback URL it is off (and not sent): the choice comes back with the URL.
        checked={hasFallback && fallbackWhenDown}
      />
      <Text size="xs" c="dimmed">
        The time zone is the one chosen under Rules.
      </Text>
    </Stack>
  );
}

export function PasswordFields({ form }: { form: Form }) {
  const { hasPassword, protect, changePassword } = form.values.smart;
  const typing = protect && (!hasPassword || changePassword);
  return (
    <Stack gap="sm">
      <Switch
        label="Protect with a password"
        description="People who scan enter it before they are sent on; a browser remembers a correct entry for a while."
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
          <Text size="sm">A password is set.</Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              onClick={() => form.setFieldValue('smart.changePassword', true)}
            >
              Change
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => form.setFieldValue('smart.protect', false)}
            >
              Remove
            </Button>
          </Group>
        </Group>
      )}
      {hasPassword && !protect && (
        <Text size="sm" c="dimmed">
          The password is removed when you save.
        </Text>
      )}
      {typing && (
        <Stack gap={4}>
          <PasswordInput
            label={hasPassword ? 'New password' : 'Password'}
            withAsterisk
            description="At least 6 characters. It is stored hashed and never shown again."
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
                Keep the current password
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

const utmLabels: Record<UtmKey, string> = {
  source: 'Source',
  medium: 'Medium',
  campaign: 'Campaign',
  term: 'Term',
  content: 'Content',
};

const utmPlaceholders: Record<UtmKey, string> = {
  source: 'qr',
  medium: 'print',
  campaign: 'spring-sale',
  term: '',
  content: 'poster-a',
};

export function TrackingFields({ form, destination }: { form: Form; destination: string | null }) {
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
      <Switch label="Add UTM parameters" {...form.getInputProps('smart.utmOn', { type: 'checkbox' })} />
      {utmOn && (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
            {utmKeys.map((key) => (
              <TextInput
                key={key}
                label={utmLabels[key]}
                placeholder={utmPlaceholders[key] || undefined}
                maxLength={UTM_VALUE_MAX}
                autoComplete="off"
                {...form.getInputProps(`smart.utm.${key}`)}
              />
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {example
              ? `Scans go to ${example}`
              : 'Appended to every destination as utm_source=qr and the others you fill in.'}{' '}
            A parameter the destination already has is kept as it is.
          </Text>
        </>
      )}
      <Switch
        label="Forward the scan's query string"
        description="A link such as …/r/abc?ref=poster passes ref=poster on to the destination; it never replaces a parameter the destination already has."
        {...form.getInputProps('smart.forwardQuery', { type: 'checkbox' })}
      />
    </Stack>
  );
}
