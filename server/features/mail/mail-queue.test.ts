import pino from 'pino';
import fs from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import type { MailQueue } from '../../../src/admin/admin.schema.js';
import type { OpsSignals } from '../../app-deps.js';
import { createDb } from '../../db/create-db.js';
import type { Db } from '../../db/database.js';
import { insertTestUser } from '../../test/fixtures.js';
import {
  call,
  createTestClock,
  expectRestError,
  readOutbox,
  signedInUser,
  useTestApp,
  type TestClock,
} from '../../test/test-app.js';
import { describeEachDb, describeOnSqlite, workerDatabaseUrl } from '../../test/test-db.js';
import { toUser } from '../users/users.mapper.js';
import {
  getMailQueue,
  mailQueueMessages,
  retryQueuedMail,
  sendDueMails,
  withMailQueue,
} from './mail-queue.service.js';
import type { Mailer, MailMessage } from './mailer.js';

const T0 = new Date('2026-12-01T10:00:00.000Z');
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

/** A mail server that refuses every connection while `down`, as one being restarted does. */
function flakyTransport() {
  const state = { down: true, calls: 0, sent: [] as MailMessage[] };
  const mailer: Mailer = {
    async send(message) {
      state.calls++;
      // A real exchange takes turns on the event loop: two retriers interleave here.
      await new Promise((resolve) => setImmediate(resolve));
      if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      state.sent.push(message);
    },
    verify: () => Promise.resolve({ transport: 'smtp' as const }),
  };
  return { state, mailer };
}

/** One instance: the app's mailer over `transport`, its retrier's deps, what it counted and logged. */
function instance(db: Db, clock: TestClock, transport: Mailer) {
  const outcomes: string[] = [];
  type Line = { level: number; msg: string; to?: string; error?: string };
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const signals: OpsSignals = { securityEvent: () => undefined, mail: (o) => void outcomes.push(o) };
  const mailer = withMailQueue(transport, { db, clock, signals, log: () => log });
  const deps = { db, clock, signals, mailer, log };
  return { mailer, deps, outcomes, lines, retry: () => sendDueMails(deps, log) };
}

describeEachDb('the mail queue', (getDb) => {
  it('keeps a failed mail, tries it after each pause, gives it up after the last, and an admin can send it later', async () => {
    const { db } = getDb();
    const clock = createTestClock(T0);
    const transport = flakyTransport();
    const one = instance(db, clock, transport.mailer);

    // The caller is not failed: the mail waits.
    await one.mailer.send({ to: 'ada@example.com', subject: 'Your digest', text: 'Hello Ada' });
    expect(await getMailQueue({ db })).toEqual({
      waiting: 1,
      givenUp: 0,
      mails: [
        expect.objectContaining({
          recipient: 'ada@example.com',
          subject: 'Your digest',
          status: 'waiting',
          attempts: 1,
          nextAttemptAt: at(1).toISOString(),
          lastError: 'connect ECONNREFUSED 127.0.0.1:25',
        }),
      ],
    });
    // One warn line, the address masked.
    expect(one.lines.filter((l) => l.level === 40)).toEqual([
      expect.objectContaining({ to: 'a***@example.com', msg: 'mail failed: queued for another try' }),
    ]);
    expect(JSON.stringify(one.lines)).not.toContain('ada@example.com');

    // Not before it is due.
    clock.set(new Date(at(1).getTime() - 1000));
    await one.retry();
    expect(transport.state.calls).toBe(1);

    // 1, 5, 30 min, 2, 6 and 16 h after each failure; the 7th failure gives it up.
    const nextTries: (string | null)[] = [];
    for (const minutes of [1, 6, 36, 156, 516, 1476]) {
      clock.set(at(minutes));
      await one.retry();
      nextTries.push((await getMailQueue({ db })).mails[0]!.nextAttemptAt);
    }
    expect(nextTries).toEqual([
      at(6).toISOString(),
      at(36).toISOString(),
      at(156).toISOString(),
      at(516).toISOString(),
      at(1476).toISOString(),
      null,
    ]);
    expect(transport.state.calls).toBe(7);
    expect(one.outcomes).toEqual([
      'failed',
      ...Array.from({ length: 5 }, () => ['retried', 'failed']).flat(),
      'retried',
      'given-up',
    ]);
    const queue = await getMailQueue({ db });
    expect(queue).toMatchObject({ waiting: 0, givenUp: 1, mails: [{ status: 'given-up', attempts: 7 }] });
    expect(one.lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({ to: 'a***@example.com', msg: 'mail given up: after its last try' }),
    ]);
    clock.set(at(3 * 24 * 60));
    await one.retry();
    expect(transport.state.calls).toBe(7);

    // The server is back: an admin's Retry now sends it, and it leaves the list.
    transport.state.down = false;
    const admin = toUser(await insertTestUser(db, { username: 'root', isAdmin: true }));
    expect(await retryQueuedMail(one.deps, admin, queue.mails[0]!.id)).toEqual({
      success: true,
      message: mailQueueMessages.sent('ada@example.com'),
    });
    expect(transport.state.sent.map((m) => [m.to, m.subject, m.text])).toEqual([
      ['ada@example.com', 'Your digest', 'Hello Ada'],
    ]);
    expect(await getMailQueue({ db })).toEqual({ waiting: 0, givenUp: 0, mails: [] });
  });

  it('never sends a link that expired: given up when the next try would come too late', async () => {
    const { db } = getDb();
    const clock = createTestClock(T0);
    const transport = flakyTransport();
    const one = instance(db, clock, transport.mailer);
    const reset = { subject: 'Reset your QR Creator password', text: 'link', expiresAt: at(60) };

    // Tried at 0, 1, 6 and 36 min; the next try (2 h 36) would find the link dead.
    await one.mailer.send({ ...reset, to: 'bo@example.com' });
    for (const minutes of [1, 6, 36]) {
      clock.set(at(minutes));
      await one.retry();
    }
    expect(transport.state.calls).toBe(4);
    expect(await getMailQueue({ db })).toMatchObject({ waiting: 0, givenUp: 1 });
    expect(one.lines.filter((l) => l.level === 50).map((l) => l.msg)).toEqual([
      'mail given up: its link expires before another try',
    ]);

    // A mail still waiting when its link expires (every instance was stopped) is given up unsent, and
    // an admin cannot send it either.
    clock.set(T0);
    await one.mailer.send({ ...reset, to: 'cy@example.com' });
    clock.set(at(120));
    await one.retry();
    expect(transport.state.calls).toBe(5);
    const queue = await getMailQueue({ db });
    const late = queue.mails.find((m) => m.recipient === 'cy@example.com')!;
    expect(late).toMatchObject({ status: 'given-up', lastError: 'Its link expired before it could be sent' });
    transport.state.down = false;
    const admin = toUser(await insertTestUser(db, { username: 'root', isAdmin: true }));
    await expect(retryQueuedMail(one.deps, admin, late.id)).rejects.toThrow(mailQueueMessages.expired);
    expect(transport.state.sent).toEqual([]);
  });

  it('a newer mail under the same key replaces the one waiting', async () => {
    const { db } = getDb();
    const clock = createTestClock(T0);
    const transport = flakyTransport();
    const one = instance(db, clock, transport.mailer);
    const verify = (text: string) => ({
      to: 'di@example.com',
      subject: 'Verify',
      text,
      replaces: 'verify:7',
    });

    await one.mailer.send(verify('first link'));
    await one.mailer.send(verify('second link'));
    await one.mailer.send({ to: 'di@example.com', subject: 'Other', text: 'kept' });
    expect((await getMailQueue({ db })).mails.map((m) => m.subject)).toEqual(['Other', 'Verify']);
    clock.set(at(1));
    transport.state.down = false;
    await one.retry();
    expect(transport.state.sent.map((m) => m.text).sort()).toEqual(['kept', 'second link']);
    // Sent at once, or failed without being queued (the user asked and was told), a newer one removes
    // the one still waiting too.
    transport.state.down = true;
    await one.mailer.send(verify('third link'));
    transport.state.down = false;
    await one.mailer.send(verify('fourth link'));
    expect(await getMailQueue({ db })).toMatchObject({ waiting: 0 });
    transport.state.down = true;
    await one.mailer.send(verify('fifth link'));
    await expect(one.mailer.send({ ...verify('sixth link'), queue: false })).rejects.toThrow(/ECONNREFUSED/);
    expect(await getMailQueue({ db })).toMatchObject({ waiting: 0 });
  });

  it('two instances retrying together send each mail once', async () => {
    const { db, dialect } = getDb();
    const clock = createTestClock(T0);
    // On PostgreSQL the second instance has a connection pool of its own, as a second server has.
    const other = dialect === 'postgres' ? createDb(await workerDatabaseUrl(), { poolSize: 2 }) : undefined;
    try {
      const down = flakyTransport();
      const first = instance(db, clock, down.mailer);
      for (let i = 0; i < 30; i++)
        await first.mailer.send({ to: `u${i}@example.com`, subject: 'Hi', text: 'Hi' });
      const a = flakyTransport();
      const b = flakyTransport();
      a.state.down = false;
      b.state.down = false;
      const one = instance(db, clock, a.mailer);
      const two = instance(other?.db ?? db, clock, b.mailer);
      clock.set(at(1));
      await Promise.all([one.retry(), two.retry(), one.retry(), two.retry()]);
      const delivered = [...a.state.sent, ...b.state.sent].map((m) => m.to).sort();
      expect(delivered).toEqual(Array.from({ length: 30 }, (_, i) => `u${i}@example.com`).sort());
      expect(await getMailQueue({ db })).toEqual({ waiting: 0, givenUp: 0, mails: [] });
    } finally {
      await other?.close();
    }
  });
});

describeOnSqlite('the mail queue in /admin', (getDb) => {
  const t = useTestApp(getDb);

  describe('GET /api/admin/mail-queue, POST /api/admin/mail-queue/:id/retry', () => {
    it('lists a mail that could not be written, and Retry now sends it once the outbox works again', async () => {
      const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
      await insertTestUser(t().db, { username: 'eve', email: 'eve@example.com' });
      // No SMTP_URL: mails are written to DATA_DIR/outbox, which is a file here, so writing fails.
      await fs.writeFile(t().outbox, 'not a folder');
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email: 'eve@example.com' } });
      const list = () => call(t().app, 'GET', '/api/admin/mail-queue', { cookie });
      const queued = await vi.waitFor(async () => {
        const queue = (await list()).json<MailQueue>();
        expect(queue.waiting).toBe(1);
        return queue.mails[0]!;
      });
      expect(queued).toMatchObject({ recipient: 'eve@example.com', status: 'waiting', attempts: 1 });
      const retry = (id: number | string) =>
        call(t().app, 'POST', `/api/admin/mail-queue/${id}/retry`, { cookie });

      // Still failing: 502 with the reason; it keeps waiting, one attempt more.
      const again = expectRestError(await retry(queued.id), 502);
      expect(again.message).toMatch(/^Failed to send email: /);
      expect((await list()).json<MailQueue>()).toMatchObject({
        waiting: 1,
        mails: [{ id: queued.id, status: 'waiting', attempts: 2 }],
      });

      await fs.rm(t().outbox);
      const sent = await retry(queued.id);
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ success: true, message: 'Mail sent to eve@example.com' });
      const [eml] = await readOutbox(t().outbox);
      expect(eml).toContain('Subject: Reset your QR Creator password');
      expect((await list()).json<MailQueue>()).toEqual({ waiting: 0, givenUp: 0, mails: [] });
      const audit = await call(t().app, 'GET', '/api/admin/audit-log', { cookie });
      expect(
        audit.json<{ entries: { action: string; targetLabel: string }[] }>().entries.map((e) => e.action),
        // Newest first: the two retries, after the reset request's own security event.
      ).toEqual(['mail.retry', 'mail.retry', 'password.reset']);

      // Sent: there is nothing left to retry. A bad id is named.
      expect(expectRestError(await retry(queued.id), 404).message).toBe(mailQueueMessages.notFound);
      expect(expectRestError(await retry('abc'), 400).message).toMatch(/Mail id/);
    });
  });
});
