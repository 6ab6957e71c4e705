// `translateShared`: the words the client shows but does not write — src/'s checks, the server's errors —
// in the active language (shared-message-list.ts). The list carries the English of ~440 messages to match
// against (about 11 KB gzip): it loads with a language other than English (i18n.ts), never for English,
// which shows those texts as they come.
import { i18n } from '@lingui/core';

let translate: ((text: string) => string) | null = null;

/** Loads the list of shared messages (once): done by activateLanguage with any language but English. */
export async function loadSharedMessages(): Promise<void> {
  translate ??= (await import('./shared-message-list')).translateShared;
}

/**
 * `text` in the active language when it is one of the shared messages (src/'s checks, the server's
 * errors), else `text` unchanged. English active: always unchanged.
 */
export function translateShared(text: string): string {
  return translate && i18n.locale !== 'en' ? translate(text) : text;
}
