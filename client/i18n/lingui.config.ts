// Lingui's catalogs: one per feature folder (client/features/<name>/locales/<tag>.po) and one for the app's
// frame (client/locales: components, lib and the files at client/'s top), and client/i18n's own. A feature owns its words, as it
// owns its code. `npm run i18n:extract` reads the code and writes them; LINGUI_ONLY=<name>,<name> limits it
// to some catalogs.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatter } from '@lingui/format-po';
import type { LinguiConfig } from '@lingui/conf';
import { LOCALES } from '../../src/i18n/locales.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const only = process.env.LINGUI_ONLY?.split(',').map((name) => name.trim());
const wanted = (name: string) => !only || only.includes(name);
// LINGUI_OUT=<dir>: the catalogs are written there (<dir>/<name>/<tag>.po) instead of beside the code; the
// test that the committed catalogs are up to date with the code extracts into a temporary folder.
const out = process.env.LINGUI_OUT;
const catalogPath = (name: string, beside: string) => (out ? `${out}/${name}/{locale}` : beside);

const features = readdirSync(path.join(root, 'client/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const exclude = ['**/*.test.ts', '**/*.test.tsx', '**/e2e/**', '**/node_modules/**'];

const config: LinguiConfig = {
  rootDir: root,
  locales: [...LOCALES],
  sourceLocale: 'en',
  // English needs no translation: its catalog lists the messages and their places.
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    ...features.filter(wanted).map((name) => ({
      path: catalogPath(name, `<rootDir>/client/features/${name}/locales/{locale}`),
      include: [`<rootDir>/client/features/${name}/`],
      exclude,
    })),
    ...(wanted('app')
      ? [
          {
            path: catalogPath('app', '<rootDir>/client/locales/{locale}'),
            include: ['<rootDir>/client/components/', '<rootDir>/client/lib/', '<rootDir>/client/*.{ts,tsx}'],
            exclude,
          },
        ]
      : []),
    // The language picker and the words of src/'s shared checks, translated where they are shown.
    ...(wanted('i18n')
      ? [
          {
            path: catalogPath('i18n', '<rootDir>/client/i18n/locales/{locale}'),
            include: ['<rootDir>/client/i18n/'],
            exclude,
          },
        ]
      : []),
  ],
};

export default config;
