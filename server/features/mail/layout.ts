import { directionOf, isLocale, type Locale } from '../../../src/i18n/locales.js';
import type { MailMessage } from './mailer.js';
import { mailMessages, type MailText } from './messages/index.js';

/**
 * Every mail the product sends has this one layout: a plain-text part and an HTML part saying the same, a
 * greeting, paragraphs, at most one button, and a footer. Every value is escaped in the HTML part, and the
 * button may only lead to the instance's own address (PUBLIC_URL): a mail never links anywhere else.
 * Readable as the app is (WCAG 2.2 AA): a language, the name as its one heading, and colours of at least
 * 4.5:1 (the button's blue is 5.0:1 with white, the footer's grey 6.1:1 on white). Written in the
 * recipient's language (`locale`, messages/): its words, `lang` and `dir`.
 */
export interface MailContent {
  to: string;
  subject: string;
  /** 'Hello Ada,' — the name as the user wrote it. */
  greeting: string;
  paragraphs: readonly string[];
  action?: { label: string; url: string };
  /** After the button: why the mail came, what to do if it was not you. */
  footer?: string;
  from?: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Refuses a link that does not lead to this instance (a programming error, never user input). */
function ownLink(url: string, publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  if (url !== base && !url.startsWith(`${base}/`) && !url.startsWith(`${base}?`)) {
    throw new Error(`A mail may only link to ${base}`);
  }
  return url;
}

export function composeMail(content: MailContent, publicUrl: string, locale: Locale = 'en'): MailMessage {
  const words = mailMessages(locale).layout;
  const action = content.action
    ? { ...content.action, url: ownLink(content.action.url, publicUrl) }
    : undefined;
  const footer = content.footer ?? words.footer;
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '--',
    footer,
    publicUrl,
    '',
  ].join('\n');
  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1971c2;color:#ffffff;` +
      `padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600;display:inline-block">` +
      `${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#495057">${escapeHtml(words.openLink)} ${escapeHtml(action.url)}</p>`
    : '';
  const html =
    `<!doctype html><html lang="${locale}" dir="${directionOf(locale)}"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f8f9fa;font-family:Arial,Helvetica,sans-serif;color:#212529">` +
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">` +
    `<h1 style="margin:0 0 24px;font-size:18px;font-weight:700">QR Creator</h1>` +
    paragraph(content.greeting) +
    content.paragraphs.map(paragraph).join('') +
    button +
    `<hr style="border:none;border-top:1px solid #dee2e6;margin:24px 0">` +
    `<p style="margin:0;font-size:12px;color:#5c636a">${escapeHtml(footer)}<br>${escapeHtml(publicUrl)}</p>` +
    `</div></body></html>`;
  return {
    to: content.to,
    subject: content.subject,
    text,
    html,
    ...(content.from ? { from: content.from } : {}),
  };
}

/** 'Hello Ada,' (in the language) from the user's name, else their username. */
export function greetingFor(user: { name: string | null; username: string }, locale: Locale = 'en'): string {
  return mailMessages(locale).layout.greeting(user.name?.trim() || user.username);
}

/** What a recipient's language depends on: the one they chose, else their browser's. */
export interface LanguageOf {
  language?: string | null;
  browser_language?: string | null;
}

/** The language of a person's mails: the one they chose, else their browser's last, else English. */
export function mailLocaleOf(person: LanguageOf | null | undefined): Locale {
  if (isLocale(person?.language)) return person.language;
  if (isLocale(person?.browser_language)) return person.browser_language;
  return 'en';
}

/**
 * A mail of the catalogue (messages/) to one person, in their language: `words` picks the mail and
 * fills in its values; the greeting names them (or greets anyone, for an address with no account).
 */
export function composeMailFor(
  recipient: { to: string; locale: Locale; name: { name: string | null; username: string } | null },
  words: MailText,
  link: string | undefined,
  publicUrl: string,
): MailMessage {
  const { locale } = recipient;
  return composeMail(
    {
      to: recipient.to,
      subject: words.subject,
      greeting: recipient.name
        ? greetingFor(recipient.name, locale)
        : mailMessages(locale).layout.greetingAnyone,
      paragraphs: words.paragraphs,
      ...(words.action && link ? { action: { label: words.action, url: link } } : {}),
      ...(words.footer ? { footer: words.footer } : {}),
    },
    publicUrl,
    locale,
  );
}
