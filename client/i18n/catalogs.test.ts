// The client's words in every language (issue 37): the catalogs are complete and up to date with the code.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogDirs, checkCatalogs, readCatalog } from '../../scripts/i18n/catalog-check';
import { LOCALES } from '../../src/i18n/locales';

const root = path.resolve(import.meta.dirname, '../..');
const clientRoot = path.join(root, 'client');
const temp = mkdtempSync(path.join(tmpdir(), 'catalogs-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const po = (locale: string, entries: [string, string][]) =>
  `msgid ""\nmsgstr ""\n"Language: ${locale}\\n"\n\n` +
  entries.map(([id, str]) => `msgid ${JSON.stringify(id)}\nmsgstr ${JSON.stringify(str)}\n`).join('\n');

describe('the client catalogs', () => {
  it('have every message in every language, with the same placeholders and the plural forms each grammar needs', () => {
    const problems = checkCatalogs(clientRoot);
    expect(problems.slice(0, 20)).toEqual([]);
    // Every feature that has words has its catalogs, one per language.
    expect(catalogDirs(clientRoot).length).toBeGreaterThan(10);
  });

  it('hold every message the code has, and none it lost (`npm run i18n:extract` run and committed)', async () => {
    const out = path.join(temp, 'extracted');
    await promisify(execFile)(
      path.join(root, 'node_modules/.bin/lingui'),
      ['extract', '--config', 'client/i18n/lingui.config.ts', '--locale', 'en'],
      { cwd: root, env: { ...process.env, LINGUI_OUT: out }, timeout: 120_000 },
    );
    // Each catalog the code makes, with messages in it, is committed with the same messages.
    for (const name of readdirSync(out)) {
      const fresh = Object.keys(readCatalog(path.join(out, name, 'en.po'), 'en')).sort();
      if (fresh.length === 0) continue;
      const dir =
        name === 'app'
          ? path.join(clientRoot, 'locales')
          : name === 'i18n'
            ? path.join(clientRoot, 'i18n/locales')
            : path.join(clientRoot, 'features', name, 'locales');
      const committed = Object.keys(readCatalog(path.join(dir, 'en.po'), 'en')).sort();
      expect({ name, ids: committed }).toEqual({ name, ids: fresh });
    }
  }, 180_000);

  it('finds a missing translation, a dropped placeholder or tag, and a plural without the forms of its language', () => {
    const fixture = path.join(temp, 'client');
    mkdirSync(path.join(fixture, 'features/demo/locales'), { recursive: true });
    const dir = path.join(fixture, 'locales');
    mkdirSync(dir, { recursive: true });
    const english: [string, string][] = [
      ['Save', 'Save'],
      ['Delete {name}?', 'Delete {name}?'],
      ['Read the <0>guide</0>.', 'Read the <0>guide</0>.'],
      ['{count, plural, one {# code} other {# codes}}', '{count, plural, one {# code} other {# codes}}'],
    ];
    writeFileSync(path.join(dir, 'en.po'), po('en', english));
    for (const locale of LOCALES.filter((l) => l !== 'en'))
      writeFileSync(path.join(dir, `${locale}.po`), readFileSync(path.join(dir, 'en.po'), 'utf8'));
    writeFileSync(
      path.join(dir, 'pl.po'),
      po('pl', [
        ['Save', ''],
        ['Delete {name}?', 'Usunąć {nazwa}?'],
        ['Read the <0>guide</0>.', 'Przeczytaj przewodnik.'],
        ['{count, plural, one {# code} other {# codes}}', '{count, plural, one {# kod} other {# kodów}}'],
      ]),
    );
    const problems = checkCatalogs(fixture, ['en', 'pl']).map((p) => `${p.message}: ${p.problem}`);
    expect(problems).toEqual([
      'Save: not translated',
      'Delete {name}?: placeholders {nazwa}, not {name}',
      'Read the <0>guide</0>.: placeholders none, not </0> <0>',
      '{count, plural, one {# code} other {# codes}}: {count} lacks the pl form(s) few, many',
    ]);
  });
});
