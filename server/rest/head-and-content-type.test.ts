import { expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { insertUpload } from '../features/uploads/uploads.repository.js';
import { insertFolderRow, insertQrRow } from '../test/fixtures.js';
import { signedInUser, useTestApp } from '../test/test-app.js';
import { describeOnSqlite, ownTableNames } from '../test/test-db.js';
import { makePng } from '../test/upload-fixtures.js';
import { appRouter } from '../trpc/app-router.js';
import { restRoutes } from './rest-plugin.js';

/** Every row of every table, so any write shows. */
async function everything(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const table of (await ownTableNames(db)).sort()) {
    const rows = await db
      .selectFrom(table as never)
      .selectAll()
      .execute();
    parts.push(`${table}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

describeOnSqlite('HEAD and tRPC content types', (getDb) => {
  const t = useTestApp(getDb);

  it('no HEAD request changes the database: every GET route of the table, every query, a short link', async () => {
    const { user, cookie } = await signedInUser(t(), 'header', { isAdmin: true });
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    const folder = await insertFolderRow(t().db, user.id);
    await insertUpload(t().db, {
      id: 'headupload',
      userId: user.id,
      kind: 'logo',
      mime: 'image/png',
      data: makePng(),
      createdAt: new Date().toISOString(),
    });
    const ids: Record<string, string | number> = {
      qrCode: code.id,
      folder: folder.id,
      upload: 'headupload',
      user: user.id,
      session: 'none',
      apiToken: 1,
      upgradeRequest: 1,
    };
    const headers = { cookie: `qr_session=${cookie}` };
    const before = await everything(t().db);
    const urls = [
      ...restRoutes
        .filter((r) => r.method === 'GET')
        .map((r) => (r.object ? r.path.replace(':id', String(ids[r.object])) : r.path)),
      ...Object.entries(
        (appRouter._def as unknown as { procedures: Record<string, { _def: { type: string } }> }).procedures,
      )
        .filter(([, p]) => p._def.type === 'query')
        .map(([path]) => `/trpc/${path}?input=${encodeURIComponent('{}')}`),
      `/r/${code.slug}`,
      '/',
    ];
    const answered: number[] = [];
    for (const url of urls) {
      const res = await t().app.inject({ method: 'HEAD', url, headers });
      answered.push(res.statusCode);
      if (res.statusCode < 300) expect(res.body, url).toBe('');
    }
    expect(answered.filter((s) => s < 300).length).toBeGreaterThan(30);
    // The queued scans would be written by now if a HEAD had recorded one.
    await t().deps.scans.close();
    expect(await everything(t().db)).toBe(before);
  });

  it('a tRPC mutation takes a JSON body only: 415 for anything else, and nothing happens', async () => {
    const { cookie } = await signedInUser(t(), 'typist');
    const signedIn = async () =>
      (await t().app.inject({ url: '/api/user', headers: { cookie: `qr_session=${cookie}` } })).statusCode;
    const bodies: [string | undefined, string][] = [
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
      ],
      ['application/x-www-form-urlencoded', 'a=b'],
      ['text/plain', '{}'],
      [undefined, ''],
    ];
    for (const [type, payload] of bodies) {
      const res = await t().app.inject({
        method: 'POST',
        url: '/trpc/auth.logout',
        headers: { cookie: `qr_session=${cookie}`, ...(type ? { 'content-type': type } : {}) },
        payload,
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({
        message: 'Request body must be JSON (Content-Type: application/json)',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
      expect(await signedIn()).toBe(200);
    }
    const json = await t().app.inject({
      method: 'POST',
      url: '/trpc/auth.logout',
      headers: { cookie: `qr_session=${cookie}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(200);
    expect(await signedIn()).toBe(401);
  });
});
