import { describe, expect, it } from 'vitest';
import type { Folder, QrCode } from '../../../src/qr/qr.schema.js';
import { findQrRow, insertFolderRow, insertScans } from '../../test/fixtures.js';
import { EVIL_ORIGIN, call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { badIds, createCode, snapshot } from './qr.test-helpers.js';

describeEachDb('QR code REST paths', (getDb) => {
  describe('PATCH /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function patch(
      id: number | string,
      cookie: string | undefined,
      json: unknown,
      headers?: Record<string, string>,
    ) {
      return call(t().app, 'PATCH', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        json,
        ...(headers ? { headers } : {}),
      });
    }

    it('moves a code into the caller’s folder and back to the root (null)', async () => {
      const { user, cookie } = await signedInUser(t(), 'mover');
      const folder = await insertFolderRow(t().db, user.id, 'Target');
      const code = await createCode(t(), cookie);

      const moved = await patch(code.id, cookie, { folderId: folder.id });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<QrCode>()).toMatchObject({ id: code.id, folderId: folder.id, name: code.name });
      expect((await findQrRow(t().db, code.id))?.folder_id).toBe(folder.id);
      const folders = (await call(t().app, 'GET', '/api/folders', { cookie })).json<Folder[]>();
      expect(folders[0]?.qrCodeCount).toBe(1);

      const back = await patch(code.id, cookie, { folderId: null });
      expect(back.statusCode).toBe(200);
      expect(back.json<QrCode>().folderId).toBeNull();
      expect((await findQrRow(t().db, code.id))?.folder_id).toBeNull();
    });

    it('moves static codes too (moving is not editing)', async () => {
      const { user, cookie } = await signedInUser(t(), 'staticmover');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie, { isDynamic: false });
      const res = await patch(code.id, cookie, { folderId: folder.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({
        folderId: folder.id,
        isDynamic: false,
        content: code.content,
      });
    });

    it('changes nothing but the folder, even when the body names other fields', async () => {
      const { user, cookie } = await signedInUser(t(), 'onlyfolder');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie, { isDynamic: false });
      const res = await patch(code.id, cookie, {
        folderId: folder.id,
        name: 'Sneaky rename',
        content: 'https://evil.example',
        type: 'text',
      });
      expect(res.statusCode).toBe(200);
      const row = (await findQrRow(t().db, code.id))!;
      expect(row.name).toBe(code.name);
      expect(row.content).toBe(code.content);
      expect(row.type).toBe('url');
      expect(row.folder_id).toBe(folder.id);
    });

    it("answers 404 for another user's folder (or a missing one), the code stays where it was", async () => {
      const me = await signedInUser(t(), 'patchintruder');
      const owner = await signedInUser(t(), 'folderowner');
      const theirs = await insertFolderRow(t().db, owner.user.id);
      const code = await createCode(t(), me.cookie);
      const before = await snapshot(t());
      const foreign = await patch(code.id, me.cookie, { folderId: theirs.id });
      const missing = await patch(code.id, me.cookie, { folderId: 999_999 });
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('Folder not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it("answers 404 for another user's code, even into the caller's own folder", async () => {
      const me = await signedInUser(t(), 'codethief');
      const owner = await signedInUser(t(), 'codeowner');
      const mine = await insertFolderRow(t().db, me.user.id);
      const theirs = await createCode(t(), owner.cookie);
      const before = await snapshot(t());
      expectRestError(await patch(theirs.id, me.cookie, { folderId: mine.id }), 404, 'NOT_FOUND');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each([
      ['no folderId', {}, 'folderId is required (null for the root)'],
      ['folderId as a string', { folderId: '3' }, 'Folder must be a folder id or null'],
      ['folderId 0', { folderId: 0 }, 'Folder must be a folder id or null'],
      // Any 400 will do here: the array is refused one way or another and nothing moves.
      ['a JSON array body', [{ folderId: null }], /JSON object|folderId is required/],
    ] as [string, unknown, string | RegExp][])(
      'refuses %s with 400, nothing changes',
      async (_n, json, message) => {
        const { user, cookie } = await signedInUser(t(), 'badpatch');
        const folder = await insertFolderRow(t().db, user.id);
        const code = await createCode(t(), cookie, { folderId: folder.id });
        const before = await snapshot(t());
        const res = await patch(code.id, cookie, json);
        expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toMatch(message);
        expect(await snapshot(t())).toEqual(before);
      },
    );

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badpatchid');
      const res = await patch(id, cookie, { folderId: null });
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toBe(message);
    });

    it('answers 401 when signed out and refuses a cross-origin move with 403', async () => {
      const { user, cookie } = await signedInUser(t(), 'patchguard');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await patch(code.id, undefined, { folderId: folder.id }), 401, 'NOT_SIGNED_IN');
      expectRestError(await patch(code.id, cookie, { folderId: folder.id }, { origin: EVIL_ORIGIN }), 403);
      expect(await snapshot(t())).toEqual(before);
    });
  });

  describe('DELETE /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function del(id: number | string, cookie?: string, headers?: Record<string, string>) {
      return call(t().app, 'DELETE', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        ...(headers ? { headers } : {}),
      });
    }

    it('deletes the code and its scans; other codes and their scans stay', async () => {
      const { cookie } = await signedInUser(t(), 'remover');
      const doomed = await createCode(t(), cookie);
      const kept = await createCode(t(), cookie, { name: 'Kept' });
      await insertScans(t().db, doomed.id, 4);
      await insertScans(t().db, kept.id, 2);

      const res = await del(doomed.id, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) as string });
      expect(await findQrRow(t().db, doomed.id)).toBeUndefined();
      expect(
        await t().db.selectFrom('qr_scans').select('id').where('qr_code_id', '=', doomed.id).execute(),
      ).toEqual([]);
      expect(await findQrRow(t().db, kept.id)).toBeDefined();
      expect(await countRows(t().db, 'qr_scans')).toBe(2);
      expectRestError(await call(t().app, 'GET', `/api/qr-codes/${doomed.id}`, { cookie }), 404);
    });

    it('deletes a static code', async () => {
      const { cookie } = await signedInUser(t(), 'staticdel');
      const code = await createCode(t(), cookie, { isDynamic: false });
      expect((await del(code.id, cookie)).statusCode).toBe(200);
      expect(await countRows(t().db, 'qr_codes')).toBe(0);
    });

    it("answers 404 for another user's code, like a missing one, and deletes nothing", async () => {
      const me = await signedInUser(t(), 'vandal');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie);
      await insertScans(t().db, theirs.id, 3);
      const before = await snapshot(t());
      const foreign = await del(theirs.id, me.cookie);
      const missing = await del(123_456, me.cookie);
      expectRestError(foreign, 404, 'NOT_FOUND');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it('answers 404 the second time', async () => {
      const { cookie } = await signedInUser(t(), 'twice');
      const code = await createCode(t(), cookie);
      expect((await del(code.id, cookie)).statusCode).toBe(200);
      expectRestError(await del(code.id, cookie), 404, 'NOT_FOUND');
    });

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'baddelid');
      await createCode(t(), cookie);
      expect(expectRestError(await del(id, cookie), 400, 'VALIDATION_FAILED').message).toBe(message);
      expect(await countRows(t().db, 'qr_codes')).toBe(1);
    });

    it('answers 401 when signed out and refuses a cross-origin delete with 403; nothing is deleted', async () => {
      const { cookie } = await signedInUser(t(), 'delguard');
      const code = await createCode(t(), cookie);
      await insertScans(t().db, code.id, 2);
      const before = await snapshot(t());
      expectRestError(await del(code.id), 401, 'NOT_SIGNED_IN');
      expectRestError(await del(code.id, cookie, { origin: EVIL_ORIGIN }), 403, 'CROSS_SITE_REFUSED');
      expectRestError(await del(code.id, cookie, { 'sec-fetch-site': 'cross-site' }), 403);
      expect(await snapshot(t())).toEqual(before);
    });
  });
});
