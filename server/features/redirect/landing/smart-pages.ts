import type { InactiveReason } from '../../../../src/qr/smart-redirect.js';
import { attr, card, esc, link, renderPage, type PageOptions } from './html.js';
import { scanMessages, type ScanMessages } from './messages/index.js';

/**
 * The short link's own pages for smart redirects (smart-redirect.ts): a code that is paused, not started,
 * ended or over its scan limit, and the password form of a protected code. Same shell and escaping as the
 * landing pages; the owner's message is text (escaped, line breaks kept), never markup.
 */

/** A reason's words in the messages. */
const inactiveKey = {
  paused: 'paused',
  'not-started': 'notStarted',
  ended: 'ended',
  limit: 'limit',
} as const satisfies Record<InactiveReason, keyof ScanMessages['inactive']>;

/** A code that is not active (with the owner's message when there is one). */
export function renderInactivePage(
  reason: InactiveReason,
  message: string | null,
  options: PageOptions = {},
): string {
  const { inactive } = scanMessages(options.locale);
  const words = inactive[inactiveKey[reason]];
  return renderPage(
    {
      kicker: inactive.kicker,
      heading: words.heading,
      body: card(`<p class="t">${esc(message ?? words.text)}</p>`),
    },
    options,
  );
}

/**
 * The password form. It posts to `action` (the short link itself, with the scan's query) from this
 * origin; its referrer policy is same-origin so the post carries this origin (see PageOptions.referrer).
 */
export function renderPasswordPage(
  input: { action: string; error?: 'wrong' | 'missing' },
  options: PageOptions = {},
): string {
  const t = scanMessages(options.locale).password;
  const error = input.error
    ? `<p class="e" role="alert" id="pe">${esc(input.error === 'wrong' ? t.wrong : t.missing)}</p>`
    : '';
  return renderPage(
    {
      kicker: t.kicker,
      heading: t.heading,
      body: card(
        `<form method="post" action="${attr(input.action)}">${error}` +
          `<p class="s">${esc(t.intro)}</p>` +
          `<label for="pw">${esc(t.label)}</label>` +
          `<input class="i" id="pw" name="password" type="password" autocomplete="current-password" maxlength="1024" required autofocus${error ? ' aria-describedby="pe" aria-invalid="true"' : ''}>` +
          `<button class="b" type="submit">${esc(t.button)}</button></form>`,
      ),
    },
    { ...options, referrer: 'same-origin' },
  );
}

/** Too many wrong passwords from this address for this code: when to try again. */
export function renderPasswordThrottledPage(retryAfterSeconds: number, options: PageOptions = {}): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const t = scanMessages(options.locale).password;
  return renderPage(
    {
      kicker: t.kicker,
      heading: t.throttledHeading,
      body: card(`<p class="t">${esc(t.throttled(minutes))}</p>`),
    },
    options,
  );
}

/**
 * After the right password: a page that moves on to the short link at once. Not a redirect: the form's
 * `form-action 'self'` would also apply to the redirects that follow the post, and the destination is
 * elsewhere. The short link, now with the cookie, records the scan and redirects.
 */
export function renderOpeningPage(next: string, options: PageOptions = {}): string {
  const t = scanMessages(options.locale).password;
  return renderPage(
    {
      kicker: t.kicker,
      heading: t.opening,
      body: card(`<p class="t">${link(next, t.continue)}</p>`),
    },
    { ...options, refreshTo: next },
  );
}
