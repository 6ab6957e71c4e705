import { TRPCError } from '@trpc/server';
import { expect, it } from 'vitest';
import { findQrRow, insertFolderRow, insertQrRow } from '../../test/fixtures.js';
import { callerFor, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

/** Every folder and the folder of every code, to show that a refused call changed nothing. */
async function snapshot(t: TestApp) {
  return {
    folders: await t.db.selectFrom('folders').selectAll().orderBy('id').execute(),
    codes: await t.db.selectFrom('qr_codes').select(['id', 'folder_id', 'user_id']).orderBy('id').execute(),
  };
}

/** The folder procedures called in-process (createCaller), without HTTP in between. */
describeEachDb('folder rules at the tRPC procedures', (getDb) => {
  const t = useTestApp(getDb);

  it('create trims the name; list answers only the caller’s folders, by name, with numeric code counts', async () => {
    const me = await signedInUser(t(), 'organiser');
    const other = await signedInUser(t(), 'neighbour');
    const mine = callerFor(t(), me.user);
    const zeta = await mine.folders.create({ name: '  Zeta  ' });
    expect(zeta).toMatchObject({ name: 'Zeta', qrCodeCount: 0 });
    const alpha = await mine.folders.create({ name: 'Alpha' });
    await callerFor(t(), other.user).folders.create({ name: 'Beta (not mine)' });
    await insertQrRow(t().db, { userId: me.user.id, folderId: zeta.id });
    await insertQrRow(t().db, { userId: me.user.id, folderId: zeta.id, isDynamic: true });
    await insertQrRow(t().db, { userId: me.user.id, folderId: null });

    const folders = await mine.folders.list();
    expect(folders.map((f) => [f.id, f.name, f.qrCodeCount])).toEqual([
      [alpha.id, 'Alpha', 0],
      [zeta.id, 'Zeta', 2],
    ]);
    // A number on both databases (a PostgreSQL count arrives as a string unless converted).
    for (const f of folders) expect(typeof f.qrCodeCount).toBe('number');
  });

  it('delete moves the folder’s codes to the root, keeps them, and leaves other folders alone', async () => {
    const me = await signedInUser(t(), 'tidier');
    const doomed = await insertFolderRow(t().db, me.user.id, 'Old campaign');
    const kept = await insertFolderRow(t().db, me.user.id, 'Current');
    const inDoomed = await insertQrRow(t().db, { userId: me.user.id, folderId: doomed.id });
    const inKept = await insertQrRow(t().db, { userId: me.user.id, folderId: kept.id });

    const answer = await callerFor(t(), me.user).folders.delete({ id: doomed.id });
    expect(answer.success).toBe(true);
    expect((await findQrRow(t().db, inDoomed.id))?.folder_id).toBeNull();
    expect((await findQrRow(t().db, inKept.id))?.folder_id).toBe(kept.id);
    const left = await t().db.selectFrom('folders').select('id').execute();
    expect(left.map((f) => f.id)).toEqual([kept.id]);
  });

  it("delete of another user's folder is NOT_FOUND, like a missing one, and changes nothing", async () => {
    const me = await signedInUser(t(), 'intruder');
    const owner = await signedInUser(t(), 'owner');
    const theirs = await insertFolderRow(t().db, owner.user.id, 'Private');
    await insertQrRow(t().db, { userId: owner.user.id, folderId: theirs.id });
    const before = await snapshot(t());

    const caller = callerFor(t(), me.user);
    for (const id of [theirs.id, theirs.id + 1000]) {
      const refused = caller.folders.delete({ id });
      await expect(refused).rejects.toBeInstanceOf(TRPCError);
      await expect(refused).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Folder not found' });
    }
    expect(await snapshot(t())).toEqual(before);
  });

  it("a code goes only into its owner's folders: qr.move and qr.update refuse another user's folder", async () => {
    const me = await signedInUser(t(), 'mover');
    const owner = await signedInUser(t(), 'folder-owner');
    const theirs = await insertFolderRow(t().db, owner.user.id, 'Not yours');
    const code = await insertQrRow(t().db, { userId: me.user.id, isDynamic: true });
    const before = await snapshot(t());

    const caller = callerFor(t(), me.user);
    await expect(caller.qr.move({ id: code.id, folderId: theirs.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Folder not found',
    });
    await expect(caller.qr.update({ id: code.id, folderId: theirs.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Folder not found',
    });
    expect(await snapshot(t())).toEqual(before);
  });

  it('signed out, every folder procedure is UNAUTHORIZED and nothing is written', async () => {
    const owner = await signedInUser(t(), 'someone');
    const folder = await insertFolderRow(t().db, owner.user.id, 'Theirs');
    const before = await snapshot(t());
    const anonymous = callerFor(t(), null);
    await expect(anonymous.folders.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(anonymous.folders.create({ name: 'Sneaky' })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await expect(anonymous.folders.delete({ id: folder.id })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await snapshot(t())).toEqual(before);
  });
});
