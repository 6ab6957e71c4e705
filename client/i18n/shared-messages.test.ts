// The words of src/'s checks and of the server's errors in the user's language (issue 37): translateShared
// finds them in any language's catalog, leaves other texts alone, and its list is the code's own words.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { i18n, type MessageDescriptor } from '@lingui/core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFiles, compiledCatalog } from '../../scripts/build/lingui';
import { LOCALES } from '../../src/i18n/locales';
import { sharedMessages, translateShared } from './shared-message-list';

const root = path.resolve(import.meta.dirname, '../..');
const clientRoot = path.join(root, 'client');

type Token = string | [string, string?, Record<string, unknown>?];
const tokensOf = (d: MessageDescriptor) =>
  Array.isArray(d.message) ? (d.message as Token[]) : [String(d.message)];

/** The placeholders of a message, with the kind of value each takes. */
function placeholders(tokens: Token[], found = new Map<string, 'nested' | 'value'>()) {
  for (const token of tokens) {
    if (typeof token === 'string') continue;
    found.set(token[0], token[0] === 'label' || token[0] === 'problem' ? 'nested' : 'value');
    for (const value of Object.values(token[2] ?? {}))
      if (Array.isArray(value)) placeholders(value as Token[], found);
  }
  return found;
}

/** Values to write a message with: numbers, and for a nested placeholder an English message of the list. */
function sampleValues(d: MessageDescriptor, count: number, nested: (name: string) => string) {
  const values: Record<string, unknown> = {};
  for (const [name, kind] of placeholders(tokensOf(d)))
    values[name] = kind === 'nested' ? nested(name) : count;
  return values;
}

const german = () => compiledCatalog(catalogFiles(clientRoot, 'de'), 'de');
const english = (d: MessageDescriptor, values?: Record<string, unknown>) => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  return i18n._(d.id, values, { message: d.message });
};

describe('translateShared', () => {
  beforeAll(() => i18n.loadAndActivate({ locale: 'de', messages: german() }));
  // The worker's other files share this i18n (vitest isolate off): they start in English.
  afterAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
  const inGerman = () => i18n.loadAndActivate({ locale: 'de', messages: german() });

  it("translates src/'s checks, with their numbers, and the server's errors", () => {
    inGerman();
    expect(translateShared("Passwords don't match")).toBe('Die Passwörter stimmen nicht überein');
    expect(translateShared('Username must be at least 3 characters')).toBe(
      'Der Benutzername muss mindestens 3 Zeichen lang sein',
    );
    expect(translateShared('Too many failed login attempts. Please try again in 1 minute.')).toBe(
      'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in 1 Minute erneut.',
    );
    expect(translateShared('Too many failed login attempts. Please try again in 12 minutes.')).toBe(
      'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuchen Sie es in 12 Minuten erneut.',
    );
    expect(
      translateShared(
        'QR code limit reached. Your plan allows 3 QR codes: upgrade to Pro to create up to 100.',
      ),
    ).toBe(
      'QR-Code-Limit erreicht. Ihr Tarif erlaubt 3 QR-Codes: Wechseln Sie zu Pro, um bis zu 100 zu erstellen.',
    );
    expect(translateShared('Current password is incorrect')).toBe('Das aktuelle Passwort ist falsch');
    expect(translateShared('Workspace not found')).toBe('Arbeitsbereich nicht gefunden');
  });

  it('translates the field a message names, and the message a place names', () => {
    inGerman();
    expect(translateShared('Phone number is required')).toBe('Telefonnummer ist erforderlich');
    expect(translateShared('Rule 2: Destination must be a valid URL')).toBe(
      'Regel 2: Ziel-URL muss eine gültige URL sein',
    );
    expect(translateShared('Rule 1, condition 3: Countries: choose at least one')).toBe(
      'Regel 1, Bedingung 3: Länder: Wählen Sie mindestens einen Eintrag aus',
    );
    expect(translateShared('Opens a 404 since 2 days')).toBe('Öffnet eine 404-Seite seit 2 Tagen');
    expect(translateShared('2 codes use this domain: give them another domain first')).toBe(
      '2 Codes verwenden diese Domain: Weisen Sie ihnen zuerst eine andere Domain zu',
    );
    // A field the list does not know: the sentence is left whole, in English.
    expect(translateShared('Colour is required')).toBe('Colour is required');
  });

  it('translates the names src/ gives its values, and the lines made of them', () => {
    inGerman();
    expect(translateShared('Viewer')).toBe('Betrachter');
    expect(translateShared('Every destination answers')).toBe('Alle Ziel-URLs antworten');
    expect(translateShared('Wi-Fi: MyNetwork')).toBe('WLAN: MyNetwork');
    expect(translateShared('Wi-Fi: MyNetwork (details changed)')).toBe('WLAN: MyNetwork (Details geändert)');
    expect(translateShared('Rule 2 (App Store)')).toBe('Regel 2 (App Store)');
    expect(translateShared('Refused: scan limit')).toBe('Abgelehnt: Scanlimit');
    expect(translateShared('$10/month')).toBe('10 $/Monat');
    // A type the list does not know before the colon: the line is left whole, in English.
    expect(translateShared('Menu: lunch')).toBe('Menu: lunch');
  });

  it('leaves any other text as it is', () => {
    inGerman();
    for (const text of [
      '',
      'Something went wrong',
      'Passwords don’t match',
      ' Wrong password',
      'Rule x: nothing',
    ])
      expect(translateShared(text)).toBe(text);
  });

  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    'finds every message of the list, whatever its values, in the words of the %s catalog',
    (locale) => {
      const nested = (name: string) => (name === 'label' ? 'Destination' : 'Opens a 404');
      const cases = sharedMessages.flatMap((d) => [1, 2, 7, 25].map((count) => ({ d, count })));
      const texts = cases.map(({ d, count }) => english(d, sampleValues(d, count, nested)));
      i18n.loadAndActivate({ locale, messages: compiledCatalog(catalogFiles(clientRoot, locale), locale) });
      const wrong = cases.flatMap(({ d, count }, i) => {
        const values = sampleValues(d, count, (name) => translateShared(nested(name)));
        const expected = i18n._(d.id, values, { message: d.message });
        const actual = translateShared(texts[i]!);
        return d.id in i18n.messages && actual === expected ? [] : [{ text: texts[i], expected, actual }];
      });
      expect(wrong).toEqual([]);
    },
  );

  it('leaves every message unchanged with English active', () => {
    const texts = sharedMessages.map((d) =>
      english(
        d,
        sampleValues(d, 7, () => 'Destination'),
      ),
    );
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    for (const text of texts) expect(translateShared(text)).toBe(text);
  });

  it('takes well under a millisecond a text', () => {
    inGerman();
    const texts = [
      'Phone number is required',
      'Something else entirely',
      'Row 12: Rule 3: Destination is required',
    ];
    translateShared(texts[0]!);
    const start = performance.now();
    for (let i = 0; i < 300; i++) for (const text of texts) translateShared(text);
    expect((performance.now() - start) / 900).toBeLessThan(0.5);
  });
});

// ---- The list is the code's own words ----

/** Every source file of src/ and server/ but the tests. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name === 'test' ? [] : sourceFiles(file);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** The texts of the code's string literals and template parts (between its `${…}`). */
function literalsOf(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return found;
}

/** A message's literal text, cut at its placeholders, `#`s and numbers (a number may be a constant's). */
function fragmentsOf(tokens: Token[]): string[] {
  const texts: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') texts.push(token === '#' ? '' : token);
    else
      for (const value of Object.values(token[2] ?? {}))
        if (Array.isArray(value)) texts.push(...fragmentsOf(value as Token[]));
  }
  return texts.flatMap((text) => text.split(/\d+(?:[.,]\d+)*/)).filter((text) => text.trim() !== '');
}

describe('the shared messages', () => {
  const literals = [
    ...sourceFiles(path.join(root, 'src')),
    ...sourceFiles(path.join(root, 'server')),
  ].flatMap(literalsOf);
  const whole = new Set(literals);
  const joined = `\0${literals.join('\0')}\0`;

  /**
   * Whether `text` is written in the code: inside one literal, or as the end of one, whole literals and the
   * start of another, in a row (`Too many ${what}.` with 'failed login attempts'; a hand-made plural).
   */
  function written(text: string): boolean {
    if (joined.includes(text)) return true;
    const reach = new Set<number>();
    for (let end = 1; end < text.length; end++)
      if (joined.includes(`${text.slice(0, end)}\0`)) reach.add(end);
    for (let start = 1; start < text.length; start++) {
      if (!reach.has(start)) continue;
      if (joined.includes(`\0${text.slice(start)}`)) return true;
      for (let end = start + 1; end < text.length; end++)
        if (whole.has(text.slice(start, end))) reach.add(end);
    }
    return false;
  }

  it('are each written so in src/ or server/', () => {
    const missing = sharedMessages.flatMap((d) =>
      fragmentsOf(tokensOf(d))
        .filter((fragment) => !written(fragment))
        .map((fragment) => `${JSON.stringify(d.message)}: "${fragment}"`),
    );
    expect(missing).toEqual([]);
  });

  it('are listed once', () => {
    const ids = sharedMessages.map((d) => d.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});
