import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DbHandle } from '../server/db/create-db.js';
import { describeMigration, migrateTo, previousOf } from './migration-test-kit.js';

const THIS = '2026-11-29T0900-mail-queue';

async function upgradeWithData(handle: DbHandle) {
  const db = handle.db;
  await migrateTo(db, previousOf(THIS));
  const now = '2026-11-20T08:00:00.000Z';
  await sql`insert into users (username, password, email, created_at)
            values ('ada', 'hash', 'ada@example.com', ${now})`.execute(db);
  await sql`insert into mail_log (recipient, subject, status, error, created_at)
            values ('ada@example.com', 'Reset your QR Creator password', 'failed', 'connect ECONNREFUSED', ${now})`.execute(
    db,
  );

  await migrateTo(db, THIS);

  // What was there is untouched; the queue starts empty.
  const log = await sql<{
    recipient: string;
    status: string;
  }>`select recipient, status from mail_log`.execute(db);
  expect(log.rows).toEqual([{ recipient: 'ada@example.com', status: 'failed' }]);
  const users = await sql<{ n: number }>`select count(*) as n from users`.execute(db);
  expect(Number(users.rows[0]?.n)).toBe(1);
  const empty = await sql<{ n: number }>`select count(*) as n from mail_queue`.execute(db);
  expect(Number(empty.rows[0]?.n)).toBe(0);

  // A queued mail takes its defaults (pending, no attempt yet) and is found by the retrier's question.
  await sql`insert into mail_queue (recipient, subject, body_text, next_attempt_at, created_at)
            values ('ada@example.com', 'Hello', 'Hello Ada,', ${now}, ${now})`.execute(db);
  const due = await sql<{ id: number; status: string; attempts: number; sender: string | null }>`
    select id, status, attempts, sender from mail_queue
    where status = 'pending' and next_attempt_at <= ${'2026-11-20T08:01:00.000Z'}`.execute(db);
  expect(due.rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }))).toEqual([
    { id: 1, status: 'pending', attempts: 0, sender: null },
  ]);

  await migrateTo(db, previousOf(THIS));
  await expect(sql`select count(*) from mail_queue`.execute(db)).rejects.toThrow(/mail_queue/);
  const kept = await sql<{ n: number }>`select count(*) as n from mail_log`.execute(db);
  expect(Number(kept.rows[0]?.n)).toBe(1);
}

describeMigration(THIS, upgradeWithData);
