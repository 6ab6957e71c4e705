import { describe, expect, it } from 'vitest';
import { limitReachedMessage } from '../../../src/plans.js';
import type { BulkCodeInput, BulkCreateAnswer } from '../../../src/qr/bulk.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertFolderRow, insertManyQrRows, storedCustomization } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  signedInUser,
  useTestApp,
  type PlanFields,
  type TestApp,
} from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { snapshot } from './qr.test-helpers.js';

const PATH = '/api/qr-codes/bulk';

function code(overrides: Partial<BulkCodeInput> = {}): Partial<BulkCodeInput> {
  return { name: 'Menu', type: 'url', content: 'https://example.com/menu', isDynamic: false, ...overrides };
}

function bulk(t: TestApp, cookie: string, body: unknown) {
  return call(t.app, 'POST', PATH, { cookie, json: body });
}

async function created(t: TestApp, cookie: string, body: unknown): Promise<BulkCreateAnswer> {
  const res = await bulk(t, cookie, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BulkCreateAnswer>();
}

async function userOf(t: TestApp, username: string, plan: PlanFields = {}) {
  return signedInUser(t, username, plan);
}

describeEachDb('bulk creation REST paths', (getDb) => {
  describe('POST /api/qr-codes/bulk', () => {
    const t = useTestApp(getDb);

    it('creates every code in one call, with the design, kinds and folders given', async () => {
      const { user, cookie } = await userOf(t(), 'maker', { subscriptionTier: 'pro' });
      const posters = await insertFolderRow(t().db, user.id, 'Posters');
      const root = await insertFolderRow(t().db, user.id, 'Imported');
      const answer = await created(t(), cookie, {
        codes: [
          code({ name: 'Menu', isDynamic: true, folder: 'posters' }),
          code({
            name: 'Guest Wi-Fi',
            type: 'wifi',
            content: 'WIFI:T:WPA;S:Guests;P:welcome;;',
            folder: 'New folder',
          }),
          code({ name: 'Flyer', content: 'https://example.com/flyer', isDynamic: true }),
          code({
            name: 'Card',
            type: 'vcard',
            content: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nEND:VCARD',
            folder: 'NEW FOLDER',
          }),
        ],
        customization: { foregroundColor: '#1A237E', style: 'dots' },
        folderId: root.id,
      });
      const folders = await t()
        .db.selectFrom('folders')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute();
      expect(folders.map((f) => f.name)).toEqual(['Posters', 'Imported', 'New folder']);
      const newFolder = folders[2]!.id;
      expect(answer).toEqual({
        created: [
          {
            id: expect.any(Number) as number,
            name: 'Menu',
            type: 'url',
            isDynamic: true,
            folderId: posters.id,
            shortUrl: expect.stringMatching(/\/r\/[A-Za-z0-9]{7}$/) as string,
            row: 0,
          },
          {
            id: expect.any(Number) as number,
            name: 'Guest Wi-Fi',
            type: 'wifi',
            isDynamic: false,
            folderId: newFolder,
            shortUrl: null,
            row: 1,
          },
          {
            id: expect.any(Number) as number,
            name: 'Flyer',
            type: 'url',
            isDynamic: true,
            folderId: root.id,
            shortUrl: expect.any(String) as string,
            row: 2,
          },
          {
            id: expect.any(Number) as number,
            name: 'Card',
            type: 'vcard',
            isDynamic: false,
            folderId: newFolder,
            shortUrl: null,
            row: 3,
          },
        ],
        skipped: [],
        repeated: [],
        currentCount: 4,
        maxCount: 100,
      });
      // Each is a code like any other: listed, with its design and short link.
      const list = (await call(t().app, 'GET', '/api/qr-codes', { cookie })).json<QrCode[]>();
      expect(list).toHaveLength(4);
      for (const item of answer.created) {
        const listed = list.find((c) => c.id === item.id)!;
        expect(listed).toMatchObject({
          name: item.name,
          isDynamic: item.isDynamic,
          folderId: item.folderId,
          shortUrl: item.shortUrl,
        });
        expect(listed.customization).toMatchObject({ foregroundColor: '#1A237E', style: 'dots' });
      }
      const rows = await t().db.selectFrom('qr_codes').selectAll().execute();
      expect(rows.map(storedCustomization)).toEqual(
        Array(4).fill(expect.objectContaining({ foregroundColor: '#1A237E' })),
      );
    });

    it('refuses the whole call when one row is invalid, naming its row and field, and creates nothing', async () => {
      const { cookie } = await userOf(t(), 'careful', { subscriptionTier: 'premium' });
      const before = await snapshot(t());
      const res = await bulk(t(), cookie, {
        codes: [
          code({ folder: 'Should not exist' }),
          code({ name: 'Two' }),
          code({ name: 'Three', type: 'email', content: 'mailto:not-an-address' }),
          code({ name: 'Four', content: 'javascript:alert(1)' }),
        ],
      });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.issues).toEqual([
        { path: 'codes.2.content', message: 'Row 3: Email must be a valid email address' },
        { path: 'codes.3.content', message: 'Row 4: URL must be a valid URL' },
      ]);
      expect(body.message).toBe('codes.2.content: Row 3: Email must be a valid email address');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses rows whose shape is wrong with the row number in the message', async () => {
      const { cookie } = await userOf(t(), 'shapes');
      const body = expectRestError(
        await bulk(t(), cookie, {
          codes: [code(), code({ name: '  ' }), code({ content: 'x'.repeat(4001) })],
        }),
        400,
      );
      expect(body.message).toBe('Row 2: Name is required');
      expect(body.issues).toEqual([
        { path: 'codes.1.name', message: 'Row 2: Name is required' },
        { path: 'codes.2.content', message: 'Row 3: Content must be at most 4000 characters' },
      ]);
      expect(expectRestError(await bulk(t(), cookie, { codes: [] }), 400).message).toBe(
        'codes must hold at least one code',
      );
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('checks what a single create checks: no own short links, no local address behind a dynamic link', async () => {
      const { cookie } = await userOf(t(), 'loops', { subscriptionTier: 'premium' });
      const body = expectRestError(
        await bulk(t(), cookie, {
          codes: [
            code({ isDynamic: true, content: `${t().config.publicUrl}/r/abcdefg` }),
            code({ isDynamic: true, content: 'http://127.0.0.1:8080/admin' }),
            // A static code may point to a local address (printed for an intranet).
            code({ isDynamic: false, content: 'http://192.168.1.10/' }),
          ],
        }),
        400,
      );
      expect(body.issues).toEqual([
        { path: 'codes.0.content', message: 'Row 1: A dynamic QR code cannot point to its own short link' },
        {
          path: 'codes.1.content',
          message: 'Row 2: A dynamic QR code cannot point to a local or private address',
        },
      ]);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it('takes a body larger than the app’s usual 1 MiB (600 long rows)', async () => {
      const { cookie } = await userOf(t(), 'large', { subscriptionTier: 'premium' });
      const rows = Array.from({ length: 600 }, (_, i) =>
        code({ name: `Note ${i}`, type: 'text', content: `${i} ${'x'.repeat(1990)}` }),
      );
      // The last row is refused, so nothing is created (and nothing waits for a scan check afterwards).
      rows.push(code({ content: 'not a url' }));
      const res = await bulk(t(), cookie, { codes: rows });
      expect(JSON.stringify({ codes: rows }).length).toBeGreaterThan(1024 * 1024);
      expect(expectRestError(res, 400).issues).toEqual([
        { path: 'codes.600.content', message: 'Row 601: URL must be a valid URL' },
      ]);
    });

    it('keeps a free user to the plan: all or nothing (403, as a single create), or the first that fit', async () => {
      expect(t().config.freePlanLimit).toBe(3);
      const { user, cookie } = await userOf(t(), 'free');
      await insertManyQrRows(t().db, user.id, 1);
      const four = {
        codes: [
          code({ name: 'A' }),
          code({ name: 'B', folder: 'F' }),
          code({ name: 'C', folder: 'G' }),
          code({ name: 'D' }),
        ],
      };
      const before = await snapshot(t());
      const refused = await bulk(t(), cookie, four);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({
        message:
          'These 4 QR codes do not fit: your plan allows 3 QR codes and you have 1. Create at most 2, or upgrade to Pro.',
        code: 'LIMIT_REACHED',
        limitReached: true,
        currentCount: 1,
        maxCount: 3,
      });
      expect(await snapshot(t())).toEqual(before);

      const partial = await created(t(), cookie, { ...four, allOrNothing: false });
      expect(partial.created.map((c) => [c.name, c.row])).toEqual([
        ['A', 0],
        ['B', 1],
      ]);
      expect(partial.skipped).toEqual([
        { row: 2, message: "Over your plan's limit of 3 QR codes" },
        { row: 3, message: "Over your plan's limit of 3 QR codes" },
      ]);
      expect([partial.currentCount, partial.maxCount]).toEqual([3, 3]);
      // Only the folders of created codes exist.
      expect((await t().db.selectFrom('folders').select('name').execute()).map((f) => f.name)).toEqual(['F']);
      expect(await countRows(t().db, 'qr_codes')).toBe(3);

      // Full: the same 403 as POST /api/qr-codes, with or without allOrNothing (a 201 that created
      // nothing would read as a success to a script).
      const limitRefusal = {
        message: limitReachedMessage(3),
        code: 'LIMIT_REACHED',
        limitReached: true,
        currentCount: 3,
        maxCount: 3,
      };
      const full = await bulk(t(), cookie, { codes: [code()] });
      expect(full.statusCode).toBe(403);
      expect(full.json()).toEqual(limitRefusal);
      const none = await bulk(t(), cookie, { codes: [code(), code()], allOrNothing: false });
      expect(none.statusCode).toBe(403);
      expect(none.json()).toEqual(limitRefusal);
      expect(await countRows(t().db, 'qr_codes')).toBe(3);
    });

    it('holds the limit when bulk calls and single creates arrive at once', async () => {
      const { cookie } = await userOf(t(), 'racer');
      const results = await Promise.all([
        bulk(t(), cookie, { codes: [code({ name: 'A1' }), code({ name: 'A2' })] }),
        bulk(t(), cookie, { codes: [code({ name: 'B1' }), code({ name: 'B2' })] }),
        call(t().app, 'POST', '/api/qr-codes', {
          cookie,
          json: { name: 'C', type: 'url', content: 'https://example.com' },
        }),
      ]);
      expect(results.map((r) => r.statusCode).filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      expect(await countRows(t().db, 'qr_codes')).toBeLessThanOrEqual(3);
      // What was answered is what was written.
      const written = results
        .filter((r) => r.statusCode === 201)
        .map((r) => r.json<{ created: unknown }>().created)
        // The single create's `created` is its timestamp.
        .reduce<number>((n, made) => n + (Array.isArray(made) ? made.length : 1), 0);
      expect(await countRows(t().db, 'qr_codes')).toBe(written);
    });

    it("puts the dynamic codes' links on a short domain the workspace may use, and refuses another", async () => {
      const { user, cookie } = await userOf(t(), 'maker', { subscriptionTier: 'pro' });
      const domain = await t()
        .db.insertInto('short_domains')
        .values({ hostname: 'go.bulk.test', all_workspaces: false, created: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const codes = [code({ name: 'Menu', isDynamic: true }), code({ name: 'Plain' })];
      const before = await snapshot(t());
      const refused = expectRestError(await bulk(t(), cookie, { codes, domainId: domain.id }), 400);
      expect(refused.message).toBe('This domain is not available in this workspace');
      expect(await snapshot(t())).toEqual(before);
      await t()
        .db.insertInto('short_domain_workspaces')
        .values({ domain_id: domain.id, workspace_id: user.id })
        .execute();
      const answer = await created(t(), cookie, { codes, domainId: domain.id });
      expect(answer.created.map((c) => c.shortUrl?.replace(/[^/]+$/, '') ?? null)).toEqual([
        'http://go.bulk.test/',
        null,
      ]);
      const slug = answer.created[0]!.shortUrl!.split('/').pop()!;
      const scan = await call(t().app, 'GET', `/${slug}`, { headers: { host: 'go.bulk.test' } });
      expect(scan.statusCode).toBe(302);
    });

    it('puts codes without a folder in folderId, which must be the caller’s own (404 otherwise)', async () => {
      const { user, cookie } = await userOf(t(), 'owner', { subscriptionTier: 'pro' });
      const other = await userOf(t(), 'other');
      const theirs = await insertFolderRow(t().db, other.user.id, 'Theirs');
      const before = await snapshot(t());
      const res = await bulk(t(), cookie, { codes: [code({ folder: 'Mine' })], folderId: theirs.id });
      expect(expectRestError(res, 404, 'NOT_FOUND').message).toBe('Folder not found');
      expect(await snapshot(t())).toEqual(before);
      // A folder of the same name as another user's is the caller's own, new one.
      const answer = await created(t(), cookie, { codes: [code({ folder: 'Theirs' })] });
      const folder = await t()
        .db.selectFrom('folders')
        .selectAll()
        .where('id', '=', answer.created[0]!.folderId!)
        .executeTakeFirstOrThrow();
      expect([folder.user_id, folder.name]).toEqual([user.id, 'Theirs']);
    });

    it(
      'creates 1,000 codes in one call, each dynamic one with its own slug',
      { timeout: 60_000 },
      async () => {
        const { user, cookie } = await userOf(t(), 'thousand', { subscriptionTier: 'premium' });
        const codes = Array.from({ length: 1000 }, (_, i) =>
          code({
            name: `Code ${i}`,
            content: `https://example.com/${i}`,
            isDynamic: i % 4 !== 0,
            folder: `Batch ${i % 3}`,
          }),
        );
        const answer = await created(t(), cookie, { codes });
        expect(answer.created).toHaveLength(1000);
        expect(answer.created.map((c) => c.row)).toEqual(codes.map((_, i) => i));
        expect(answer.created.map((c) => c.name)).toEqual(codes.map((c) => c.name));
        expect([answer.currentCount, answer.maxCount]).toEqual([1000, null]);
        const rows = await t()
          .db.selectFrom('qr_codes')
          .selectAll()
          .where('user_id', '=', user.id)
          .orderBy('id')
          .execute();
        expect(rows).toHaveLength(1000);
        expect(rows.map((r) => r.content)).toEqual(codes.map((c) => c.content));
        const slugs = rows.filter((r) => r.is_dynamic).map((r) => r.slug);
        expect(slugs).toHaveLength(750);
        expect(new Set(slugs).size).toBe(750);
        expect(rows.filter((r) => !r.is_dynamic).every((r) => r.slug === null)).toBe(true);
        expect(await countRows(t().db, 'folders')).toBe(3);
        // The short links answer at once.
        const first = answer.created.find((c) => c.isDynamic)!;
        const redirect = await call(t().app, 'GET', new URL(first.shortUrl!).pathname);
        expect([redirect.statusCode, redirect.headers.location]).toEqual([302, 'https://example.com/1']);
      },
    );

    it('is the procedure qr.bulkCreate', async () => {
      const { user } = await userOf(t(), 'trpc');
      const answer = await callerFor(t(), user).qr.bulkCreate({
        codes: [{ name: 'Menu', type: 'url', content: 'https://example.com' }],
      });
      expect(answer).toMatchObject({
        created: [{ name: 'Menu', row: 0, isDynamic: false }],
        skipped: [],
        currentCount: 1,
        maxCount: 3,
      });
    });
  });
});
