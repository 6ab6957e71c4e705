import { expect, it } from 'vitest';
import { findQrRow, insertQrRow } from '../../test/fixtures.js';
import { callerFor, signedInUser, useTestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';

/** qr procedures called in-process (createCaller): who may change which code. */
describeEachDb('qr.update and qr.delete owner checks at the tRPC procedures', (getDb) => {
  const t = useTestApp(getDb);

  it("qr.update of another user's code is NOT_FOUND, like a missing id, and the code keeps every field", async () => {
    const owner = await signedInUser(t(), 'owner');
    const intruder = await signedInUser(t(), 'intruder');
    const code = await insertQrRow(t().db, {
      userId: owner.user.id,
      name: 'Menu',
      content: 'https://example.com/menu',
      isDynamic: true,
    });
    const caller = callerFor(t(), intruder.user);
    const change = { name: 'Hijacked', content: 'https://evil.example/' };
    const foreign = caller.qr.update({ id: code.id, ...change });
    await expect(foreign).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'QR code not found' });
    await expect(caller.qr.update({ id: code.id + 1000, ...change })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'QR code not found',
    });
    expect(await findQrRow(t().db, code.id)).toEqual(code);
  });

  it('qr.update lets the owner change name and content, and stamps `updated` from the app clock', async () => {
    const owner = await signedInUser(t(), 'editor');
    const code = await insertQrRow(t().db, {
      userId: owner.user.id,
      content: 'https://example.com/old',
      isDynamic: true,
      created: '2026-01-01T00:00:00.000Z',
    });
    t().clock.set(new Date('2026-06-01T10:00:00.000Z'));
    const updated = await callerFor(t(), owner.user).qr.update({
      id: code.id,
      name: '  Renamed  ',
      content: 'https://example.com/new',
    });
    expect(updated).toMatchObject({
      id: code.id,
      userId: owner.user.id,
      name: 'Renamed',
      content: 'https://example.com/new',
      updated: '2026-06-01T10:00:00.000Z',
    });
    expect(await findQrRow(t().db, code.id)).toMatchObject({
      name: 'Renamed',
      content: 'https://example.com/new',
    });
  });

  it('qr.update refuses a static code (FORBIDDEN) even for its owner; qr.move still moves it', async () => {
    const owner = await signedInUser(t(), 'static-owner');
    const code = await insertQrRow(t().db, { userId: owner.user.id, name: 'Printed', isDynamic: false });
    const caller = callerFor(t(), owner.user);
    await expect(caller.qr.update({ id: code.id, name: 'Changed' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await findQrRow(t().db, code.id))?.name).toBe('Printed');
    const folder = await caller.folders.create({ name: 'Print' });
    expect((await caller.qr.move({ id: code.id, folderId: folder.id })).folderId).toBe(folder.id);
  });

  it("qr.delete of another user's code is NOT_FOUND and deletes nothing", async () => {
    const owner = await signedInUser(t(), 'keeper');
    const intruder = await signedInUser(t(), 'deleter');
    const code = await insertQrRow(t().db, { userId: owner.user.id });
    await expect(callerFor(t(), intruder.user).qr.delete({ id: code.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await countRows(t().db, 'qr_codes')).toBe(1);
    await expect(callerFor(t(), owner.user).qr.delete({ id: code.id })).resolves.toMatchObject({
      success: true,
    });
    expect(await countRows(t().db, 'qr_codes')).toBe(0);
  });
});
