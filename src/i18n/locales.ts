// The languages QR Creator speaks (issue 37), and how one is picked for a reader. Without zod or any other
// library: the scan pages, the mails and the app's frame all use it.

/** Every language, by BCP 47 tag, English first (the source of every text). */
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'ja', 'zh-CN', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language's name in itself, for a language picker. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
};

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * The primary language subtags of an Accept-Language header, most wanted first (by `q`, then order),
 * each once; `*` and malformed ranges left out. At most 50 ranges of the first 1,000 characters are read.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; order: number }[] = [];
  const parts = header.slice(0, 1000).split(',');
  for (let i = 0; i < parts.length && i < 50; i++) {
    const [range = '', ...params] = parts[i]!.split(';');
    const tag = range.trim().toLowerCase().split('-')[0]!;
    if (!/^[a-z]{2,3}$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > 0)) continue;
    entries.push({ tag, q, order: i });
  }
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return [...new Set(entries.map((e) => e.tag))];
}

const byPrimary = new Map<string, Locale>(LOCALES.map((tag) => [tag.split('-')[0]!, tag]));

/**
 * The first language of an Accept-Language header that we have, by its primary subtag (`de-AT` reads
 * German, `pt-PT` Brazilian Portuguese, `zh-TW` Simplified Chinese), else null.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  for (const primary of acceptedLanguages(acceptLanguage)) {
    const locale = byPrimary.get(primary);
    if (locale) return locale;
  }
  return null;
}

/** Written right to left. */
export const directionOf = (locale: Locale): 'rtl' | 'ltr' => (locale === 'ar' ? 'rtl' : 'ltr');
