import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from '../../scripts/built-app.mjs';

/**
 * "Nothing answered is lost": scans are fired at the real built server (dist/server.mjs, SQLite in WAL
 * mode), the process is killed with SIGKILL in the middle of the load, and a restart on the same DATA_DIR
 * must find every scan that received an answer, in a database that passes `PRAGMA integrity_check`.
 *
 * The server runs on a DATA_DIR of this file's (startBuiltServer keeps a given one), so it can be killed
 * with SIGKILL and started again on the same data.
 */

const LOOPS = 20;
const LOAD_MS = 2_000;

const userAgents = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'WhatsApp/2.23.20.0 A',
];

/** The built server on `dataDir` (kept when it stops), ready: it answered /readyz. */
function start(dataDir: string): Promise<BuiltServer> {
  return startBuiltServer({
    dataDir,
    env: {
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'crash-test-admin-password',
      // Quiet: one log line per request would only slow the load down.
      LOG_LEVEL: 'warn',
    },
  });
}

function openDb(dataDir: string) {
  return new Database(path.join(dataDir, 'qr-creator.db'), { readonly: true, fileMustExist: true });
}

function scanCount(db: Database.Database, codeId: number): number {
  return (db.prepare('select count(*) as n from qr_scans where qr_code_id = ?').get(codeId) as { n: number })
    .n;
}

describe('a server killed with SIGKILL under load', () => {
  const dataDirs: string[] = [];
  const children: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps every answered scan and an intact database after a restart', { timeout: 60_000 }, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-crash-'));
    dataDirs.push(dataDir);

    const first = await start(dataDir);
    children.push(first.child);

    // The demo account's dynamic code and its seeded sample scans.
    const probe = openDb(dataDir);
    const code = probe
      .prepare(
        `select q.id, q.slug from qr_codes q join users u on u.id = q.user_id
         where u.username = 'demo' and q.is_dynamic = 1 and q.slug is not null`,
      )
      .get() as { id: number; slug: string } | undefined;
    expect(code, 'the demo dynamic code').toBeDefined();
    const seeded = scanCount(probe, code!.id);
    probe.close();
    expect(seeded).toBeGreaterThan(0);

    // LOOPS clients, each sending the next scan as soon as the previous one is answered.
    let answered = 0;
    let otherStatus = 0;
    let failed = 0;
    let refused = 0;
    let stop = false;
    const target = `${first.url}/r/${code!.slug}`;
    const loop = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(target, {
            redirect: 'manual',
            // A phone of its own each time: one client this fast would be throttled, counted apart.
            headers: { 'user-agent': `${userAgents[(n + i) % userAgents.length]!} ${n}.${i}` },
          });
          // Counted as soon as the answer arrived: the server commits the scan before answering.
          if (res.status === 302) answered += 1;
          else otherStatus += 1;
          await res.arrayBuffer().catch(() => undefined);
        } catch (error) {
          // Refused: a new connection after the process died. Anything else (reset, "other side
          // closed"): in flight at the kill, or sent on a keep-alive socket the kill had closed.
          if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') refused += 1;
          else failed += 1;
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, n) => loop(n));

    // At least LOAD_MS of load, and more than 100 scans answered (a loaded machine answers fewer in that time).
    const loadStarted = Date.now();
    while (Date.now() - loadStarted < LOAD_MS || answered <= 100) {
      if (Date.now() - loadStarted > 30_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const answeredBeforeKill = answered;
    first.child.kill('SIGKILL');
    const exit = await first.exited;
    stop = true;
    await Promise.all(loops);

    expect(exit.signal).toBe('SIGKILL');
    expect(answeredBeforeKill, 'scans answered before the kill').toBeGreaterThan(100);
    expect(otherStatus, 'answers other than 302').toBe(0);
    // Requests were in flight when the process died: the kill happened mid-load.
    expect(failed, 'requests cut off by the kill').toBeGreaterThan(0);

    // Restart on the same data; the start-up opens (and recovers) the database.
    const second = await start(dataDir);
    children.push(second.child);
    second.child.kill('SIGTERM');
    const secondExit = await second.exited;
    expect(secondExit.code, second.logs.join('\n')).toBe(0);

    const db = openDb(dataDir);
    const stored = scanCount(db, code!.id) - seeded;
    const integrity = db.pragma('integrity_check', { simple: true });
    db.close();

    console.log(
      `crash test: ${answered} scans answered, ${stored} stored after the restart ` +
        `(${stored - answered} committed but not answered), ${failed} requests cut off by SIGKILL or on its dead sockets, ` +
        `${refused} refused afterwards, ` +
        `integrity_check = ${String(integrity)}`,
    );
    expect(integrity).toBe('ok');
    // Every answered scan is stored ...
    expect(stored).toBeGreaterThanOrEqual(answered);
    // ... and the only extra ones are requests the kill cut off after their scan was committed: each
    // client has at most one request in flight, so at most LOOPS of them.
    expect(stored - answered).toBeLessThanOrEqual(LOOPS);
  });
});
