// Lingui without its bundler plugins (issue 37): `@lingui/vite-plugin` 5 accepts Vite ≤ 7 only, and Vite 8's
// React plugin has no Babel step for the macros. Two small plugins instead:
//  - `linguiMacros` runs Lingui's macro through Babel on the files that import one, and compiles each English
//    message in place (`"Hello {name}"` → `["Hello ", ["name"]]`), so that English needs no catalog and the
//    browser no message compiler (7 KB);
//  - `linguiCatalogs` serves `virtual:lingui-messages/<tag>`: every catalog of that language
//    (client/**/locales/<tag>.po) merged and compiled, loaded when the language is chosen.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { transformAsync, types as t, type PluginObj } from '@babel/core';
import linguiMacro from '@lingui/babel-plugin-lingui-macro';
import { makeConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Messages } from '@lingui/core';
import type { Plugin } from 'vite';

const MACRO_IMPORT = /from\s+['"]@lingui\/(?:core|react)\/macro['"]/;
const linguiConfig = makeConfig({ locales: ['en'], sourceLocale: 'en' }, { skipValidation: true });

/** Replaces the `message` of every descriptor the macro wrote (`{ id, message }`) with its compiled form. */
function compileDescriptors(): PluginObj {
  return {
    visitor: {
      Program: {
        exit(program) {
          program.traverse({
            ObjectExpression(object) {
              const props = object.node.properties;
              const hasId = props.some(
                (p) =>
                  t.isObjectProperty(p) &&
                  t.isIdentifier(p.key, { name: 'id' }) &&
                  t.isStringLiteral(p.value),
              );
              if (!hasId) return;
              for (const p of props) {
                if (
                  t.isObjectProperty(p) &&
                  t.isIdentifier(p.key, { name: 'message' }) &&
                  t.isStringLiteral(p.value)
                )
                  p.value = t.valueToNode(compileMessage(p.value.value));
              }
            },
          });
        },
      },
    },
  };
}

/** Runs Lingui's macros (`@lingui/core/macro`, `@lingui/react/macro`) in the client's TypeScript. */
export function linguiMacros(): Plugin {
  return {
    name: 'qr-creator:lingui-macros',
    enforce: 'pre',
    async transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[cm]?tsx?$/.test(id.split('?')[0]!)) return null;
      if (!MACRO_IMPORT.test(code)) return null;
      const result = await transformAsync(code, {
        filename: id,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: id.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'] },
        generatorOpts: { retainLines: false },
        plugins: [[linguiMacro, { stripMessageField: false, linguiConfig }], compileDescriptors],
      });
      if (!result?.code) return null;
      return { code: result.code, map: result.map };
    },
  };
}

const VIRTUAL = 'virtual:lingui-messages/';
const RESOLVED = '\0' + VIRTUAL;

/** The .po files of a language: one per feature folder, the app's frame and client/i18n. */
export function catalogFiles(clientRoot: string, locale: string): string[] {
  const files = [
    path.join(clientRoot, 'locales', `${locale}.po`),
    path.join(clientRoot, 'i18n/locales', `${locale}.po`),
  ];
  const features = path.join(clientRoot, 'features');
  for (const name of readdirSync(features)) files.push(path.join(features, name, 'locales', `${locale}.po`));
  return files.filter((file) => existsSync(file));
}

/** A language's messages, compiled: id → compiled message. Untranslated ones are left out (English shows). */
export function compiledCatalog(files: string[], locale: string): Messages {
  const po = formatter({ lineNumbers: false });
  const messages: Messages = {};
  for (const filename of files) {
    const catalog = po.parse(readFileSync(filename, 'utf8'), {
      locale,
      sourceLocale: 'en',
      filename,
    }) as Record<string, { translation?: string; obsolete?: boolean }>;
    for (const [id, entry] of Object.entries(catalog)) {
      if (entry.obsolete || !entry.translation) continue;
      messages[id] = compileMessage(entry.translation);
    }
  }
  return messages;
}

/** `import('virtual:lingui-messages/de')` → `{ messages }`, every German catalog merged and compiled. */
export function linguiCatalogs({ clientRoot }: { clientRoot: string }): Plugin {
  return {
    name: 'qr-creator:lingui-catalogs',
    resolveId(id) {
      return id.startsWith(VIRTUAL) ? RESOLVED + id.slice(VIRTUAL.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const locale = id.slice(RESOLVED.length);
      const files = catalogFiles(clientRoot, locale);
      for (const file of files) this.addWatchFile(file);
      const messages = compiledCatalog(files, locale);
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}
