import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The first page of a PDF as a PNG at `dpi` (tests: "does the printed code scan?"), drawn by poppler's
 * pdftoppm (Debian's poppler-utils; .ci/run installs it). pdfjs-dist in Node was tried first: its canvas
 * drops clipped shapes, so two of a code's three finder patterns went missing while every viewer shows them.
 */
export async function pdfPageToPng(pdf: Uint8Array, dpi = 200): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pdf-raster-'));
  try {
    const input = path.join(dir, 'in.pdf');
    await fs.writeFile(input, pdf);
    await run('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      input,
      path.join(dir, 'page'),
    ]);
    return await fs.readFile(path.join(dir, 'page.png'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
