import { PassThrough, type Readable } from 'node:stream';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { User } from '../../../src/auth/auth.schema.js';
import { archiveFileNames, type BulkArchiveInput } from '../../../src/qr/bulk.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import { imageDataOf } from '../../../src/qr/qr.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors.js';
import { createQrImageCache, renderQrImage } from './qr-image.js';
import { toQrCode } from './qr.mapper.js';
import { shortLinksFor } from '../domains/short-domains.registry.js';
import { uploadResolverFor } from '../uploads/uploads.service.js';
import { findQrCodesOf } from './bulk.repository.js';

// ---------------------------------------------------------------------------------------------------------
// codes.csv

/** Spreadsheets run a cell starting with one of these as a formula (as in the redirect export's CSV). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: quoted when it holds a comma, a quote or a line break, quotes doubled. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `id,name,short_url`, CRLF line ends; short_url is empty for a static code. A name a spreadsheet would
 * run as a formula gets a leading `'`.
 */
export function codesCsv(codes: readonly { id: number; name: string; shortUrl: string | null }[]): string {
  const lines = ['id,name,short_url'];
  for (const code of codes) {
    const name = FORMULA_START.test(code.name) ? `'${code.name}` : code.name;
    lines.push([String(code.id), csvCell(name), csvCell(code.shortUrl ?? '')].join(','));
  }
  return lines.map((line) => `${line}\r\n`).join('');
}

// ---------------------------------------------------------------------------------------------------------
// The streamed ZIP

export interface ArchiveImage {
  fileName: string;
  render: () => Promise<Uint8Array>;
}

/** Waits until `out` wants more, or is closed (a cancelled download). */
function drained(out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * A ZIP written while it is read: `codes.csv` first (so the first bytes leave at once), then each
 * image as it is rendered, one at a time with a turn of the event loop between two (short links keep
 * being answered meanwhile), never ahead of what the client has taken. PNGs are stored as they are
 * (already compressed); SVGs are deflated. A closed stream (a cancelled download) stops the rendering.
 */
export function zipStream(
  csv: string,
  images: readonly ArchiveImage[],
  options: { deflate: boolean },
): Readable {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const zip = new Zip((error, chunk, final) => {
    if (out.destroyed) return;
    if (error) {
      out.destroy(error);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const add = (fileName: string, bytes: Uint8Array, deflate: boolean) => {
    const file = deflate ? new ZipDeflate(fileName, { level: 6 }) : new ZipPassThrough(fileName);
    zip.add(file);
    file.push(bytes, true);
  };
  const write = async () => {
    add('codes.csv', strToU8(csv), true);
    for (const image of images) {
      await new Promise((resolve) => setImmediate(resolve));
      if (out.writableNeedDrain) await drained(out);
      if (out.destroyed) return zip.terminate();
      const bytes = await image.render();
      if (out.destroyed) return zip.terminate();
      add(image.fileName, bytes, options.deflate);
    }
    zip.end();
  };
  write().catch((error: unknown) => {
    zip.terminate();
    if (!out.destroyed) out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The path

export interface ArchiveFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

/**
 * The caller's codes as one ZIP: each code's image, rendered as its download is (same renderer, design
 * and size), named after the code (archiveFileNames), plus codes.csv. Every id must be one of the
 * caller's codes: any other is a 404 before a byte is sent. Ids given twice count once.
 */
export async function archiveQrCodes(
  deps: AppDeps,
  user: User,
  input: BulkArchiveInput,
): Promise<ArchiveFile> {
  const ids = [...new Set(input.ids)];
  const rows = await findQrCodesOf(deps.db, user.id, ids);
  if (rows.length !== ids.length) throw appError('NOT_FOUND', qrMessages.notFound);
  const links = await shortLinksFor(
    deps,
    rows.map((row) => row.domain_id),
  );
  const byId = new Map(rows.map((row) => [row.id, toQrCode(row, links)]));
  const codes = ids.map((id) => byId.get(id)!);
  const names = archiveFileNames(codes, input.format);
  // Only within this archive: a thousand images would push everything else out of the shared cache.
  const cache = createQrImageCache(16);
  const resolveLogo = uploadResolverFor(deps, user.id);
  const images = codes.map((code, i): ArchiveImage => ({
    fileName: names[i]!,
    render: () =>
      renderQrImage(
        cache,
        {
          data: imageDataOf(code),
          customization: code.customization,
          size: input.size,
          format: input.format,
        },
        resolveLogo,
      ),
  }));
  return {
    fileName: 'qr-codes.zip',
    contentType: 'application/zip',
    body: zipStream(codesCsv(codes), images, { deflate: input.format === 'svg' }),
  };
}
