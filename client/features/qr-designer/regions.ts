// Country and language choices for the rules editor and the scan tester, named by the browser's own
// Intl.DisplayNames in the app's language (no data dependency). The lists are fixed so every browser offers
// the same codes.
import { i18n } from '@lingui/core';

/** ISO 3166-1 alpha-2, current codes, plus XK (Kosovo), which geolocation databases use. */
export const countryCodes: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV ' +
  'BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ' +
  'ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE ' +
  'IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
  'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU ' +
  'NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
  'SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE ' +
  'VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

/** ISO 639-1 codes, plus a few three-letter ones browsers send (Filipino, Cantonese). */
export const languageCodes: readonly string[] = (
  'aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv ' +
  'dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ' +
  'ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh ' +
  'mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru ' +
  'rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tn to tr ts tt tw ty ug uk ' +
  'ur uz ve vi vo wa wo xh yi yo za zh zu fil yue'
).split(' ');

/** The language the names are written in: the app's (Lingui's active locale), else English. */
export function namesLocale(): string {
  return i18n.locale || 'en';
}

function displayNames(type: 'region' | 'language', locale: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([locale], { type, fallback: 'code' });
  } catch {
    return null; // a browser without DisplayNames (or this locale): the codes alone
  }
}

// One set of names per language the app has shown them in.
const regionNames = new Map<string, Intl.DisplayNames | null>();
const languageNames = new Map<string, Intl.DisplayNames | null>();

function namesOf(
  cache: Map<string, Intl.DisplayNames | null>,
  type: 'region' | 'language',
  locale: string,
): Intl.DisplayNames | null {
  if (!cache.has(locale)) cache.set(locale, displayNames(type, locale));
  return cache.get(locale) ?? null;
}

function countryNameIn(code: string, locale: string): string {
  return namesOf(regionNames, 'region', locale)?.of(code.toUpperCase()) ?? code.toUpperCase();
}

function languageNameIn(code: string, locale: string): string {
  try {
    return namesOf(languageNames, 'language', locale)?.of(code.toLowerCase()) ?? code;
  } catch {
    return code;
  }
}

/** 'FR' → 'France' (in the app's language); an unknown code is itself. One argument: fine for map(). */
export function countryName(code: string): string {
  return countryNameIn(code, namesLocale());
}

/** 'fr' → 'French' (in the app's language); an unknown code is itself. One argument: fine for map(). */
export function languageName(code: string): string {
  return languageNameIn(code, namesLocale());
}

export interface Choice {
  value: string;
  label: string;
}

const byLabel = (locale: string) => (a: Choice, b: Choice) => a.label.localeCompare(b.label, locale);

const countries = new Map<string, Choice[]>();
const languages = new Map<string, Choice[]>();

/** Every country, by name: { value: 'FR', label: 'France (FR)' }. */
export function countryChoices(locale = namesLocale()): Choice[] {
  let list = countries.get(locale);
  if (!list) {
    list = countryCodes
      .map((c) => ({ value: c, label: `${countryNameIn(c, locale)} (${c})` }))
      .sort(byLabel(locale));
    countries.set(locale, list);
  }
  return list;
}

/** Every language, by name: { value: 'fr', label: 'French (fr)' }. */
export function languageChoices(locale = namesLocale()): Choice[] {
  let list = languages.get(locale);
  if (!list) {
    list = languageCodes
      .map((c) => ({ value: c, label: `${languageNameIn(c, locale)} (${c})` }))
      .sort(byLabel(locale));
    languages.set(locale, list);
  }
  return list;
}
