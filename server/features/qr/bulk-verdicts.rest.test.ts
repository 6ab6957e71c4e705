/**
 * Bulk-created codes get their scan verdicts in seconds, not at the sweeper's next ten-minute turn: the
 * bulk call wakes the app's sweeper from a request context (a copy of the app's deps, which once missed
 * it), and the sweeper works through the queue until it is empty.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BulkCreateAnswer } from '../../../src/qr/bulk.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { call, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { scanChecksSettled, startScanCheckSweeper } from './scan-verdicts.js';

const HOUR = 60 * 60_000;

describeOnSqlite('bulk-created codes: background scan verdicts', (getDb) => {
  describe('POST /api/qr-codes/bulk', () => {
    const t = useTestApp(getDb);
    let stop: (() => void) | undefined;
    afterEach(async () => {
      stop?.();
      await scanChecksSettled();
    });

    it('wakes the sweeper, which checks every created code within seconds', async () => {
      // The server's sweeper, with its own first turn an hour away: only the bulk call can wake it.
      stop = startScanCheckSweeper(t().deps, { error: () => undefined }, HOUR);
      const { cookie } = await signedInUser(t(), 'verdicts', { subscriptionTier: 'premium' });
      const codes = Array.from({ length: 8 }, (_, i) => ({
        name: `Table ${i + 1}`,
        type: 'url',
        content: `https://example.com/table/${i + 1}`,
        isDynamic: i % 2 === 0,
      }));
      const res = await call(t().app, 'POST', '/api/qr-codes/bulk', { cookie, json: { codes } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<BulkCreateAnswer>().created).toHaveLength(8);
      const checked = async () =>
        (await call(t().app, 'GET', '/api/qr-codes', { cookie }))
          .json<QrCode[]>()
          .filter((c) => c.scannable?.verdict === 'scannable').length;
      await expect.poll(checked, { timeout: 15_000, interval: 200 }).toBe(8);
    }, 30_000);
  });
});
