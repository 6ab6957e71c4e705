import { percentEncode } from '../../../../src/qr/text.js';
import { directionOf, scanMessages, type ScanLocale } from './messages/index.js';

/**
 * The landing pages' HTML shell and its building blocks: escaping, links and buttons, cards and description
 * lists, the inline CSS and the document around a page's body. Every value that comes from the user goes
 * through `esc` (text) or `attr` (a double-quoted attribute).
 */

export interface PageOptions {
  /**
   * The CSP nonce of this response (base64 / base64url). Put on the inline `<style>` and on the Wi-Fi page's
   * script, so a policy such as `script-src 'nonce-…'; style-src 'nonce-…'` allows exactly those.
   * Without one the tags carry no nonce (fine when the response sends no CSP).
   */
  nonce?: string;
  /**
   * The page's referrer policy (default no-referrer, so a destination never learns the short link). A page
   * with a form posting to this server says same-origin: with no-referrer the browser would send the post
   * with `Origin: null`, which the server's cross-origin check refuses.
   */
  referrer?: 'no-referrer' | 'same-origin';
  /** A same-site path the page moves on to at once (`<meta http-equiv="refresh">`). */
  refreshTo?: string;
  /** The scanner's language (scanLocaleOf their Accept-Language): the page's words, `lang` and `dir`. English by default. */
  locale?: ScanLocale;
}

/** What a type's renderer gives the shell. */
export interface Body {
  kicker: string;
  /** The page's heading and title, from the content. */
  heading: string;
  body: string;
  script?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Escaping and hrefs

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Text content: `& < > " ' \` =` as character references (`=` too, so no `onerror=` survives even as text). */
export function esc(value: string): string {
  return value.replace(/[&<>"'`=]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/** A value inside a double-quoted attribute (hrefs keep their `=` readable). */
export function attr(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

export function link(href: string, text: string, external = false): string {
  return `<a href="${attr(href)}"${external ? ' rel="noopener nofollow ugc"' : ''}>${esc(text)}</a>`;
}

export function button(href: string, text: string, secondary = false): string {
  return `<a class="b${secondary ? ' b2' : ''}" href="${attr(href)}">${esc(text)}</a>`;
}

/** `/r/<slug>/<file>`, the slug percent-encoded. */
export function ownPath(slug: string, file: string): string {
  return `/r/${percentEncode(slug)}/${file}`;
}

// ---------------------------------------------------------------------------------------------------------
// Blocks

/** `<dt>/<dd>` pairs of the non-empty values; `html` values are already markup. */
export function details(rows: [string, string, 'text' | 'multiline' | 'html'][]): string {
  const items = rows
    .filter(([, value]) => value.trim() !== '')
    .map(([dt, value, kind]) => {
      const dd =
        kind === 'html' ? value : kind === 'multiline' ? `<span class="t">${esc(value)}</span>` : esc(value);
      return `<dt>${esc(dt)}</dt><dd>${dd}</dd>`;
    });
  return items.length > 0 ? `<dl>${items.join('')}</dl>` : '';
}

export const card = (inner: string) => `<div class="c">${inner}</div>`;

/** A card only when there is something in it. */
export const cardOf = (inner: string) => (inner === '' ? '' : card(inner));

// ---------------------------------------------------------------------------------------------------------
// Page shell

const CSS =
  ':root{color-scheme:light dark;--bg:#f3f4f6;--fg:#16181d;--mu:#5c6270;--cd:#fff;--bd:#dde1e6;--ac:#1864ab;--af:#fff}' +
  '@media(prefers-color-scheme:dark){:root{--bg:#121316;--fg:#e8eaed;--mu:#a0a6b1;--cd:#1d1f24;--bd:#343841;--ac:#74b9f7;--af:#0b1726}}' +
  '*{box-sizing:border-box}[hidden]{display:none!important}' +
  'body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}' +
  'main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem 1rem}' +
  '.k{margin:0;color:var(--mu);font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em}' +
  'h1{margin:.2rem 0 1rem;font-size:1.5rem;line-height:1.25}h2{margin:0 0 .5rem;font-size:1.2rem;line-height:1.3}' +
  'h1,h2,dd,.t{overflow-wrap:anywhere}h1,dd,.t,.p{unicode-bidi:plaintext}' +
  '.c{background:var(--cd);border:1px solid var(--bd);border-radius:12px;padding:1rem}' +
  'dl{margin:0}dt{color:var(--mu);font-size:.85rem}dd{margin:0 0 .75rem}dd:last-child{margin:0}' +
  '.t{margin:0;white-space:pre-wrap}.s{margin:-.25rem 0 .75rem;color:var(--mu)}' +
  '.p{font:1.1rem/1.4 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap}' +
  'a{color:var(--ac)}' +
  '.b{display:flex;align-items:center;justify-content:center;width:100%;min-height:3rem;margin-top:.75rem;padding:.7rem 1rem;' +
  'border:1px solid var(--ac);border-radius:10px;background:var(--ac);color:var(--af);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}' +
  '.b2{background:none;color:var(--ac)}' +
  '.h{margin-top:1.25rem}.h h2{font-size:1rem}.h ol{margin:0;padding-inline-start:1.25rem}' +
  'label{display:block;margin-bottom:.35rem;font-weight:600}' +
  '.i{display:block;width:100%;min-height:3rem;padding:.6rem .75rem;border:1px solid var(--bd);border-radius:10px;background:var(--bg);color:var(--fg);font:inherit}' +
  '.i:focus{outline:2px solid var(--ac);outline-offset:1px}.e{margin:0 0 .75rem;color:#c92a2a;font-weight:600}' +
  '@media(prefers-color-scheme:dark){.e{color:#ff8787}}' +
  'footer{padding:1.5rem 1rem;text-align:center;color:var(--mu);font-size:.8rem}';

const NONCE = /^[A-Za-z0-9+/_-]+={0,2}$/;

function nonceAttr(options: PageOptions): string {
  if (options.nonce === undefined) return '';
  if (!NONCE.test(options.nonce)) throw new TypeError('The CSP nonce must be base64 or base64url');
  return ` nonce="${attr(options.nonce)}"`;
}

/**
 * The whole document: a small HTML5 page (inline CSS, light and dark, noindex, no referrer) titled and headed
 * with `body.heading`, in the scanner's language (`lang`, and `dir` for right-to-left; the user's own text
 * takes its direction from its first letters, so a Latin network name reads well on an Arabic page). Throws a TypeError for a malformed `options.nonce`.
 */
export function renderPage(page: Body, options: PageOptions): string {
  const nonce = nonceAttr(options);
  const locale = options.locale ?? 'en';
  return (
    `<!doctype html><html lang="${locale}" dir="${directionOf(locale)}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="robots" content="noindex"><meta name="referrer" content="${options.referrer ?? 'no-referrer'}">` +
    (options.refreshTo ? `<meta http-equiv="refresh" content="0;url=${attr(options.refreshTo)}">` : '') +
    '<meta name="color-scheme" content="light dark">' +
    `<title>${esc(page.heading)}</title><style${nonce}>${CSS}</style></head><body><main>` +
    (page.kicker ? `<p class="k">${esc(page.kicker)}</p>` : '') +
    `<h1>${esc(page.heading)}</h1>${page.body}</main><footer>${esc(scanMessages(locale).madeWith)}</footer>` +
    (page.script ? `<script${nonce}>${page.script}</script>` : '') +
    '</body></html>'
  );
}
