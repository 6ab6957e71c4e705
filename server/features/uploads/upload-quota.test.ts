import { expect, it } from 'vitest';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { makePng, uploadLogo } from '../../test/upload-fixtures.js';
import { MAX_UPLOADS_PER_HOUR } from '../auth/login-throttle.js';
import { deleteUnusedLogos, insertUpload } from './uploads.repository.js';
import { uploadMessages } from './uploads.service.js';

const MB = 1024 * 1024;
/** A PNG of about `bytes` (a real header, then padding after its end). */
const pngOf = (bytes: number) => {
  const png = makePng();
  return Buffer.concat([png, Buffer.alloc(Math.max(0, bytes - png.length), 7)]);
};
const logo = (bytes: number) => [
  { field: 'logo', filename: 'logo.png', contentType: 'image/png', data: pngOf(bytes) },
];

async function storedBytes(t: TestApp, userId: number) {
  const rows = await t.db.selectFrom('uploads').select('size').where('user_id', '=', userId).execute();
  return rows.reduce((sum, r) => sum + Number(r.size), 0);
}

describeOnSqlite('upload storage', (getDb) => {
  const t = useTestApp(getDb);

  it('fifteen 5 MB uploads in a row: refused past the Free quota with 413, and storage stops growing', async () => {
    const { user, cookie } = await signedInUser(t(), 'filler');
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await uploadLogo(t().app, logo(4.9 * MB), { cookie });
      statuses.push(res.statusCode);
      if (res.statusCode === 413) {
        expect(res.json<{ message: string }>().message).toBe(uploadMessages.quotaFull(25 * MB));
      }
    }
    // The default Free quota is 25 MB: five fit, the other ten are refused.
    expect(statuses).toEqual([...Array<number>(5).fill(201), ...Array<number>(10).fill(413)]);
    expect(await storedBytes(t(), user.id)).toBeLessThanOrEqual(25 * MB);
  });

  it('a Pro user keeps four times as much; deleting an upload frees its room; others get 404', async () => {
    const { user, cookie } = await signedInUser(t(), 'pro', {
      subscriptionTier: 'pro',
      subscriptionEndDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    const urls: string[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await uploadLogo(t().app, logo(4.9 * MB), { cookie });
      if (res.statusCode === 201) urls.push(res.json<{ url: string }>().url);
      else expect(res.statusCode).toBe(413);
    }
    expect(urls).toHaveLength(20);
    const { cookie: otherCookie } = await signedInUser(t(), 'other');
    const foreign = await call(t().app, 'DELETE', urls[0]!, { cookie: otherCookie });
    expectRestError(foreign, 404, 'NOT_FOUND');
    const deleted = await call(t().app, 'DELETE', urls[0]!, { cookie });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, message: uploadMessages.deleted });
    expect((await call(t().app, 'GET', urls[0]!, { cookie })).statusCode).toBe(404);
    expect((await call(t().app, 'DELETE', urls[0]!, { cookie })).statusCode).toBe(404);
    expect((await uploadLogo(t().app, logo(4.9 * MB), { cookie })).statusCode).toBe(201);
    expect(await storedBytes(t(), user.id)).toBeLessThanOrEqual(100 * MB);
  });

  it(`limits a user to ${MAX_UPLOADS_PER_HOUR} uploads an hour: 429 with Retry-After`, async () => {
    const { cookie } = await signedInUser(t(), 'rapid');
    for (let i = 0; i < MAX_UPLOADS_PER_HOUR; i++) {
      expect((await uploadLogo(t().app, logo(100), { cookie })).statusCode).toBe(201);
    }
    const res = await uploadLogo(t().app, logo(100), { cookie });
    expect(expectRestError(res, 429).message).toMatch(
      /^Too many uploads\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    t().clock.advance(61 * 60_000);
    expect((await uploadLogo(t().app, logo(100), { cookie })).statusCode).toBe(201);
  });

  it('sweeps logos no code has used for a day, and keeps used, recent and profile pictures', async () => {
    const { user } = await signedInUser(t(), 'sweeper');
    const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const recent = new Date().toISOString();
    const upload = (id: string, kind: string, createdAt: string) =>
      insertUpload(t().db, { id, userId: user.id, kind, mime: 'image/png', data: makePng(), createdAt });
    await upload('00000000-0000-4000-8000-000000000001', 'logo', old); // unused, old: swept
    await upload('00000000-0000-4000-8000-000000000002', 'logo', old); // used by a code
    await upload('00000000-0000-4000-8000-000000000003', 'logo', recent); // unused, but new
    await upload('00000000-0000-4000-8000-000000000004', 'profile-picture', old);
    await insertQrRow(t().db, {
      userId: user.id,
      customization: { logo: { url: '/api/uploads/00000000-0000-4000-8000-000000000002', size: 40 } },
    });
    const deleted = await deleteUnusedLogos(t().db, new Date(Date.now() - 86_400_000).toISOString());
    expect(deleted).toBe(1);
    const left = await t()
      .db.selectFrom('uploads')
      .select('id')
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(left.map((r) => r.id.slice(-1))).toEqual(['2', '3', '4']);
  });
});
