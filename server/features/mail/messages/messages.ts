import type { Locale } from '../../../../src/i18n/locales.js';
import type { DestinationProblem } from '../../../../src/qr/destination-check.js';

/**
 * Every mail QR Creator sends, as words in one language (issue 37, item 3): `en.ts` is the source, one
 * file per language beside it, `index.ts` the list. A mail is written in its recipient's language (the
 * one chosen in Settings, else the one their browser asked for when they last signed in, else English);
 * what a user typed (a code's name, a team's name, an admin's test message) stays as typed.
 *
 * A message with values is a function: put each value where the language wants it. Numbers, dates and
 * counted words come from `f` (format.ts), made for the language: `f.count(1234)` is "1,234" in English
 * and "1.234" in German; `f.plural(n, { one, other })` picks by the language's plural rules.
 */
export interface MailText {
  subject: string;
  /** Each a paragraph; a `\n` inside one is a line break. */
  paragraphs: string[];
  /** The button's label (the mail's one link). */
  action?: string;
  /** After the button: why the mail came, what to do if it was not you. */
  footer?: string;
}

/** Which of a code's URLs a destination check is about. */
export type CheckedUrl = { kind: 'destination' } | { kind: 'rule'; rule: number } | { kind: 'fallback' };

/** What a check found wrong with a destination. */
export type { DestinationProblem };

/** A team workspace role (the invitation says which). */
export type InvitedRole = 'viewer' | 'editor' | 'admin' | 'owner';

export interface MailMessages {
  locale: Locale;
  layout: {
    /** 'Hello Ada,': the name as the user wrote it. */
    greeting: (name: string) => string;
    /** To an address with no account, or to the admins. */
    greetingAnyone: string;
    /** Under the button, before its address written out. */
    openLink: string;
    /** The footer of a mail that gives none of its own. */
    footer: string;
  };

  /** To the owner (or a team's editors) when a destination failed twice in a row. */
  destinationDown(a: {
    codeName: string;
    /** A team's code: "the QR code", not "your QR code". */
    team: boolean;
    which: CheckedUrl;
    url: string;
    problem: DestinationProblem | null;
  }): MailText;

  /** A right password then too many wrong two-factor codes: the code step is locked. */
  twoFactorLocked(a: { username: string; failures: number; address: string; minutes: number }): MailText;

  /** The reset link (valid `hours`). */
  passwordReset(a: { username: string; hours: number }): MailText;

  /** The password was changed: by the user, with a reset link, or by an admin. */
  passwordChanged(a: {
    username: string;
    how: 'changed' | 'reset' | 'admin';
    sessions: number;
    tokens: number;
  }): MailText;

  /** The link confirming an address (valid `hours`). */
  verifyEmail(a: { hours: number }): MailText;

  /** A sign-in from a browser or address the account had not used. */
  newSignIn(a: {
    username: string;
    /** Already written in the language and the user's time zone (f.dateTime). */
    when: string;
    /** "Chrome", "Firefox"…, or null when unknown. */
    browser: string | null;
    /** "Windows", "iOS"…, or null when unknown. */
    os: string | null;
    address: string;
  }): MailText;

  /** Someone tried to register with an address that has an account. */
  registrationAttempt(): MailText;

  /** An invitation to a team workspace (valid `days`). */
  invitation(a: { inviter: string; workspace: string; role: InvitedRole; days: number }): MailText;

  /** To the old address: it was replaced; the link undoes it (valid `days`). */
  emailChanged(a: { username: string; newEmail: string; resetStillHere: boolean; days: number }): MailText;

  /** The footer of an admin's test message (its subject and text are the admin's own). */
  testMailFooter(a: { sender: string }): string;

  /** Yesterday's scans per code, the user's own first, then each team's. */
  scanDigest(a: {
    total: number;
    /** Already written in the language (f.day). */
    day: string;
    timeZone: string;
    sections: { team: string | null; codes: { name: string; scans: number }[] }[];
  }): MailText;

  /** A code passed 100, 1,000, 10,000… scans. */
  scanThreshold(a: { codeName: string; team: string | null; level: number; scans: number }): MailText;

  /** To the admins: a team's owner asks for a paid plan. */
  teamUpgradeRequest(a: { username: string; team: string; plan: string }): MailText;

  /** To the admins: a user asks for a paid plan. */
  upgradeRequest(a: { who: string; plan: string }): MailText;

  /** To the user: the request was approved, on the plan until `until` (already written, f.date). */
  upgradeApproved(a: { plan: string; until: string }): MailText;

  /** To the user: the request was declined. */
  upgradeDeclined(a: { plan: string }): MailText;

  /** To a workspace's admins: a webhook failed for `hours` and was disabled. */
  webhookDisabled(a: { url: string; hours: number }): MailText;
}
