import { LOCALES } from '../i18n/locales.js';
import { z } from 'zod';
import { canonicalTimeZone } from '../qr/dates.js';
import { EMAIL_MAX, NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN, userSchema } from './auth.schema.js';

// The signed-in user's own account: profile, password, preferences, sessions, and the admin's mail tools.

const bodyError = { error: 'Request body must be a JSON object' };

function text(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
  });
}

/** PUT /api/user/profile: name and e-mail (anything else sent is ignored). */
export const updateProfileInput = z.object(
  {
    name: text('Name')
      .trim()
      .min(NAME_MIN, 'Name must be at least 2 characters')
      .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
    email: text('Email')
      .trim()
      .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
      .pipe(z.email('Invalid email address')),
    /** Needed to change a verified address (a wrong one counts as a failed sign-in). */
    currentPassword: text('Current password')
      .max(PASSWORD_MAX, `Current password must be at most ${PASSWORD_MAX} characters`)
      .optional(),
  },
  bodyError,
);
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

/** PUT /api/user/password. A wrong current password is a 400 on `currentPassword`, never a 401. */
export const changePasswordInput = z.object(
  {
    currentPassword: text('Current password')
      .min(1, 'Current password is required')
      .max(PASSWORD_MAX, `Current password must be at most ${PASSWORD_MAX} characters`),
    newPassword: text('New password')
      .min(PASSWORD_MIN, 'Password must be at least 6 characters')
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
  },
  bodyError,
);
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const accountMessages = {
  wrongCurrentPassword: 'Current password is incorrect',
  passwordForEmail: 'Enter your current password to change a verified e-mail address',
  passwordChanged: 'Password changed',
  profileUpdated: 'Profile updated',
  emailTaken: 'Email address is already registered',
  sessionNotFound: 'Session not found',
  emailTestFields: 'Please provide recipient email, subject, and message.',
  pictureType: 'Please upload a JPEG, PNG, or SVG image.',
  pictureSize: 'Please upload an image smaller than 5MB.',
} as const;

/** The settings form's rules (the settings page): current password required, new twice and alike. */
export const settingsPasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: z.string().min(PASSWORD_MIN, 'Password must be at least 6 characters'),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

/** The profile page's password form: its own wording. */
export const profilePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: z.string().min(PASSWORD_MIN, 'Password must be at least 6 characters long.'),
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'New passwords do not match.',
    path: ['confirmPassword'],
  });

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];

/** Stored per user on the server, so they follow the user to every browser. */
export const preferencesSchema = z.object({
  theme: z.enum(themes, { error: 'theme must be light, dark or system' }),
  /** Notifications: product news. */
  productUpdates: z.boolean({ error: 'productUpdates must be true or false' }),
  /** Notifications: a daily digest of yesterday's scans per code. */
  scanDigest: z.boolean({ error: 'scanDigest must be true or false' }),
  /** Notifications: a mail when a code passes 100, 1,000, 10,000… scans. */
  scanThresholds: z.boolean({ error: 'scanThresholds must be true or false' }),
  /** Security: a mail on a sign-in from a browser or address not seen before. */
  loginAlerts: z.boolean({ error: 'loginAlerts must be true or false' }),
  /**
   * The language of the user's mails (a tag of src/i18n/locales.ts), or null: the language of the browser
   * they last signed in with, else English.
   */
  language: z
    .enum(LOCALES, { error: `language must be one of ${LOCALES.join(', ')}, or null for the browser's` })
    .nullable(),
  /** The IANA zone the user's days are counted in (the digest covers their yesterday). */
  timeZone: z
    .string({ error: 'timeZone must be an IANA time zone such as Europe/Berlin' })
    .max(64, 'timeZone must be an IANA time zone such as Europe/Berlin')
    .transform((value, ctx) => {
      const zone = canonicalTimeZone(value);
      if (zone === null) {
        ctx.addIssue({ code: 'custom', message: 'timeZone must be an IANA time zone such as Europe/Berlin' });
        return z.NEVER;
      }
      return zone;
    }),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  theme: 'system',
  productUpdates: false,
  scanDigest: false,
  scanThresholds: false,
  loginAlerts: false,
  language: null,
  timeZone: 'UTC',
};

/** PUT /api/user/preferences: any of the preferences; the others stay. */
export const updatePreferencesInput = preferencesSchema.partial();

/** One signed-in browser of the user. */
export const activeSessionSchema = z.object({
  id: z.string().meta({ description: "Not the session's secret: an id that names it for Sign out." }),
  browser: z.string().meta({ description: "'Chrome 131', 'Firefox', or 'Unknown browser'." }),
  os: z.string().meta({ description: "'Windows 10', 'iOS 18', or 'Unknown OS'." }),
  ip: z.string().meta({ description: "The address, masked ('203.0.*.*'), or 'Unknown'." }),
  createdAt: z.string().meta({ format: 'date-time' }),
  lastSeenAt: z.string().meta({ format: 'date-time' }),
  current: z.boolean().meta({ description: 'The browser making this call.' }),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const sessionIdInput = z.object(
  { id: text('Session').min(1, 'Session is required').max(64, 'Session not found') },
  bodyError,
);

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** POST /api/email/test (admins): recipient, subject and message are required together, with one message. */
export const emailTestInput = z
  .custom<Record<string, unknown>>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      filled((value as Record<string, unknown>).to) &&
      filled((value as Record<string, unknown>).subject) &&
      filled((value as Record<string, unknown>).message),
    accountMessages.emailTestFields,
  )
  .pipe(
    z.object({
      to: z.string().trim().max(EMAIL_MAX, 'Invalid email address').pipe(z.email('Invalid email address')),
      subject: z.string().trim().max(200, 'Subject must be at most 200 characters'),
      message: z.string().trim().max(10_000, 'Message must be at most 10000 characters'),
      /** Optional sender; the server's MAIL_FROM when absent. */
      from: z
        .string({ error: 'from must be text' })
        .trim()
        .max(EMAIL_MAX, 'Invalid sender address')
        .optional(),
    }),
  );
export type EmailTestInput = z.infer<typeof emailTestInput>;

/** What the mail tools answer. A refused sender also carries the addresses to verify. */
export const mailCheckResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  senderRejected: z
    .boolean()
    .optional()
    .meta({ description: 'The mail server refused the sender: show the sender-verification help.' }),
  senders: z
    .array(z.string())
    .optional()
    .meta({ description: 'The verified senders to set up: MAIL_FROM (no-reply) and MAIL_SUPPORT.' }),
});
export type MailCheckResult = z.infer<typeof mailCheckResultSchema>;

// Two-factor sign-in (TOTP, RFC 6238: 6 digits, 30 seconds) with single-use recovery codes.

export const twoFactorMessages = {
  invalidCode: 'Invalid authentication code',
  wrongPassword: 'Password is incorrect',
  notPending: 'Your sign-in has expired. Please log in again.',
  alreadyOn: 'Two-factor authentication is already on',
  notStarted: 'Start again: no two-factor set-up is waiting for a code',
  notOn: 'Two-factor authentication is not on',
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
} as const;

const authCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .max(20, twoFactorMessages.invalidCode);

export const twoFactorCodeInput = z.object({ code: authCode }, bodyError);
export const twoFactorPasswordInput = z.object(
  { password: text('Password').min(1, 'Password is required').max(PASSWORD_MAX, 'Password is incorrect') },
  bodyError,
);
export const twoFactorDisableInput = z.object(
  {
    password: text('Password').min(1, 'Password is required').max(PASSWORD_MAX, 'Password is incorrect'),
    code: authCode,
  },
  bodyError,
);

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** What enrolment shows: the secret for the authenticator app, as a QR code (the URL) and as text. */
export const twoFactorEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string().meta({ format: 'uri' }),
});
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;
export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).meta({ description: 'Ten codes, shown this once.' }),
});

/** POST /api/upload/profile-picture: the stored picture's URL and the user wearing it. */
export const profilePictureAnswer = z.object({ url: z.string(), user: userSchema });
/** POST /api/user/sessions/sign-out-others: optionally every API token goes too. */
export const signOutOthersInput = z
  .object(
    {
      revokeTokens: z
        .boolean({ error: 'revokeTokens must be true or false' })
        .optional()
        .meta({ description: 'Also revoke every API token of the account.' }),
    },
    bodyError,
  )
  .optional();
export type SignOutOthersInput = z.infer<typeof signOutOthersInput>;

export const signedOutOthersAnswer = z.object({
  success: z.boolean(),
  count: z.number().int().meta({ description: 'How many sessions were signed out.' }),
  tokensRevoked: z.number().int().meta({ description: 'How many API tokens were revoked.' }),
});

/** The preferences as the server answers them (the time zone already checked). */
export const preferencesAnswer = preferencesSchema.extend({ timeZone: z.string() });
