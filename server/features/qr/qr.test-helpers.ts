import { expect } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { storedCustomization } from '../../test/fixtures.js';
import { call, type TestApp } from '../../test/test-app.js';
import { countRows } from '../../test/test-db.js';

// Shared by the qr.rest.*.test.ts files.

export const DEFAULT_CUSTOMIZATION = {
  foregroundColor: '#000000',
  backgroundColor: '#FFFFFF',
  errorCorrectionLevel: 'M',
  style: 'square',
};

export const SELF_LINK = 'A dynamic QR code cannot point to its own short link';
export const INVALID_URL = 'Must be a valid URL';

export interface CodeBody {
  name?: unknown;
  type?: unknown;
  content?: unknown;
  isDynamic?: unknown;
  customization?: unknown;
  folderId?: unknown;
  [key: string]: unknown;
}

export function urlBody(overrides: CodeBody = {}): CodeBody {
  return {
    name: 'Landing page',
    type: 'url',
    content: 'https://example.com/landing',
    isDynamic: true,
    ...overrides,
  };
}

export function postCode(
  t: TestApp,
  cookie: string | undefined,
  body: unknown,
  headers?: Record<string, string>,
) {
  return call(t.app, 'POST', '/api/qr-codes', {
    ...(cookie ? { cookie } : {}),
    json: body,
    ...(headers ? { headers } : {}),
  });
}

/** POST /api/qr-codes that must succeed. */
export async function createCode(t: TestApp, cookie: string, body: CodeBody = {}): Promise<QrCode> {
  const res = await postCode(t, cookie, urlBody(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<QrCode>();
}

/** The rows a request could have written or changed. */
export async function snapshot(t: TestApp) {
  return {
    codes: (await t.db.selectFrom('qr_codes').selectAll().orderBy('id').execute()).map((r) => ({
      ...r,
      customization: storedCustomization(r),
    })),
    scans: await countRows(t.db, 'qr_scans'),
    folders: await countRows(t.db, 'folders'),
  };
}

export const badIds: [string, string][] = [
  ['abc', 'Id must be a number'],
  ['1.5', 'Id must be a whole number'],
  ['0', 'Id must be a positive number'],
  ['-4', 'Id must be a positive number'],
  ['99999999999', 'Id is too large'],
];
