import {
  directionOf as localeDirection,
  negotiateLocale,
  type Locale,
} from '../../../../../src/i18n/locales.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import type { ScanMessages } from './messages.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { ptBR } from './pt-BR.js';
import { zhCN } from './zh-CN.js';

export type { ScanMessages } from './messages.js';

/**
 * The languages of the scan pages, by BCP 47 tag. A scanner's browser names its languages in
 * Accept-Language; the first of them we have wins, by its primary subtag (`de-AT` reads German,
 * `pt-PT` Brazilian Portuguese, `zh-TW` Simplified Chinese), else English.
 */
export const SCAN_LOCALES = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  it,
  nl,
  pl,
  ja,
  'zh-CN': zhCN,
  ar,
} satisfies Record<Locale, ScanMessages>;

export type ScanLocale = keyof typeof SCAN_LOCALES;

/** The scan pages' language for this Accept-Language header (English when none of ours is asked for). */
export function scanLocaleOf(acceptLanguage: string | null | undefined): ScanLocale {
  return negotiateLocale(acceptLanguage) ?? 'en';
}

export const directionOf = (locale: ScanLocale): 'rtl' | 'ltr' => localeDirection(locale);

export const scanMessages = (locale: ScanLocale = 'en'): ScanMessages => SCAN_LOCALES[locale];
