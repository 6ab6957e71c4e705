// `import { Button } from '@mantine/core'` read as `import { Button } from '…/Button/Button.mjs'`: the file
// the package's index re-exports it from. Same modules, same code; what changes is that the bundler's
// module graph no longer runs through an index that imports every component (or every one of 6,000
// icons), so the chunk groups (chunk-groups.ts) can see which pages use which component.
import fs from 'node:fs';
import type { Plugin } from 'vite';

/** What a barrel re-exports: `exported name → [file or package, name there]`. */
type Exports = Map<string, [string, string]>;

const specifiers = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name = '', alias = name] = s.split(/\s+as\s+/);
      return [name, alias] as const;
    });

/** The re-exports of a barrel file as Mantine's (`import {…} from "…"` then `export {…}`) and Tabler's write them. */
export function barrelExports(code: string): Exports {
  const exports: Exports = new Map();
  const imported = new Map<string, [string, string]>();
  for (const [, list = '', from = ''] of code.matchAll(
    /^import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?$/gm,
  ))
    for (const [name, alias] of specifiers(list)) imported.set(alias, [from, name]);
  for (const [, list = ''] of code.matchAll(/^export\s*\{([^}]*)\};?$/gm))
    for (const [name, alias] of specifiers(list)) {
      const target = imported.get(name);
      if (target) exports.set(alias, target);
    }
  for (const [, list = '', from = ''] of code.matchAll(
    /^export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?$/gm,
  ))
    for (const [name, alias] of specifiers(list)) exports.set(alias, [from, name]);
  return exports;
}

/** A build plugin reading past the index files of `packages`, in the app's code and in the libraries'. */
export function deepImports(packages: string[]): Plugin {
  const escaped = packages.map((p) => p.replace(/[/.]/g, (c) => `\\${c}`)).join('|');
  const statement = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["'](${escaped})["'];?`, 'g');
  /** Per package: its index's re-exports, each target resolved to a module id. */
  const barrels = new Map<string, Promise<Map<string, [string, string]> | null>>();
  return {
    name: 'qr-creator:deep-imports',
    apply: 'build',
    transform: {
      filter: { code: new RegExp(`["'](?:${escaped})["']`) },
      async handler(code, importer) {
        const found = [...code.matchAll(statement)];
        if (found.length === 0) return null;
        for (const [, , pkg = ''] of found) {
          if (barrels.has(pkg)) continue;
          const load = async () => {
            const index = await this.resolve(pkg, importer);
            if (!index) return null;
            const targets = new Map<string, [string, string]>();
            const ids = new Map<string, string | null>();
            for (const [alias, [from, name]] of barrelExports(fs.readFileSync(index.id, 'utf8'))) {
              if (!ids.has(from)) ids.set(from, (await this.resolve(from, index.id))?.id ?? null);
              const id = ids.get(from);
              if (id) targets.set(alias, [id, name]);
            }
            return targets;
          };
          barrels.set(pkg, load());
        }
        let out = '';
        let at = 0;
        for (const match of found) {
          const [text, list = '', pkg = ''] = match;
          const targets = await barrels.get(pkg);
          if (!targets) continue;
          const kept: string[] = [];
          const direct: string[] = [];
          for (const [name, alias] of specifiers(list)) {
            const target = targets.get(name);
            if (target) direct.push(`import { ${target[1]} as ${alias} } from ${JSON.stringify(target[0])};`);
            else kept.push(name === alias ? name : `${name} as ${alias}`);
          }
          if (kept.length > 0) direct.push(`import { ${kept.join(', ')} } from ${JSON.stringify(pkg)};`);
          out += code.slice(at, match.index) + direct.join('\n');
          at = match.index + text.length;
        }
        return { code: out + code.slice(at), map: null };
      },
    },
  };
}
