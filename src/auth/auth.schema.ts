import { z } from 'zod';

const bodyError = { error: 'Request body must be a JSON object' };

/** A string field whose every failure message names the field. */
/** A string field whose missing and wrong-type messages name it. */
export function text(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
  });
}

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 6;
/** Passwords are verified exactly as received; long passphrases are welcome. */
export const PASSWORD_MAX = 256;
export const NAME_MIN = 2;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** A new username (registration, an admin's create and edit). */
export const usernameField = text('Username')
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\s\u0000-\u001f\u007f]+$/, 'Username cannot contain spaces');

export const emailField = text('Email')
  .trim()
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email('Invalid email address'));

export const loginInput = z
  .object(
    {
      username: text('Username')
        .trim()
        .min(USERNAME_MIN, 'Username must be at least 3 characters')
        .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`),
      password: text('Password')
        .min(1, 'Password is required')
        .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    },
    bodyError,
  )
  .meta({ examples: [{ username: 'demo', password: 'demo123' }] });
export type LoginInput = z.infer<typeof loginInput>;

export const registerInput = z
  .object(
    {
      username: usernameField,
      password: text('Password')
        .min(PASSWORD_MIN, 'Password must be at least 6 characters')
        .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
      name: text('Name')
        .trim()
        .min(NAME_MIN, 'Name must be at least 2 characters')
        .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
      email: emailField,
    },
    bodyError,
  )
  .meta({
    examples: [
      { username: 'ada', password: 'a long passphrase', name: 'Ada Lovelace', email: 'ada@example.com' },
    ],
  });
export type RegisterInput = z.infer<typeof registerInput>;

export const emailLinkInput = z.object(
  {
    email: text('Email')
      .trim()
      .max(EMAIL_MAX, 'Please enter a valid email address')
      .pipe(z.email('Please enter a valid email address')),
  },
  bodyError,
);

export type EmailLinkInput = z.infer<typeof emailLinkInput>;

const token = text('Token').min(1, 'Token is required').max(200, 'Token is invalid');

export const tokenInput = z.object({ token }, bodyError);

export const newPasswordField = text('Password')
  .min(PASSWORD_MIN, 'Password must be at least 6 characters')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const resetPasswordInput = z.object({ token, password: newPasswordField }, bodyError);
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

/** The reset form: the password twice. */
export const resetPasswordForm = z
  .object({
    password: newPasswordField,
    confirmPassword: z.string().min(PASSWORD_MIN, 'Please confirm your password'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const subscriptionTiers = ['free', 'pro', 'premium'] as const;
export type SubscriptionTier = (typeof subscriptionTiers)[number];

/** The user as every API answers it: never the password hash, tokens or payment ids. */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  profilePicture: z.string().nullable(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  subscriptionTier: z.enum(subscriptionTiers),
  subscriptionStatus: z.string().nullable(),
  subscriptionEndDate: z.string().nullable(),
  hasUnlimitedAccess: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export type RegisterResult =
  { requiresVerification: false; user: User } | { requiresVerification: true; message: string };

/** The answer of a right password when the account has two-factor sign-in on: a code is still needed. */
export const twoFactorRequiredSchema = z.object({
  requiresTwoFactor: z.literal(true),
  message: z.string(),
});
export type TwoFactorRequired = z.infer<typeof twoFactorRequiredSchema>;

/** POST /api/register when the address must be verified first: no session, a message to read. */
export const verificationRequiredSchema = z.object({
  requiresVerification: z.literal(true),
  message: z.string(),
});

/** Public, unauthenticated facts the client needs before sign-in. */
export const publicConfigSchema = z.object({
  demoAccount: z.object({ username: z.string(), password: z.string() }).nullable(),
  freePlanLimit: z.number().int(),
  requireEmailVerification: z.boolean(),
  registrationOpen: z
    .boolean()
    .meta({ description: 'Whether the Register tab takes new accounts (an admin closes it from /admin).' }),
  payments: z
    .enum(['stripe', 'request'])
    .meta({ description: 'How /upgrade upgrades: Stripe Checkout, or a request an admin approves.' }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** Avatar initials: up to two words of the name, else two letters of the username, else '?'. */
export function initialsOf(user: { name?: string | null; username?: string } | null | undefined) {
  if (!user) return '?';
  const words = (user.name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((w) => Array.from(w)[0] ?? '')
      .join('')
      .toUpperCase();
  }
  const fromUsername = Array.from(user.username ?? '')
    .slice(0, 2)
    .join('')
    .toUpperCase();
  return fromUsername || '?';
}
