// The language of the app's screens (issue 37): the one the user chose (Settings → Appearance, kept on the
// server and in this browser), else the browser's first language we have, else English. English is in the
// code itself; another language's messages load when it is chosen (scripts/build/lingui.ts).
import { i18n, type Messages } from '@lingui/core';
import { directionOf, isLocale, negotiateLocale, type Locale } from '../../src/i18n/locales';
import { loadSharedMessages } from './shared-messages';

/** localStorage key: the language chosen in Settings, so a reload paints in it before the server answers. */
export const LANGUAGE_KEY = 'qr-creator:language';

const catalogs: Record<Exclude<Locale, 'en'>, () => Promise<{ messages: Messages }>> = {
  de: () => import('virtual:lingui-messages/de'),
  fr: () => import('virtual:lingui-messages/fr'),
  es: () => import('virtual:lingui-messages/es'),
  'pt-BR': () => import('virtual:lingui-messages/pt-BR'),
  it: () => import('virtual:lingui-messages/it'),
  nl: () => import('virtual:lingui-messages/nl'),
  pl: () => import('virtual:lingui-messages/pl'),
  ja: () => import('virtual:lingui-messages/ja'),
  'zh-CN': () => import('virtual:lingui-messages/zh-CN'),
  ar: () => import('virtual:lingui-messages/ar'),
};

/** The language chosen in this browser, or null for the browser's own. */
export function storedLanguage(): Locale | null {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLanguage(language: Locale | null): void {
  try {
    if (language) localStorage.setItem(LANGUAGE_KEY, language);
    else localStorage.removeItem(LANGUAGE_KEY);
  } catch {
    // Storage refused: the server still has the choice, applied once the app has it.
  }
}

/** The browser's first language we have, else English. */
export function browserLanguage(): Locale {
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return negotiateLocale(wanted.join(',')) ?? 'en';
}

/** The language the app starts in. */
export const initialLanguage = (): Locale => storedLanguage() ?? browserLanguage();

/** Loads (once) and switches to `locale`; the page's `lang` and `dir` follow. */
export async function activateLanguage(locale: Locale): Promise<void> {
  if (locale !== i18n.locale) {
    // Another language: its catalogs, and the shared messages (src/'s checks, the server's errors) to match.
    const messages =
      locale === 'en' ? {} : (await Promise.all([catalogs[locale](), loadSharedMessages()]))[0].messages;
    i18n.loadAndActivate({ locale, messages });
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = locale;
    document.documentElement.dir = directionOf(locale);
  }
}

/** The active language (English until one is activated). */
export const currentLanguage = (): Locale => (isLocale(i18n.locale) ? i18n.locale : 'en');

// English is there from the start: a message drawn before anything is activated reads English.
i18n.loadAndActivate({ locale: 'en', messages: {} });

export { i18n };
