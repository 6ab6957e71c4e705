/**
 * Repeats in a bulk import (issue 29, item 8), and the plan-limit messages a Pro user reads (item 1):
 * POST /api/qr-codes/bulk/repeats says which rows repeat a code the caller has; POST /api/qr-codes/bulk
 * leaves them out with repeats "skip" and, for callers that do not say, creates them as it always did.
 */
import { describe, expect, it } from 'vitest';
import { limitReachedMessage } from '../../../src/plans.js';
import type { BulkCodeInput } from '../../../src/qr/bulk.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertManyQrRows, insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import type { BulkCreateAnswer } from '../../../src/qr/bulk.js';
import type { BulkRepeatsAnswer } from './bulk-repeats.js';

const code = (name: string, url: string, overrides: Partial<BulkCodeInput> = {}) => ({
  name,
  type: 'url',
  content: url,
  isDynamic: false,
  ...overrides,
});

const file = [
  code('Table 1', 'https://example.com/table/1', { isDynamic: true }),
  code('Table 2', 'https://example.com/table/2'),
  code('Table 3', 'https://example.com/table/3', { folder: 'Tables' }),
];

const post = (t: TestApp, cookie: string, path: string, json: unknown) =>
  call(t.app, 'POST', path, { cookie, json });

async function created(t: TestApp, cookie: string, body: unknown): Promise<BulkCreateAnswer> {
  const res = await post(t, cookie, '/api/qr-codes/bulk', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BulkCreateAnswer>();
}

const names = async (t: TestApp, cookie: string) =>
  (await call(t.app, 'GET', '/api/qr-codes', { cookie }))
    .json<QrCode[]>()
    .map((c) => c.name)
    .sort();

describeEachDb('bulk import repeats and plan messages', (getDb) => {
  const t = useTestApp(getDb);

  describe('POST /api/qr-codes/bulk/repeats', () => {
    it('names the rows whose name, type and content repeat one of the caller’s codes', async () => {
      const { user, cookie } = await signedInUser(t(), 'repeater', { subscriptionTier: 'pro' });
      const first = await created(t(), cookie, { codes: file });
      // Another user's identical code is not a repeat for this caller.
      const other = await signedInUser(t(), 'someone');
      await insertQrRow(t().db, { userId: other.user.id, name: 'Menu', content: 'https://example.com/menu' });
      // The same name with other content, or the same content under another name: not repeats.
      await insertQrRow(t().db, { userId: user.id, name: 'Table 4', content: 'https://example.com/other' });

      const res = await post(t(), cookie, '/api/qr-codes/bulk/repeats', {
        codes: [
          ...file,
          code('Table 4', 'https://example.com/table/4'),
          code('Renamed', 'https://example.com/table/1'),
          code('Menu', 'https://example.com/menu'),
          // Dynamic or static, folder or none: the same code for the person importing.
          code('Table 2', 'https://example.com/table/2', { isDynamic: true, folder: 'Elsewhere' }),
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<BulkRepeatsAnswer>()).toEqual({
        repeats: [
          { row: 0, id: first.created[0]!.id },
          { row: 1, id: first.created[1]!.id },
          { row: 2, id: first.created[2]!.id },
          { row: 6, id: first.created[1]!.id },
        ],
      });
      // It creates nothing.
      expect(await countRows(t().db, 'qr_codes')).toBe(5);
    });

    it('refuses a bad body naming the field, and a caller who is not signed in', async () => {
      const { cookie } = await signedInUser(t(), 'checker');
      const bad = expectRestError(await post(t(), cookie, '/api/qr-codes/bulk/repeats', { codes: [] }), 400);
      expect(bad.message).toContain('codes');
      expectRestError(await post(t(), '', '/api/qr-codes/bulk/repeats', { codes: file }), 401);
    });
  });

  describe('POST /api/qr-codes/bulk repeats', () => {
    it('with repeats "skip", importing the same file twice creates its codes once', async () => {
      const { cookie } = await signedInUser(t(), 'twice', { subscriptionTier: 'pro' });
      const first = await created(t(), cookie, { codes: file, repeats: 'skip' });
      expect(first.created).toHaveLength(3);
      expect(first.repeated).toEqual([]);

      // The same file with one new row: only the new one is created; the others name the code they repeat.
      const again = await created(t(), cookie, {
        codes: [...file, code('Table 4', 'https://example.com/table/4')],
        repeats: 'skip',
      });
      expect(again.created.map((c) => [c.name, c.row])).toEqual([['Table 4', 3]]);
      expect(again.repeated).toEqual(first.created.map((c) => ({ row: c.row, id: c.id })));
      expect(again.skipped).toEqual([]);
      expect(await names(t(), cookie)).toEqual(['Table 1', 'Table 2', 'Table 3', 'Table 4']);
    });

    it('creates repeats when told "create", and when not told (as the path always did)', async () => {
      const { cookie } = await signedInUser(t(), 'anyway', { subscriptionTier: 'pro' });
      await created(t(), cookie, { codes: file });
      const told = await created(t(), cookie, { codes: file, repeats: 'create' });
      expect(told.created).toHaveLength(3);
      expect(told.repeated).toEqual([]);
      const untold = await created(t(), cookie, { codes: file });
      expect(untold.created).toHaveLength(3);
      expect(await countRows(t().db, 'qr_codes')).toBe(9);
    });

    it('counts only the rows it creates against the plan: a free user may import a full file again', async () => {
      const { cookie } = await signedInUser(t(), 'fullfree');
      await created(t(), cookie, { codes: file });
      // At 3 of 3: the same file again is no 403, since nothing would be added.
      const again = await created(t(), cookie, { codes: file, repeats: 'skip' });
      expect(again).toMatchObject({ created: [], skipped: [], currentCount: 3, maxCount: 3 });
      expect(again.repeated.map((r) => r.row)).toEqual([0, 1, 2]);
      // One new row among the repeats: the plan is full, the same 403 as a single create.
      const res = await post(t(), cookie, '/api/qr-codes/bulk', {
        codes: [...file, code('Table 4', 'https://example.com/table/4')],
        repeats: 'skip',
      });
      expect(expectRestError(res, 403)).toMatchObject({
        message: limitReachedMessage(3),
        limitReached: true,
        currentCount: 3,
        maxCount: 3,
      });
    });

    it('refuses a repeats value it does not know, naming the field', async () => {
      const { cookie } = await signedInUser(t(), 'badchoice');
      const body = expectRestError(
        await post(t(), cookie, '/api/qr-codes/bulk', { codes: file, repeats: 'maybe' }),
        400,
      );
      expect(JSON.stringify(body)).toContain('repeats');
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });
  });

  describe('the plan-limit message offers the next plan up', () => {
    it('tells a Pro user at 100 of 100 to upgrade to Premium, on a single and a bulk create', async () => {
      const { user, cookie } = await signedInUser(t(), 'prolimit', { subscriptionTier: 'pro' });
      await insertManyQrRows(t().db, user.id, 100);
      const one = expectRestError(
        await post(t(), cookie, '/api/qr-codes', {
          name: 'One more',
          type: 'url',
          content: 'https://example.com',
        }),
        403,
      );
      expect(one).toMatchObject({ limitReached: true, currentCount: 100, maxCount: 100 });
      expect(one.message).toBe(
        'QR code limit reached. Your plan allows 100 QR codes: upgrade to Premium for unlimited QR codes.',
      );
      const many = expectRestError(await post(t(), cookie, '/api/qr-codes/bulk', { codes: file }), 403);
      expect(many.message).toBe(one.message);
    });

    it('tells a Pro user whose file does not fit to upgrade to Premium', async () => {
      const { user, cookie } = await signedInUser(t(), 'pronearly', { subscriptionTier: 'pro' });
      await insertManyQrRows(t().db, user.id, 99);
      const body = expectRestError(await post(t(), cookie, '/api/qr-codes/bulk', { codes: file }), 403);
      expect(body.message).toBe(
        'These 3 QR codes do not fit: your plan allows 100 QR codes and you have 99. Create at most 1, or upgrade to Premium.',
      );
    });

    it('keeps the Free plan’s words', async () => {
      const { user, cookie } = await signedInUser(t(), 'freelimit');
      await insertManyQrRows(t().db, user.id, 3);
      const body = expectRestError(
        await post(t(), cookie, '/api/qr-codes', {
          name: 'Four',
          type: 'url',
          content: 'https://example.com',
        }),
        403,
      );
      expect(body.message).toBe(limitReachedMessage(3));
      expect(body.message).toContain('upgrade to Pro');
    });
  });
});
