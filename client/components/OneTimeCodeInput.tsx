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
  /**
   * Called once with the code when the sixth digit arrives (typed, pasted or filled in by the phone), so
   * the form can submit by itself. Not called again for the same code: give the component a new `key`
   * after a refusal to start afresh (empty boxes, focus on the first).
   */
  onComplete?: (code: string) => void;
  /** While true (the code is being checked) the boxes keep the focus but take no input. */
  readOnly?: boolean;
}

export const CODE_LENGTH = 6;

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
  onComplete,
  readOnly,
}: OneTimeCodeInputProps) {
  const change = (next: string) => {
    onChange(next);
    // Mantine's own onComplete misses a whole code pasted into emptied boxes: compare with the last value.
    if (next !== value && next.length === CODE_LENGTH && /^\d+$/.test(next)) onComplete?.(next);
  };
  return (
    <Stack gap={4}>
      {label !== undefined && (
        <Text size="sm" fw={600} id={labelId}>
          {label}
        </Text>
      )}
      <PinInput
        length={CODE_LENGTH}
        type="number"
        oneTimeCode
        autoFocus={autoFocus}
        value={value}
        onChange={change}
        readOnly={readOnly}
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
