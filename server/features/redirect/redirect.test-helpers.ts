import { JSDOM } from 'jsdom';
import { expect } from 'vitest';
import type { QrType } from '../../../src/qr/qr-types.js';
import type { SmartRedirectInput } from '../../../src/qr/smart-redirect.js';
import type { Config } from '../../config.js';
import type { QrCodeRow } from '../../db/database.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { storedScans } from '../../test/stored-scans.js';
import { call, useTestApp, type Response, type TestApp } from '../../test/test-app.js';
import { countRows, type TestDb } from '../../test/test-db.js';

// Shared by the redirect.rest.*.test.ts files.

export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
export const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** A smart code's default destination in the tests. */
export const HOME = 'https://example.com/home';

/** Two rules by operating system: iPhones to the App Store (rule 1, labelled), Android to Google Play. */
export const storeRules: SmartRedirectInput['rules'] = [
  {
    label: 'App Store',
    conditions: [{ kind: 'os', os: ['ios'] }],
    destination: 'https://apps.apple.com/app/id1',
  },
  {
    conditions: [{ kind: 'os', os: ['android'] }],
    destination: 'https://play.google.com/store/apps/details?id=x',
  },
];

export interface ScanRow {
  qr_code_id: number;
  timestamp: string | Date;
  user_agent: string | null;
  ip_address: string | null;
  referrer: string | null;
  location: string | null;
  device: string | null;
}

export async function scansOf(t: TestApp, codeId?: number): Promise<ScanRow[]> {
  return (await storedScans(t.db, codeId)).map(({ id: _id, ms: _ms, ...row }) => row);
}

/** A scan as a phone sends it: GET with optional headers and client address. */
export function scan(
  t: TestApp,
  slug: string,
  options: {
    method?: 'GET' | 'HEAD';
    /** `'user-agent': undefined` sends none (light-my-request adds its own otherwise). */
    headers?: Record<string, string | undefined>;
    remoteAddress?: string;
  } = {},
): Promise<Response> {
  return call(t.app, options.method ?? 'GET', `/r/${slug}`, {
    headers: options.headers ?? {},
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

let owners = 0;

/** A dynamic code of `type` written straight to the database, with its slug. */
export async function dynamicCode(t: TestApp, type: QrType, content: string, name = `My ${type}`) {
  owners += 1;
  const user = await insertTestUser(t.db, { username: `owner${owners}` });
  const row = await insertQrRow(t.db, { userId: user.id, type, content, name, isDynamic: true });
  return { row: row as QrCodeRow & { slug: string }, user };
}

export function cspNonce(res: Response): string {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  if (!nonce) throw new Error(`no script nonce in the CSP: ${csp}`);
  return nonce;
}

export function htmlOf(res: Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  return new JSDOM(res.body).window.document;
}

export function expectNotFoundPage(res: Response) {
  expect(res.statusCode).toBe(404);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toEqual(expect.any(String));
  const doc = htmlOf(res);
  expect(doc.querySelector('h1')?.textContent).toBe('This QR code is not active');
  expect(res.headers.location).toBeUndefined();
}

/** Expects the scan table to hold `before` rows still: the call recorded nothing. */
export async function expectNoScan(t: TestApp, before: number) {
  expect(await countRows(t.db, 'qr_scans')).toBe(before);
}

export function withConfig(getDb: () => TestDb, config: Partial<Config>) {
  return useTestApp(getDb, { config });
}
