import { deflateSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Db, FolderRow, QrCodeRow, UserRow } from '../db/database.js';
import { startSession } from '../features/auth/sessions.js';
import { writeScansWithRollups } from '../features/scans/scan-rollups.js';
import type { RestErrorBody } from '../rest/rest-errors.js';
import { errorBody, insertTestUser, type Response, type TestApp } from './test-app.js';

/** ISO 8601 in UTC, as every timestamp of the API. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const EVIL_ORIGIN = 'https://evil.example';

export interface PlanFields {
  isAdmin?: boolean;
  hasUnlimitedAccess?: boolean;
  subscriptionTier?: 'free' | 'pro' | 'premium';
  subscriptionEndDate?: string | null;
}

/**
 * Starts a session for a user straight through the session store (no argon2 verification per test)
 * and returns the cookie value a browser would send.
 */
export async function sessionFor(t: TestApp, userId: number): Promise<string> {
  let token: string | undefined;
  await startSession(
    t.deps,
    {
      read: () => undefined,
      set: (_name, value) => {
        token = value;
      },
      clear: () => undefined,
    },
    userId,
    { ip: '127.0.0.1', userAgent: 'vitest' },
  );
  if (!token) throw new Error('startSession set no cookie');
  return token;
}

/** A user inserted straight into the database (cached argon2 hash), with plan fields and a session. */
export async function signedInUser(
  t: TestApp,
  username: string,
  plan: PlanFields = {},
): Promise<{ user: UserRow; cookie: string }> {
  const inserted = await insertTestUser(t.db, { username, isAdmin: plan.isAdmin ?? false });
  const changes = {
    ...(plan.hasUnlimitedAccess !== undefined ? { has_unlimited_access: plan.hasUnlimitedAccess } : {}),
    ...(plan.subscriptionTier !== undefined
      ? { subscription_tier: plan.subscriptionTier, subscription_status: 'active' }
      : {}),
    ...(plan.subscriptionEndDate !== undefined ? { subscription_end_date: plan.subscriptionEndDate } : {}),
  };
  const user =
    Object.keys(changes).length > 0
      ? await t.db
          .updateTable('users')
          .set(changes)
          .where('id', '=', inserted.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : inserted;
  return { user, cookie: await sessionFor(t, user.id) };
}

/** One request with an optional session cookie and JSON body. */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { cookie?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const request: InjectOptions = {
    method,
    url,
    headers: {
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.json !== undefined ? { payload: JSON.stringify(options.json) } : {}),
    ...(options.cookie ? { cookies: { qr_session: options.cookie } } : {}),
  };
  return app.inject(request);
}

/** A 4xx JSON error in the documented shape { message, code, issues?, … }. */
export function expectRestError(res: Response, status: number, code?: string): RestErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = errorBody(res);
  expect(body.message).toEqual(expect.any(String));
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.code).toEqual(expect.any(String));
  if (code) expect(body.code).toBe(code);
  expect(res.body).not.toMatch(/\bat .+\.(ts|js):\d+|select |insert into|SQLITE_|stack/i);
  return body;
}

let rowSequence = 0;

/** A code row written straight to the database (for counts, limits and other users' objects). */
export async function insertQrRow(
  db: Db,
  fields: {
    userId: number;
    name?: string;
    type?: string;
    content?: string;
    isDynamic?: boolean;
    folderId?: number | null;
    created?: string;
    customization?: Record<string, unknown>;
  },
): Promise<QrCodeRow> {
  rowSequence += 1;
  const dynamic = fields.isDynamic ?? false;
  const created = fields.created ?? new Date().toISOString();
  return db
    .insertInto('qr_codes')
    .values({
      name: fields.name ?? `Inserted ${rowSequence}`,
      type: fields.type ?? 'url',
      content: fields.content ?? `https://example.com/inserted/${rowSequence}`,
      is_dynamic: dynamic,
      customization: JSON.stringify(fields.customization ?? {}),
      user_id: fields.userId,
      folder_id: fields.folderId ?? null,
      slug: dynamic ? `ins${rowSequence}`.padEnd(7, 'x') : null,
      created,
      updated: created,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` static url codes of one user in a single statement (cheap plan-limit setups). */
export async function insertManyQrRows(db: Db, userId: number, count: number): Promise<void> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `Bulk ${i + 1}`,
    type: 'url',
    content: `https://example.com/bulk/${i + 1}`,
    is_dynamic: false,
    customization: '{}',
    user_id: userId,
    folder_id: null,
    slug: null,
    created: now,
    updated: now,
  }));
  await db.insertInto('qr_codes').values(rows).execute();
}

export function insertFolderRow(db: Db, userId: number, name = 'Folder'): Promise<FolderRow> {
  return db
    .insertInto('folders')
    .values({ name, user_id: userId, created: new Date().toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` scans a minute apart, newest now, written with their rollups as the recorder writes them. */
export async function insertScans(db: Db, qrCodeId: number, count: number): Promise<void> {
  const { user_id: ownerId } = await db
    .selectFrom('qr_codes')
    .select('user_id')
    .where('id', '=', qrCodeId)
    .executeTakeFirstOrThrow();
  const rows = Array.from({ length: count }, (_, i) => ({
    owner_id: ownerId,
    qr_code_id: qrCodeId,
    timestamp: new Date(Date.now() - i * 60_000).toISOString(),
    user_agent: 'Mozilla/5.0',
    ip_address: `203.0.113.${i + 1}`,
    referrer: null,
    location: 'Berlin, DE',
    device: 'Mobile',
  }));
  await db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

export function findQrRow(db: Db, id: number): Promise<QrCodeRow | undefined> {
  return db.selectFrom('qr_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A stored customization as an object (jsonb reads back parsed, SQLite text does not). */
export function storedCustomization(row: QrCodeRow): Record<string, unknown> {
  return (
    typeof row.customization === 'string' ? JSON.parse(row.customization) : row.customization
  ) as Record<string, unknown>;
}

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

export function uploadLogo(
  app: FastifyInstance,
  parts: FilePart[],
  options: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return app.inject({
    method: 'POST',
    url: '/api/upload/logo',
    payload: multipartBody(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...options.headers },
    ...(options.cookie ? { cookies: { qr_session: options.cookie } } : {}),
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
