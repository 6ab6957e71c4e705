import { expect, it } from 'vitest';
import { encodeContent } from '../../../src/qr/content.js';
import type { QrType } from '../../../src/qr/qr-types.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { IPHONE, expectNoScan, scansOf } from './redirect.test-helpers.js';

describeOnSqlite('GET /api/qr-codes/{id}/scan and qr.scan, the scan demo', (getDb) => {
  const t = useTestApp(getDb);

  async function ownedCode(username: string, type: QrType, content: string, isDynamic = false) {
    const { user, cookie } = await signedInUser(t(), username);
    const row = await insertQrRow(t().db, { userId: user.id, type, content, isDynamic });
    return { user, cookie, row };
  }

  const demoCases: [string, QrType, string, boolean][] = [
    [
      'a static wifi code',
      'wifi',
      encodeContent('wifi', { ssid: 'Cafe', password: 'pw', encryption: 'WPA' }),
      false,
    ],
    ['a dynamic url code', 'url', 'https://example.com/demo', true],
  ];

  it.each(demoCases)(
    'answers the owner { type, content } of %s and records the scan',
    async (_name, type, content, dynamic) => {
      const { cookie, row } = await ownedCode('demo-owner', type, content, dynamic);
      const res = await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`, {
        cookie,
        headers: { 'user-agent': IPHONE },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ type, content });
      const scans = await scansOf(t());
      expect(scans).toHaveLength(1);
      expect(scans[0]).toMatchObject({
        qr_code_id: row.id,
        user_agent: IPHONE,
        ip_address: '127.0.0.1',
        referrer: null,
        location: 'Unknown',
        device: 'Mobile',
      });
    },
  );

  it("answers 404 for another user's code, like a missing id, and records nothing", async () => {
    const { row } = await ownedCode(
      'victim',
      'wifi',
      encodeContent('wifi', { ssid: 'Home', password: 'secret!', encryption: 'WPA' }),
    );
    const { cookie: intruder } = await signedInUser(t(), 'intruder');
    const other = expectRestError(
      await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`, { cookie: intruder }),
      404,
    );
    const missing = expectRestError(
      await call(t().app, 'GET', `/api/qr-codes/${row.id + 1000}/scan`, { cookie: intruder }),
      404,
    );
    expect(other).toEqual(missing);
    expect(JSON.stringify(other)).not.toContain('secret!');
    await expectNoScan(t(), 0);
  });

  it('answers 401 when signed out and records nothing', async () => {
    const { row } = await ownedCode('owner-x', 'url', 'https://example.com/x');
    expectRestError(await call(t().app, 'GET', `/api/qr-codes/${row.id}/scan`), 401);
    await expectNoScan(t(), 0);
  });

  it('answers 400 for an id that is not a number', async () => {
    const { cookie } = await signedInUser(t(), 'bad-id');
    expectRestError(await call(t().app, 'GET', '/api/qr-codes/abc/scan', { cookie }), 400);
    await expectNoScan(t(), 0);
  });

  it('the tRPC twin qr.scan answers the owner and records; another user gets NOT_FOUND', async () => {
    const { cookie, row } = await ownedCode('trpc-owner', 'text', encodeContent('text', { text: 'Hi' }));
    const { cookie: intruder } = await signedInUser(t(), 'trpc-intruder');
    const mine = await call(t().app, 'POST', '/trpc/qr.scan', { cookie, json: { id: row.id } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual({ result: { data: { type: 'text', content: 'Hi' } } });
    await expectNoScan(t(), 1);

    const theirs = await call(t().app, 'POST', '/trpc/qr.scan', { cookie: intruder, json: { id: row.id } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ error: { data: { code: string } } }>().error.data.code).toBe('NOT_FOUND');
    const anonymous = await call(t().app, 'POST', '/trpc/qr.scan', { json: { id: row.id } });
    expect(anonymous.statusCode).toBe(401);
    await expectNoScan(t(), 1);
  });
});
