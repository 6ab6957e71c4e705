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
  email: z.string().nullable().meta({ format: 'email' }),
  profilePicture: z.string().nullable(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  subscriptionTier: z.enum(subscriptionTiers),
  subscriptionStatus: z.string().nullable(),
  subscriptionEndDate: z.string().nullable().meta({ format: 'date-time' }),
  hasUnlimitedAccess: z.boolean(),
  createdAt: z.string().meta({ format: 'date-time' }),
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

/**
 * A company account (OIDC, LDAP) whose address is an existing local account's: no session yet; the person
 * proves that account's password once at /auth/link (the browser holds the request in a cookie).
 */
export const linkRequiredSchema = z.object({
  linkRequired: z.literal(true),
  message: z.string(),
});
export type LinkRequired = z.infer<typeof linkRequiredSchema>;

/** GET /api/auth/sso/link: the pending link request of this browser. */
export const ssoLinkSchema = z.object({
  email: z.string().meta({ format: 'email' }),
  username: z.string().meta({ description: 'The existing local account.' }),
  provider: z.string().meta({ description: 'The company sign-in, as its button names it.' }),
});
export type SsoLink = z.infer<typeof ssoLinkSchema>;

/** POST /api/auth/sso/link: the existing account's password. */
export const ssoLinkInput = z.object({
  password: z.string().min(1, 'Password is required').max(256, 'Password must be at most 256 characters'),
});

/** POST /api/logout: where the browser goes next when the sign-in provider should sign out too. */
export const logoutAnswerSchema = z.object({
  message: z.string(),
  logoutUrl: z.string().optional().meta({
    format: 'uri',
    description: "The company sign-in's own sign-out page (OIDC end-session, the proxy's logout).",
  }),
});

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
  sso: z
    .object({
      /** "Sign in with <name>": each opens GET /api/auth/oidc/<id>/start. */
      providers: z.array(z.object({ id: z.string(), name: z.string() })),
      /** The login form's username and password are checked with this directory (its name), if any. */
      ldap: z.string().nullable(),
      /** false in SSO-only mode: the password form is for the break-glass admin alone, no Register tab. */
      passwordSignIn: z.boolean(),
      /** A trusted sign-in proxy signs people in (its person may land on /auth with a link pending). */
      proxy: z.boolean(),
    })
    .meta({ description: 'Sign-in with company accounts (SSO_CONFIG).' }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
