import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertQrRow, insertScans, insertTestUser } from '../test/fixtures.js';
import { USAGE, runCli, type CliIo } from './cli.js';

const root = path.resolve(import.meta.dirname, '../..');

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-cli-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The command line run in this process, with its own environment and folder; what it printed. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = root) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    env,
    cwd,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
  };
  const code = await runCli(argv, io);
  return { code, ...out };
}

/** `<dataDir>/qr-creator.db` built by the real migrations, with one dynamic code and its scans. */
async function dataDirWithScans(scans: number): Promise<{ dataDir: string; codeId: number }> {
  const dataDir = tempDir();
  const handle = createDb(`sqlite:${path.join(dataDir, 'qr-creator.db')}`);
  try {
    await migrateToLatest(handle.db);
    const user = await insertTestUser(handle.db, { username: 'owner' });
    const code = await insertQrRow(handle.db, { userId: user.id, isDynamic: true });
    await insertScans(handle.db, code.id, scans);
    return { dataDir, codeId: code.id };
  } finally {
    await handle.close();
  }
}

function scansOf(file: string, codeId: number): number {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    return (
      db.prepare('select count(*) as n from qr_scans where qr_code_id = ?').get(codeId) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

describe('the operations command line', () => {
  it('backup writes a sound copy, owner-only, that restore puts back in place of a changed database', async () => {
    const { dataDir, codeId } = await dataDirWithScans(4);
    // PORT=0: no health check (a server of someone else's on :3000 would make restore refuse).
    const env = { DATA_DIR: dataDir, PORT: '0' };

    const backup = await cli(['backup'], env);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backed up ${path.join(dataDir, 'qr-creator.db')}\n`);
    const file = /to {3}(\S+)/.exec(backup.stdout)?.[1] ?? '';
    expect(file).toMatch(/\/backups\/qr-creator-\d{8}-\d{6}\.db$/);
    expect(path.dirname(path.dirname(file))).toBe(dataDir);
    expect(backup.stdout).toMatch(/size \d+\.\d KB \(\d+ bytes, \d+ pages\)/);
    expect(backup.stdout).toMatch(/took \d+ ms/);
    expect(backup.stdout).toContain('PRAGMA integrity_check: ok\n');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(scansOf(file, codeId)).toBe(4);

    // The live database moves on; a named file is resolved from the caller's folder.
    const more = createDb(`sqlite:${path.join(dataDir, 'qr-creator.db')}`);
    await insertScans(more.db, codeId, 3);
    await more.close();
    expect(scansOf(path.join(dataDir, 'qr-creator.db'), codeId)).toBe(7);
    const named = await cli(['backup', 'named.db'], env, dataDir);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain(`  to   ${path.join(dataDir, 'named.db')}\n`);

    const restore = await cli(['restore', path.relative(dataDir, file)], env, dataDir);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(
      /^Moved the previous database aside:\n {2}\S+\.before-restore-\d{8}-\d{6}\n/,
    );
    expect(restore.stdout).toContain(`Restored ${file} (`);
    expect(restore.stdout).toContain('Start the server (npm start)');
    const live = path.join(dataDir, 'qr-creator.db');
    expect(scansOf(live, codeId)).toBe(4);
    expect(fs.statSync(live).mode & 0o777).toBe(0o600);
    const aside = fs.readdirSync(dataDir).filter((f) => f.includes('.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(scansOf(path.join(dataDir, aside[0]!), codeId)).toBe(7);

    // The restored file is the server's own: its start finds no migration to run.
    const reopened = createDb(`sqlite:${live}`);
    try {
      expect(await migrateToLatest(reopened.db)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('an unknown or missing command prints the usage and exits 2; --help exits 0', async () => {
    const unknown = await cli(['frob', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe(`Unknown command "frob": the commands are backup and restore.\n\n${USAGE}`);
    // Not a way into the object's own properties either.
    expect((await cli(['constructor'])).code).toBe(2);

    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Name a command: backup or restore.');

    const help = await cli(['--help']);
    expect(help).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    const backupHelp = await cli(['backup', '--help']);
    expect(backupHelp.code).toBe(0);
    expect(backupHelp.stderr).toContain('Usage: npm run backup [file]');
  });

  it('refuses with the scripts’ messages and exit codes', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, PORT: '0' };

    const noFile = await cli(['restore'], env);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('Restore refused: name the backup file to restore.');
    expect((await cli(['backup', 'a.db', 'b.db'], env)).code).toBe(1);

    const missing = await cli(['restore', 'missing.db'], env, dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`Restore refused: There is no file ${path.join(dataDir, 'missing.db')}.\n`);

    const nothing = await cli(['backup'], env);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^Backup refused: There is no database at .*: nothing to back up\.\n$/);

    const badConfig = await cli(['backup'], { ...env, PORT: 'eighty' });
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toBe('Backup refused: Invalid configuration: PORT must be a port number\n');

    for (const command of ['backup', 'restore']) {
      const pg = await cli([command, ...(command === 'restore' ? ['x.dump'] : [])], {
        DATABASE_URL: 'postgres://qr:s3cret@db.example:5432/qr',
      });
      expect(pg.code).toBe(2);
      expect(pg.stdout).toMatch(
        /pg_dump --format=custom --exclude-table-data=scan_salts --file=qr-creator-\d{8}-\d{6}\.dump "\$DATABASE_URL"/,
      );
      expect(pg.stdout).not.toContain('s3cret');
    }
  });

  it('runs as its own process, as npm run backup and npm run restore start it', () => {
    const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
    const run = (args: string[]) =>
      spawnSync(process.execPath, [tsx, path.join(root, 'server/ops/cli.ts'), ...args], {
        cwd: root,
        env: { ...process.env, DATA_DIR: tempDir(), DATABASE_URL: '', PORT: '0' },
        encoding: 'utf8',
      });
    const unknown = run(['frob']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frob"');
    const refused = run(['backup']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Backup refused: There is no database at');
  }, 30_000);
});
