// npm run i18n:check [name…]: the words on the client's screens not marked for translation
// (scripts/i18n/unlocalized.ts) and the problems of the catalogs (scripts/i18n/catalog-check.ts), all of
// them or those of the named catalogs (a feature folder's name, or `app`); exits 1 when there are any.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCatalogs } from './catalog-check.ts';
import { unlocalizedStrings } from './unlocalized.ts';

const clientRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client');
const names = process.argv.slice(2);
const catalogName = (file: string) =>
  /features\/([^/]+)\//.exec(file)?.[1] ?? (file.startsWith('client/i18n/') ? 'i18n' : 'app');
const wanted = (file: string) => names.length === 0 || names.includes(catalogName(file));

const unmarked = unlocalizedStrings(clientRoot).filter((u) => wanted(u.file));
for (const u of unmarked)
  console.log(`${u.file}:${u.line}: not marked for translation: ${JSON.stringify(u.text)}`);
const problems = checkCatalogs(clientRoot).filter((p) => wanted(p.file));
for (const p of problems) console.log(`${p.file}: ${JSON.stringify(p.message)}: ${p.problem}`);
const count = unmarked.length + problems.length;
console.log(count ? `${count} problem(s)` : 'Every word is marked, and the catalogs are complete.');
process.exitCode = count ? 1 : 0;
