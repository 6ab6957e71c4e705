import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|wasm)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every compressible file under
 * `dir` that is over 1 KB, when compressing saves anything. Run once at build time (see vite.config.ts), so
 * the server sends these bytes as they are (@fastify/static `preCompressed`, chosen by Accept-Encoding)
 * instead of raw assets or compressing on every request. Answers the files it compressed.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
  const done = await Promise.all(
    files.map(async (file) => {
      const raw = await fs.readFile(file);
      if (raw.length < MIN_BYTES) return null;
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      if (br.length < raw.length) await fs.writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await fs.writeFile(`${file}.gz`, gz);
      return br.length < raw.length || gz.length < raw.length ? file : null;
    }),
  );
  return done.filter((f): f is string => f !== null);
}
