import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite, sqliteHandle } from './create-db.js';

/**
 * A second connection opened in a process that already has the file open (the scan writer's and the
 * background threads open theirs while the app runs) must not release the process's locks: POSIX drops
 * every lock a process holds on a file when it closes any descriptor of that file. With its locks gone,
 * another process (a backup, a script, a test writing to the file) closing its own connection believed it
 * was the last one and deleted the WAL under the running server: its next read failed with
 * SQLITE_IOERR_SHORT_READ.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-open-sqlite-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('openSqlite on a file the process has open', () => {
  it('keeps the process’s locks, so another process closing its connection leaves the WAL in place', () => {
    const file = path.join(dir, 'app.db');
    const first = openSqlite(file);
    first.exec('create table t (id integer primary key, v integer)');
    first.prepare('insert into t (v) values (1)').run();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);

    const second = openSqlite(file);
    const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
      d.prepare('update t set v = v + 1').run(); d.close();`;
    const other = spawnSync(process.execPath, ['-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    expect(other.status, other.stderr).toBe(0);

    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(first.prepare('select v from t').get()).toEqual({ v: 2 });
    expect(second.prepare('select v from t').get()).toEqual({ v: 2 });
    second.close();
    first.close();
  });
});

describe('a transaction while another connection writes', () => {
  it('reads, waits, then writes without SQLITE_BUSY_SNAPSHOT: the other writer waits for its commit', async () => {
    const file = path.join(dir, 'tx.db');
    const handle = sqliteHandle(openSqlite(file));
    await sql`create table t (id integer primary key, v text)`.execute(handle.db);

    // Another process writing to the file when told to (as the scan writer's thread or a second instance).
    const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
      d.pragma('busy_timeout = 10000'); console.log('ready');
      require('readline').createInterface({ input: process.stdin }).once('line', () => {
        d.prepare("insert into t (v) values ('other')").run(); console.log('written'); d.close(); process.exit(0);
      });`;
    const other = spawn(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const lines = readline.createInterface({ input: other.stdout });
    const said = (word: string) =>
      new Promise<void>((resolve) => lines.on('line', (l) => l === word && resolve()));
    const written = said('written');
    await said('ready');

    await handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      other.stdin.write('go\n');
      // With a deferred begin the other process commits at once, and the insert below fails.
      await Promise.race([written, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      await sql`insert into t (v) values ('ours')`.execute(trx);
    });
    await written;
    const rows = await sql<{ v: string }>`select v from t order by id`.execute(handle.db);
    expect(rows.rows.map((r) => r.v)).toEqual(['ours', 'other']);
    await handle.close();
  });
});
