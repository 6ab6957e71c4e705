import type { Locale } from '../../../../src/i18n/locales.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import type { MailMessages } from './messages.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { ptBR } from './pt-BR.js';
import { zhCN } from './zh-CN.js';

export type { CheckedUrl, DestinationProblem, MailMessages, MailText } from './messages.js';
export { formatters, type Formatters } from './format.js';

/** The mails' words in every language (issue 37, item 3); a missing language or message is a compile error. */
export const MAIL_LOCALES: Record<Locale, MailMessages> = {
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
};

export const mailMessages = (locale: Locale): MailMessages => MAIL_LOCALES[locale];
