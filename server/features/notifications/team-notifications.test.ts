import { expect, it } from 'vitest';
import { insertQrRow } from '../../test/fixtures.js';
import { readParsedOutbox } from '../../test/smtp-capture.js';
import { createTestClock, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { createTeam } from '../workspaces/workspaces.service.js';
import { toUser } from '../users/users.mapper.js';
import { sendScanDigests, sendScanThresholdMails } from './notifications.service.js';

async function storeScans(t: TestApp, ownerId: number, codeId: number, times: string[]) {
  const rows: ScanToStore[] = times.map((at) => ({
    qr_code_id: codeId,
    owner_id: ownerId,
    timestamp: at,
    user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148',
    ip_address: '203.0.113.9',
    referrer: null,
    location: 'Berlin, Germany',
    device: 'Mobile',
  }));
  await t.db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

/** The one address a mail went to. */
const recipient = (mail: { to?: { text: string } | { text: string }[] }) =>
  Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;

describeEachDb("a team's codes in its members' mails", (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(new Date('2026-11-25T08:00:00Z')) });

  async function teamWithTwo() {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(ada),
      'Marketing',
    );
    await insertMember(t().db, team.id, bob.id, 'viewer', new Date().toISOString());
    return { ada, bob, team };
  }

  it("each member who asked gets the team's codes in their digest, under the team's name", async () => {
    const { ada, bob, team } = await teamWithTwo();
    await t()
      .db.updateTable('users')
      .set({ notify_scan_digest: true })
      .where('id', 'in', [ada.id, bob.id])
      .execute();
    const own = await insertQrRow(t().db, { userId: ada.id, name: 'Own flyer', isDynamic: true });
    const menu = await insertQrRow(t().db, { userId: team.id, name: 'Team menu', isDynamic: true });
    await storeScans(t(), ada.id, own.id, ['2026-11-24T12:00:00Z']);
    await storeScans(t(), team.id, menu.id, ['2026-11-24T12:00:00Z', '2026-11-24T13:00:00Z']);

    expect(await sendScanDigests(t().deps)).toBe(2);
    const mails = await readParsedOutbox(t().outbox);
    const toAda = mails.find((m) => recipient(m) === 'ada@example.com');
    const toBob = mails.find((m) => recipient(m) === 'bob@example.com');
    expect(toAda!.subject).toBe('Your QR codes were scanned 3 times yesterday');
    expect(toAda!.text).toContain('Own flyer: 1 scan');
    expect(toAda!.text).toContain('Team Marketing:\nTeam menu: 2 scans');
    // Bob has no codes of his own: only the team's.
    expect(toBob!.subject).toBe('Your QR codes were scanned 2 times yesterday');
    expect(toBob!.text).not.toContain('Own flyer');
  });

  it("a team code's threshold mail reaches every member who asked, once each", async () => {
    const { ada, bob, team } = await teamWithTwo();
    await t()
      .db.updateTable('users')
      .set({ notify_scan_thresholds: true })
      .where('id', 'in', [ada.id, bob.id])
      .execute();
    const menu = await insertQrRow(t().db, { userId: team.id, name: 'Team menu', isDynamic: true });
    await storeScans(
      t(),
      team.id,
      menu.id,
      Array.from({ length: 100 }, () => '2026-11-24T12:00:00Z'),
    );

    expect(await sendScanThresholdMails(t().deps)).toBe(2);
    expect(await sendScanThresholdMails(t().deps)).toBe(0);
    const mails = await readParsedOutbox(t().outbox);
    expect(mails.map((m) => recipient(m)).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    expect(mails[0]!.text).toContain('The QR code "Team menu" of team Marketing has been scanned 100 times');
    expect(mails[0]!.text).toContain(`/qr-details/${menu.id}?workspace=${team.id}`);
  });
});
