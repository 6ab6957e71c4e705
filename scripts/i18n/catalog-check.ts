// What `npm run i18n:check` and client/i18n/catalogs.test.ts hold the client's catalogs to (issue 37):
// every language has every message of the English catalog beside it, translated, with the same
// placeholders and tags, and the plural forms its grammar needs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES } from '../../src/i18n/locales.ts';

type Compiled = ReturnType<typeof compileMessage>;
interface Entry {
  message?: string;
  translation?: string;
  obsolete?: boolean;
  context?: string | null;
}

/** The client's catalog folders: client/locales, client/i18n/locales and each feature's locales. */
export function catalogDirs(clientRoot: string): string[] {
  const dirs = [path.join(clientRoot, 'locales'), path.join(clientRoot, 'i18n/locales')];
  for (const name of readdirSync(path.join(clientRoot, 'features')))
    dirs.push(path.join(clientRoot, 'features', name, 'locales'));
  return dirs.filter((dir) => existsSync(path.join(dir, 'en.po')));
}

export function readCatalog(file: string, locale: string): Record<string, Entry> {
  if (!existsSync(file)) return {};
  const catalog = formatter({ lineNumbers: false }).parse(readFileSync(file, 'utf8'), {
    locale,
    sourceLocale: 'en',
    filename: file,
  }) as Record<string, Entry>;
  return Object.fromEntries(Object.entries(catalog).filter(([, entry]) => !entry.obsolete));
}

/** The values (`{name}`) and numbered tags (`<0>`, `</0>`, `<1/>`) of a message, sorted. */
export function placeholdersOf(compiled: Compiled): string[] {
  const found = new Set<string>();
  // A compiled message is text, or a list of tokens: a text, or an argument `[name, type?, options?]` whose
  // options' values are token lists again.
  const tokens = (list: unknown): void => {
    for (const token of typeof list === 'string' ? [list] : Array.isArray(list) ? list : []) {
      if (typeof token === 'string') {
        for (const tag of token.matchAll(/<\/?\d+\s*\/?>/g)) found.add(tag[0].replace(/\s+/g, ''));
      } else if (Array.isArray(token) && typeof token[0] === 'string') {
        found.add(`{${token[0]}}`);
        const options = token[2] as Record<string, unknown> | undefined;
        if (options && typeof options === 'object') for (const value of Object.values(options)) tokens(value);
      }
    }
  };
  tokens(compiled);
  return [...found].sort();
}

/** Plural and ordinal choices whose forms are not the ones `locale`'s grammar has. */
export function pluralProblems(compiled: Compiled, locale: string): string[] {
  const problems: string[] = [];
  const tokens = (list: unknown): void => {
    for (const token of Array.isArray(list) ? list : []) {
      if (!Array.isArray(token)) continue;
      const [name, type, options] = token as [unknown, unknown, Record<string, unknown> | undefined];
      if (!options || typeof options !== 'object') continue;
      if (type === 'plural' || type === 'selectordinal') {
        const rules = new Intl.PluralRules(locale, { type: type === 'plural' ? 'cardinal' : 'ordinal' });
        const wanted = rules.resolvedOptions().pluralCategories as string[];
        const given = Object.keys(options).filter((key) => !/^\d+$/.test(key) && key !== 'offset');
        const missing = wanted.filter((category) => !given.includes(category));
        const unknown = given.filter((category) => !wanted.includes(category));
        if (missing.length)
          problems.push(`{${String(name)}} lacks the ${locale} form(s) ${missing.join(', ')}`);
        if (unknown.length)
          problems.push(`{${String(name)}} has form(s) ${unknown.join(', ')} that ${locale} does not use`);
      }
      for (const value of Object.values(options)) tokens(value);
    }
  };
  tokens(compiled);
  return problems;
}

export interface Problem {
  file: string;
  message: string;
  problem: string;
}

/** Every problem of the catalogs under `clientRoot`. */
export function checkCatalogs(clientRoot: string, locales: readonly string[] = LOCALES): Problem[] {
  const problems: Problem[] = [];
  for (const dir of catalogDirs(clientRoot)) {
    const english = readCatalog(path.join(dir, 'en.po'), 'en');
    for (const locale of locales) {
      if (locale === 'en') continue;
      const file = path.join(dir, `${locale}.po`);
      const relative = path.relative(path.dirname(clientRoot), file);
      const catalog = readCatalog(file, locale);
      let same = 0;
      let wordy = 0;
      for (const [id, source] of Object.entries(english)) {
        const text = source.message ?? source.translation ?? id;
        const translation = catalog[id]?.translation;
        if (!translation) {
          problems.push({ file: relative, message: text, problem: 'not translated' });
          continue;
        }
        let compiled: Compiled;
        try {
          compiled = compileMessage(translation);
        } catch (error) {
          problems.push({ file: relative, message: text, problem: `not valid ICU: ${String(error)}` });
          continue;
        }
        const expected = placeholdersOf(compileMessage(text)).join(' ');
        const actual = placeholdersOf(compiled).join(' ');
        if (expected !== actual)
          problems.push({
            file: relative,
            message: text,
            problem: `placeholders ${actual || 'none'}, not ${expected}`,
          });
        for (const problem of pluralProblems(compiled, locale))
          problems.push({ file: relative, message: text, problem });
        if (/[a-z]{2,} [a-z]{2,} [a-z]{2,}/i.test(text)) {
          wordy++;
          if (translation === text) same++;
        }
      }
      for (const id of Object.keys(catalog))
        if (!(id in english))
          problems.push({
            file: relative,
            message: catalog[id]!.message ?? id,
            problem: 'not in the English catalog',
          });
      if (wordy >= 5 && same / wordy > 0.2)
        problems.push({
          file: relative,
          message: '(the whole catalog)',
          problem: `${same} of ${wordy} sentences are left in English`,
        });
    }
  }
  // One message has one translation per language: the catalogs are merged into one per language when it
  // loads, so a second translation would show in both places or in neither, depending on the merge.
  for (const locale of locales) {
    if (locale === 'en') continue;
    const seen = new Map<string, { translation: string; file: string }>();
    for (const dir of catalogDirs(clientRoot)) {
      const file = path.relative(path.dirname(clientRoot), path.join(dir, `${locale}.po`));
      for (const [id, entry] of Object.entries(readCatalog(path.join(dir, `${locale}.po`), locale))) {
        if (!entry.translation) continue;
        const first = seen.get(id);
        if (!first) seen.set(id, { translation: entry.translation, file });
        else if (first.translation !== entry.translation)
          problems.push({
            file,
            message: entry.message ?? id,
            problem: `translated as ${JSON.stringify(entry.translation)}, but as ${JSON.stringify(first.translation)} in ${first.file}`,
          });
      }
    }
  }
  return problems;
}
