// The sign-in page's field checks without zod: zod and @mantine/form were 30 KB (brotli) of the login
// form's first load, a sixth of it. The rules and messages are src/auth/auth.schema.ts's (loginInput,
// registerInput, emailLinkInput), the first failing check of each field as the schema orders them;
// auth-form-rules.test.ts runs both on the same inputs so that a change there fails until made here too.
// The messages stay English here, as the schema's: the forms show them translated (auth-form-messages.ts).

/** A field's checks in order: the message of the first that fails, or null. */
type Check = (value: string) => string | null;

// The bounds of auth.schema.ts (USERNAME_MIN…): importing them from there would bring zod with them.
const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 256;
const NAME_MIN = 2;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** zod's `z.email()` pattern (zod/v4/core regexes.email). */
const EMAIL =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
// eslint-disable-next-line no-control-regex
const NO_SPACES = /^[^\s\u0000-\u001f\u007f]+$/;

const min = (n: number, message: string) => (v: string) => (v.length < n ? message : null);
const max = (n: number, message: string) => (v: string) => (v.length > n ? message : null);
const matches = (pattern: RegExp, message: string) => (v: string) => (pattern.test(v) ? null : message);

/** The checks of one field; `trim` as the schema's `.trim()`, before them. */
function field(checks: Check[], { trim = false } = {}): Check {
  return (raw) => {
    const value = trim ? raw.trim() : raw;
    for (const check of checks) {
      const message = check(value);
      if (message) return message;
    }
    return null;
  };
}

/** The e-mail field: its length first, and the address only once the length is right (the schema's pipe). */
const email = (tooLong: string, invalid: string) =>
  field([max(EMAIL_MAX, tooLong), matches(EMAIL, invalid)], { trim: true });

export type Rules<T> = { [K in keyof T]: Check };

export const loginRules: Rules<{ username: string; password: string }> = {
  username: field(
    [
      min(USERNAME_MIN, 'Username must be at least 3 characters'),
      max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`),
    ],
    { trim: true },
  ),
  password: field([
    min(1, 'Password is required'),
    max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  ]),
};

export const registerRules: Rules<{ username: string; password: string; name: string; email: string }> = {
  username: field(
    [
      min(USERNAME_MIN, 'Username must be at least 3 characters'),
      max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`),
      matches(NO_SPACES, 'Username cannot contain spaces'),
    ],
    { trim: true },
  ),
  password: field([
    min(PASSWORD_MIN, 'Password must be at least 6 characters'),
    max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  ]),
  name: field(
    [
      min(NAME_MIN, 'Name must be at least 2 characters'),
      max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
    ],
    { trim: true },
  ),
  email: email(`Email must be at most ${EMAIL_MAX} characters`, 'Invalid email address'),
};

export const emailLinkRules: Rules<{ email: string }> = {
  email: email('Please enter a valid email address', 'Please enter a valid email address'),
};

/** Each field's message, only for the fields that fail. */
export function check<T extends Record<string, string>>(
  rules: Rules<T>,
  values: T,
): Partial<Record<keyof T, string>> {
  const errors: Partial<Record<keyof T, string>> = {};
  for (const key of Object.keys(rules) as (keyof T)[]) {
    const message = rules[key](values[key] ?? '');
    if (message) errors[key] = message;
  }
  return errors;
}
