import { describe, expect, it } from 'vitest';
import { insertQrRow } from '../../test/fixtures.js';
import { readParsedOutbox } from '../../test/smtp-capture.js';
import { createTestClock, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import { sendScanDigests, sendScanThresholdMails, thresholdOf } from './notifications.service.js';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148';

async function storeScans(t: TestApp, ownerId: number, codeId: number, times: string[], device = 'Mobile') {
  const rows: ScanToStore[] = times.map((at) => ({
    qr_code_id: codeId,
    owner_id: ownerId,
    timestamp: at,
    user_agent: PHONE,
    ip_address: '203.0.113.9',
    referrer: null,
    location: 'Berlin, Germany',
    device,
  }));
  await t.db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

async function subscribe(t: TestApp, userId: number, changes: Record<string, unknown>) {
  await t.db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

describe('thresholdOf', () => {
  it.each([
    [99, null],
    [100, 100],
    [999, 100],
    [1000, 1000],
    [25_000, 10_000],
  ])('%i scans → %s', (scans, level) => expect(thresholdOf(scans)).toBe(level));
});

describeEachDb('scan notification mails', (getDb) => {
  // Wednesday 2026-11-25 08:00 UTC: yesterday is Tuesday the 24th in Berlin and in New York.
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-11-25T08:00:00Z')) });

  describe('the daily digest', () => {
    it("mails yesterday's scans per code in the user's zone, once, even when two instances run at once", async () => {
      const { user } = await signedInUser(t(), 'digester');
      await subscribe(t(), user.id, { notify_scan_digest: true, time_zone: 'America/New_York' });
      const menu = await insertQrRow(t().db, { userId: user.id, name: 'Café Menu', isDynamic: true });
      const flyer = await insertQrRow(t().db, { userId: user.id, name: 'Flyer', isDynamic: true });
      await storeScans(t(), user.id, menu.id, [
        '2026-11-24T05:30:00Z', // 00:30 in New York on the 24th: counted
        '2026-11-24T20:00:00Z',
        '2026-11-25T04:59:00Z', // 23:59 on the 24th: counted
        '2026-11-25T05:00:00Z', // the 25th there: not yesterday
        '2026-11-24T04:00:00Z', // the 23rd there
      ]);
      await storeScans(t(), user.id, flyer.id, ['2026-11-24T12:00:00Z']);
      await storeScans(t(), user.id, flyer.id, ['2026-11-24T12:05:00Z'], 'Bot');

      const [a, b] = await Promise.all([sendScanDigests(t().deps), sendScanDigests(t().deps)]);
      expect(a + b).toBe(1);
      expect(await sendScanDigests(t().deps)).toBe(0);
      const mails = await readParsedOutbox(t().outbox);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail!.to).toMatchObject({ text: 'digester@example.com' });
      expect(mail!.subject).toBe('Your QR codes were scanned 4 times yesterday');
      expect(mail!.text).toContain('Café Menu: 3 scans\nFlyer: 1 scan');
      expect(mail!.text).toContain('November 24, 2026 (America/New_York)');
    });

    it('sends nothing on a day without scans, and nothing to users who did not ask', async () => {
      const { user: quiet } = await signedInUser(t(), 'quiet');
      await subscribe(t(), quiet.id, { notify_scan_digest: true });
      const { user: busy } = await signedInUser(t(), 'busy');
      const code = await insertQrRow(t().db, { userId: busy.id, isDynamic: true });
      await storeScans(t(), busy.id, code.id, ['2026-11-24T12:00:00Z']);
      expect(await sendScanDigests(t().deps)).toBe(0);
      expect(await readParsedOutbox(t().outbox)).toEqual([]);
    });
  });

  describe('scan thresholds', () => {
    it('mails once when a code passes 100 scans, and again only at 1,000', async () => {
      const { user } = await signedInUser(t(), 'popular');
      await subscribe(t(), user.id, { notify_scan_thresholds: true });
      const code = await insertQrRow(t().db, { userId: user.id, name: 'Poster', isDynamic: true });
      const times = (n: number) =>
        Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 10, 20, 0, i)).toISOString());
      await storeScans(t(), user.id, code.id, times(99));
      expect(await sendScanThresholdMails(t().deps)).toBe(0);

      await storeScans(t(), user.id, code.id, ['2026-11-24T10:00:00Z']);
      const [a, b] = await Promise.all([sendScanThresholdMails(t().deps), sendScanThresholdMails(t().deps)]);
      expect(a + b).toBe(1);
      expect(await sendScanThresholdMails(t().deps)).toBe(0);
      const mails = await readParsedOutbox(t().outbox);
      expect(mails.map((m) => m.subject)).toEqual(['"Poster" passed 100 scans']);
      expect(mails[0]!.text).toContain(`${t().config.publicUrl}/qr-details/${code.id}`);

      await storeScans(
        t(),
        user.id,
        code.id,
        Array.from({ length: 900 }, (_, i) => new Date(Date.UTC(2026, 10, 21, 0, i)).toISOString()),
      );
      expect(await sendScanThresholdMails(t().deps)).toBe(1);
      expect((await readParsedOutbox(t().outbox)).map((m) => m.subject)).toEqual([
        '"Poster" passed 100 scans',
        '"Poster" passed 1,000 scans',
      ]);
    });

    it('sends nothing to a user who did not ask', async () => {
      const { user } = await signedInUser(t(), 'unsubscribed');
      const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
      await storeScans(
        t(),
        user.id,
        code.id,
        Array.from({ length: 120 }, (_, i) => new Date(Date.UTC(2026, 10, 20, 1, i)).toISOString()),
      );
      expect(await sendScanThresholdMails(t().deps)).toBe(0);
      expect(await readParsedOutbox(t().outbox)).toEqual([]);
    });
  });
});
