import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { call, type Response } from './test-app.js';

// Upload bodies and real image bytes: multipart built by hand, PNGs that decode, a JPEG header and
// a clean SVG.

// ---------------------------------------------------------------------------------------------------
// Multipart bodies, built by hand

export interface FilePart {
  field: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export const BOUNDARY = '----qrCreatorTestBoundary7MA4YWxkTrZu0gW';

export function multipartBody(
  parts: (FilePart | { field: string; value: string })[],
  boundary = BOUNDARY,
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        ),
      );
      continue;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename ?? 'logo.png'}"\r\n` +
          `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** POST /api/upload/logo with a multipart body of `parts`, signed in when a cookie is given. */
export function uploadLogo(
  app: FastifyInstance,
  parts: FilePart[],
  options: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return call(app, 'POST', '/api/upload/logo', {
    ...(options.cookie ? { cookie: options.cookie } : {}),
    payload: multipartBody(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...options.headers },
  });
}

// ---------------------------------------------------------------------------------------------------
// Real images

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A valid, decodable RGB PNG of the given size filled with one colour. */
export function makePng(width = 2, height = 2, rgb: [number, number, number] = [0x1f, 0x29, 0x37]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The start of a JFIF JPEG (SOI + APP0), enough for a sniffer that reads the bytes. */
export const JPEG_BYTES = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
]);

export const CLEAN_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">' +
  '<rect x="1" y="1" width="8" height="8" fill="#1F2937"/><circle cx="5" cy="5" r="2" fill="#FFFFFF"/></svg>';
