/**
 * Codes without a verdict (saved before the check existed, created in bulk) get one in the background,
 * from the app's sweeper: not from a GET, which never writes (a HEAD of the list used to queue checks).
 */
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { wakeScanChecks } from './scan-verdicts.js';

const verdicts = async (t: ReturnType<ReturnType<typeof useTestApp>>, cookie: string) =>
  (await call(t.app, 'GET', '/api/qr-codes', { cookie }))
    .json<QrCode[]>()
    .map((c) => c.scannable?.verdict ?? null);

describeOnSqlite('background scan checks', (getDb) => {
  describe('with the sweeper on (as in the server)', () => {
    const t = useTestApp(getDb, { config: { backgroundScanChecks: true } });

    it('gives every code without a verdict one, once woken', async () => {
      const me = await signedInUser(t(), 'sweeper');
      await insertQrRow(t().db, { userId: me.user.id, content: 'https://example.com/a' });
      await insertQrRow(t().db, {
        userId: me.user.id,
        content: 'https://example.com/b',
        customization: { foregroundColor: '#FFFFFF', backgroundColor: '#FFFFFF' },
      });
      expect(await verdicts(t(), me.cookie)).toEqual([null, null]);
      wakeScanChecks(t().deps);
      await expect
        .poll(() => verdicts(t(), me.cookie), { timeout: 15_000, interval: 100 })
        .toEqual(['unscannable', 'scannable']);
    });
  });

  describe('listing', () => {
    const t = useTestApp(getDb);

    it('never writes a verdict, even after a HEAD and a GET of the list', async () => {
      const me = await signedInUser(t(), 'lister');
      await insertQrRow(t().db, { userId: me.user.id });
      expect((await call(t().app, 'HEAD', '/api/qr-codes', { cookie: me.cookie })).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await verdicts(t(), me.cookie)).toEqual([null]);
    });
  });
});
