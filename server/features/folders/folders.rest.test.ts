import { describe, expect, it } from 'vitest';
import type { Folder, QrCode } from '../../../src/qr/qr.schema.js';
import { findQrRow, insertFolderRow, insertQrRow } from '../../test/fixtures.js';
import {
  EVIL_ORIGIN,
  ISO_UTC,
  call,
  expectRestError,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';

async function snapshot(t: TestApp) {
  return {
    folders: await t.db.selectFrom('folders').selectAll().orderBy('id').execute(),
    codes: await t.db.selectFrom('qr_codes').select(['id', 'folder_id', 'user_id']).orderBy('id').execute(),
  };
}

describeEachDb('folder REST paths', (getDb) => {
  describe('GET /api/folders', () => {
    const t = useTestApp(getDb);

    it('lists only the caller’s folders, each with { id, name, created, qrCodeCount }', async () => {
      const me = await signedInUser(t(), 'lister');
      const other = await signedInUser(t(), 'neighbour');
      const work = await insertFolderRow(t().db, me.user.id, 'Work');
      const empty = await insertFolderRow(t().db, me.user.id, 'Archive');
      const theirs = await insertFolderRow(t().db, other.user.id, 'Their secret folder');
      await insertQrRow(t().db, { userId: me.user.id, folderId: work.id });
      await insertQrRow(t().db, { userId: me.user.id, folderId: work.id, isDynamic: true });
      await insertQrRow(t().db, { userId: me.user.id, folderId: null });
      await insertQrRow(t().db, { userId: other.user.id, folderId: theirs.id });

      const res = await call(t().app, 'GET', '/api/folders', { cookie: me.cookie });
      expect(res.statusCode).toBe(200);
      const folders = res.json<Folder[]>();
      expect(folders).toHaveLength(2);
      expect(res.body).not.toContain('Their secret folder');
      const byName = Object.fromEntries(folders.map((f) => [f.name, f]));
      expect(byName.Work).toEqual({
        id: work.id,
        name: 'Work',
        created: expect.stringMatching(ISO_UTC) as string,
        qrCodeCount: 2,
      });
      expect(byName.Archive).toEqual({
        id: empty.id,
        name: 'Archive',
        created: expect.stringMatching(ISO_UTC) as string,
        qrCodeCount: 0,
      });
      for (const f of folders) expect(typeof f.qrCodeCount).toBe('number');
    });

    it('answers an empty list for a user without folders', async () => {
      const { cookie } = await signedInUser(t(), 'nofolders');
      const res = await call(t().app, 'GET', '/api/folders', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('answers 401 when signed out', async () => {
      expectRestError(await call(t().app, 'GET', '/api/folders'), 401, 'NOT_SIGNED_IN');
    });
  });

  describe('POST /api/folders', () => {
    const t = useTestApp(getDb);

    it('answers 201 with the folder { id, name, created, qrCodeCount: 0 } owned by the caller', async () => {
      const { user, cookie } = await signedInUser(t(), 'creator');
      const res = await call(t().app, 'POST', '/api/folders', { cookie, json: { name: 'Campaigns' } });
      expect(res.statusCode, res.body).toBe(201);
      const folder = res.json<Folder>();
      expect(folder).toEqual({
        id: expect.any(Number) as number,
        name: 'Campaigns',
        created: t().clock.now().toISOString(),
        qrCodeCount: 0,
      });
      const row = await t()
        .db.selectFrom('folders')
        .selectAll()
        .where('id', '=', folder.id)
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBe(user.id);
      expect(row.name).toBe('Campaigns');

      const list = await call(t().app, 'GET', '/api/folders', { cookie });
      expect(list.json<Folder[]>().map((f) => f.id)).toEqual([folder.id]);
    });

    it('trims the name', async () => {
      const { cookie } = await signedInUser(t(), 'trimmer');
      const res = await call(t().app, 'POST', '/api/folders', { cookie, json: { name: '  Spaced out  ' } });
      expect(res.statusCode).toBe(201);
      expect(res.json<Folder>().name).toBe('Spaced out');
    });

    it('ignores fields a user may not set (userId, id)', async () => {
      const me = await signedInUser(t(), 'massassign');
      const victim = await signedInUser(t(), 'victim');
      const res = await call(t().app, 'POST', '/api/folders', {
        cookie: me.cookie,
        json: { name: 'Mine', userId: victim.user.id, user_id: victim.user.id, id: 4242 },
      });
      expect(res.statusCode).toBe(201);
      const folder = res.json<Folder>();
      expect(folder.id).not.toBe(4242);
      const row = await t()
        .db.selectFrom('folders')
        .selectAll()
        .where('id', '=', folder.id)
        .executeTakeFirstOrThrow();
      expect(row.user_id).toBe(me.user.id);
    });

    it.each([
      ['an empty name', { name: '' }, 'Folder name is required'],
      ['a whitespace-only name', { name: ' \t\n ' }, 'Folder name is required'],
      ['no name', {}, 'Folder name is required'],
      ['a 10 kB name', { name: 'f'.repeat(10 * 1024) }, 'Folder name must be at most 100 characters'],
      ['a 101-character name', { name: 'f'.repeat(101) }, 'Folder name must be at most 100 characters'],
      ['a numeric name', { name: 42 }, 'Folder name must be text'],
      ['a null name', { name: null }, 'Folder name must be text'],
      ['an array name', { name: ['Work'] }, 'Folder name must be text'],
      ['a JSON array body', [{ name: 'Work' }], 'Request body must be a JSON object'],
    ])('refuses %s with 400 and writes nothing', async (_n, json, message) => {
      const { cookie } = await signedInUser(t(), 'badfolder');
      const res = await call(t().app, 'POST', '/api/folders', { cookie, json });
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body.message).toBe(message);
      expect(await countRows(t().db, 'folders')).toBe(0);
    });

    it('accepts a name of exactly 100 characters', async () => {
      const { cookie } = await signedInUser(t(), 'longname');
      const res = await call(t().app, 'POST', '/api/folders', { cookie, json: { name: 'n'.repeat(100) } });
      expect(res.statusCode).toBe(201);
    });

    it.each([
      ['a form-encoded body', 'application/x-www-form-urlencoded', 'name=Work'],
      ['a text/plain body', 'text/plain', '{"name":"Work"}'],
    ])('refuses %s with 415 and writes nothing', async (_n, contentType, payload) => {
      const { cookie } = await signedInUser(t(), 'formpost');
      const res = await call(t().app, 'POST', '/api/folders', {
        cookie,
        payload,
        headers: { 'content-type': contentType },
      });
      expectRestError(res, 415);
      expect(await countRows(t().db, 'folders')).toBe(0);
    });

    it('answers 401 when signed out and writes nothing', async () => {
      const res = await call(t().app, 'POST', '/api/folders', { json: { name: 'Nobody' } });
      expectRestError(res, 401, 'NOT_SIGNED_IN');
      expect(await countRows(t().db, 'folders')).toBe(0);
    });

    it('refuses a cross-origin request with 403 and writes nothing', async () => {
      const { cookie } = await signedInUser(t(), 'csrffolder');
      const res = await call(t().app, 'POST', '/api/folders', {
        cookie,
        json: { name: 'Planted' },
        headers: { origin: EVIL_ORIGIN },
      });
      expectRestError(res, 403, 'CROSS_SITE_REFUSED');
      expect(await countRows(t().db, 'folders')).toBe(0);
    });
  });

  describe('DELETE /api/folders/{id}', () => {
    const t = useTestApp(getDb);

    it('deletes the folder and moves its codes to the root: they still exist with folderId null', async () => {
      const me = await signedInUser(t(), 'deleter');
      const folder = await insertFolderRow(t().db, me.user.id, 'Doomed');
      const keep = await insertFolderRow(t().db, me.user.id, 'Kept');
      const a = await insertQrRow(t().db, { userId: me.user.id, folderId: folder.id });
      const b = await insertQrRow(t().db, { userId: me.user.id, folderId: folder.id, isDynamic: true });
      const elsewhere = await insertQrRow(t().db, { userId: me.user.id, folderId: keep.id });
      const root = await insertQrRow(t().db, { userId: me.user.id });

      const res = await call(t().app, 'DELETE', `/api/folders/${folder.id}`, { cookie: me.cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) as string });

      expect(
        await t().db.selectFrom('folders').select('id').where('id', '=', folder.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(await countRows(t().db, 'qr_codes')).toBe(4);
      expect((await findQrRow(t().db, a.id))?.folder_id).toBeNull();
      expect((await findQrRow(t().db, b.id))?.folder_id).toBeNull();
      expect((await findQrRow(t().db, elsewhere.id))?.folder_id).toBe(keep.id);
      expect((await findQrRow(t().db, root.id))?.folder_id).toBeNull();

      // Through the API too: the codes are listed at the root, and the folder is gone from the list.
      const codes = (await call(t().app, 'GET', '/api/qr-codes', { cookie: me.cookie })).json<QrCode[]>();
      expect(codes.find((c) => c.id === a.id)?.folderId).toBeNull();
      expect(codes.find((c) => c.id === b.id)?.folderId).toBeNull();
      const folders = (await call(t().app, 'GET', '/api/folders', { cookie: me.cookie })).json<Folder[]>();
      expect(folders.map((f) => f.id)).toEqual([keep.id]);
    });

    it('deletes an empty folder', async () => {
      const me = await signedInUser(t(), 'emptyfolder');
      const folder = await insertFolderRow(t().db, me.user.id);
      const res = await call(t().app, 'DELETE', `/api/folders/${folder.id}`, { cookie: me.cookie });
      expect(res.statusCode).toBe(200);
      expect(await countRows(t().db, 'folders')).toBe(0);
    });

    it("answers 404 for another user's folder, like a missing one, and changes nothing", async () => {
      const me = await signedInUser(t(), 'intruder');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await insertFolderRow(t().db, owner.user.id, 'Private');
      await insertQrRow(t().db, { userId: owner.user.id, folderId: theirs.id });
      const before = await snapshot(t());

      const foreign = await call(t().app, 'DELETE', `/api/folders/${theirs.id}`, { cookie: me.cookie });
      const missing = await call(t().app, 'DELETE', '/api/folders/999999', { cookie: me.cookie });
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('Folder not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it('answers 404 the second time', async () => {
      const me = await signedInUser(t(), 'twice');
      const folder = await insertFolderRow(t().db, me.user.id);
      expect(
        (await call(t().app, 'DELETE', `/api/folders/${folder.id}`, { cookie: me.cookie })).statusCode,
      ).toBe(200);
      expectRestError(await call(t().app, 'DELETE', `/api/folders/${folder.id}`, { cookie: me.cookie }), 404);
    });

    it.each(['abc', '1.5', '0', '-3', '99999999999'])('answers 400 for the id %s', async (id) => {
      const me = await signedInUser(t(), 'badid');
      await insertFolderRow(t().db, me.user.id);
      const res = await call(t().app, 'DELETE', `/api/folders/${id}`, { cookie: me.cookie });
      expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(await countRows(t().db, 'folders')).toBe(1);
    });

    it('answers 401 when signed out and changes nothing', async () => {
      const owner = await signedInUser(t(), 'owner2');
      const folder = await insertFolderRow(t().db, owner.user.id);
      expectRestError(await call(t().app, 'DELETE', `/api/folders/${folder.id}`), 401, 'NOT_SIGNED_IN');
      expect(await countRows(t().db, 'folders')).toBe(1);
    });

    it('refuses a cross-origin request with 403 and changes nothing', async () => {
      const me = await signedInUser(t(), 'csrfdelete');
      const folder = await insertFolderRow(t().db, me.user.id);
      await insertQrRow(t().db, { userId: me.user.id, folderId: folder.id });
      const before = await snapshot(t());
      const res = await call(t().app, 'DELETE', `/api/folders/${folder.id}`, {
        cookie: me.cookie,
        headers: { origin: EVIL_ORIGIN },
      });
      expectRestError(res, 403, 'CROSS_SITE_REFUSED');
      expect(await snapshot(t())).toEqual(before);
    });
  });
});
