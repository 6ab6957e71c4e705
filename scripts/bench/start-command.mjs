// The command `npm start` runs, read from package.json: the benchmarks start the server exactly so
// (its environment settings and Node flags), not an approximation of it.
import fs from 'node:fs';
import path from 'node:path';

/** `VAR=value … node <flags> dist/server.mjs` → { env, args } for spawn(process.execPath, args). */
export function startCommand(root) {
  const script = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const words = script.trim().split(/\s+/);
  const env = {};
  let i = 0;
  for (; /^[A-Z_][A-Z0-9_]*=/.test(words[i]); i++) {
    const at = words[i].indexOf('=');
    env[words[i].slice(0, at)] = words[i].slice(at + 1);
  }
  if (words[i] !== 'node') throw new Error(`npm start does not run node: ${script}`);
  return { env, args: words.slice(i + 1) };
}

export { freePort } from '../built-app.mjs';
