import { PinInput, Stack, Text } from '@mantine/core';

export interface OneTimeCodeInputProps {
  value: string;
  onChange: (value: string) => void;
  /** Shown under the boxes as an alert (and marks them invalid); null for none. */
  error: string | null;
  /** The id of the element that names the input (aria-labelledby). */
  labelId: string;
  /**
   * The visible label, drawn above the boxes with the id `labelId`. Leave it out when the naming element
   * is elsewhere on the page (it must then carry `labelId` itself).
   */
  label?: string;
  autoFocus?: boolean;
}

/**
 * The 6-digit code of an authenticator app, one box a digit: numeric keyboard, `autocomplete="one-time-code"`
 * (so the phone offers a code it received), and the error underneath. Used by the sign-in's second step and
 * by turning two-factor authentication on.
 */
export function OneTimeCodeInput({
  value,
  onChange,
  error,
  labelId,
  label,
  autoFocus,
}: OneTimeCodeInputProps) {
  return (
    <Stack gap={4}>
      {label !== undefined && (
        <Text size="sm" fw={600} id={labelId}>
          {label}
        </Text>
      )}
      <PinInput
        length={6}
        type="number"
        oneTimeCode
        autoFocus={autoFocus}
        value={value}
        onChange={onChange}
        aria-labelledby={labelId}
        error={Boolean(error)}
      />
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
