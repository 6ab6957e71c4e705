import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserSummary } from '../../src/analytics/analytics.schema.js';
import { migrateTo } from '../../migrations/migration-test-kit.js';
import { createDb } from '../db/create-db.js';
import { knownMigrations, migrateToLatest } from '../db/migrate.js';
import { hashPassword, verifyPassword } from '../features/auth/passwords.js';
import { insertQrRow, insertScans, insertTestUser } from '../test/fixtures.js';
import { call, createTestApp, login, sessionCookie } from '../test/test-app.js';
import { databaseUrl, testDatabaseUrl } from '../test/test-db.js';
import { APP_VERSION } from '../version.js';
import { callerCwd, type CliIo } from './cli.js';
import { USAGE, runCli } from './cli-commands.js';
import { migrateCommand } from './migrate-command.js';
import { findExecutable } from './pg-tools.js';
import { upgradeDatabase } from './upgrade.js';

import { buildIfNeeded } from '../../scripts/built-app.mjs';
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

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** A CliIo over a test's environment and folder that keeps what was printed; `input` is standard input. */
function testIo(env: NodeJS.ProcessEnv, cwd: string, input?: string) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    env,
    cwd,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    readInputLine: () => Promise.resolve(input),
  };
  return { io, out };
}

/** The command line run in this process, with its own environment and folder; what it printed. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = root, input?: string): Promise<Ran> {
  const { io, out } = testIo(env, cwd, input);
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

function read<T>(file: string, query: string, ...params: unknown[]): T {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    return db.prepare(query).get(...params) as T;
  } finally {
    db.close();
  }
}

const scansOf = (file: string, codeId: number) =>
  read<{ n: number }>(file, 'select count(*) as n from qr_scans where qr_code_id = ?', codeId).n;
const migrationsOf = (file: string) =>
  read<{ n: number }>(file, 'select count(*) as n from kysely_migration').n;
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

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
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(scansOf(file, codeId)).toBe(4);

    // The live database moves on; a named file is resolved from the caller's folder.
    const more = createDb(`sqlite:${path.join(dataDir, 'qr-creator.db')}`);
    await insertScans(more.db, codeId, 3);
    await more.close();
    expect(scansOf(path.join(dataDir, 'qr-creator.db'), codeId)).toBe(7);
    // A folder of the caller's keeps its mode; the file is the owner's alone.
    const shared = path.join(dataDir, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    const named = await cli(['backup', 'named.db'], env, shared);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain(`  to   ${path.join(shared, 'named.db')}\n`);
    expect(modeOf(shared)).toBe(0o755);
    expect(modeOf(path.join(shared, 'named.db'))).toBe(0o600);

    const restore = await cli(['restore', path.relative(dataDir, file)], env, dataDir);
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(
      /^Moved the previous database aside:\n {2}\S+\.before-restore-\d{8}-\d{6}\n/,
    );
    expect(restore.stdout).toContain(`Restored ${file} (`);
    expect(restore.stdout).toContain('Start the server; it applies any newer migrations at start-up.');
    const live = path.join(dataDir, 'qr-creator.db');
    expect(scansOf(live, codeId)).toBe(4);
    expect(modeOf(live)).toBe(0o600);
    const aside = fs.readdirSync(dataDir).filter((f) => f.includes('.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(scansOf(path.join(dataDir, aside[0]!), codeId)).toBe(7);

    // The restored file is the server's own: `version` finds every migration applied.
    const version = await cli(['version'], env);
    expect(version).toEqual({
      code: 0,
      stdout:
        `qr-creator ${APP_VERSION} (Node ${process.version})\n` +
        `database: sqlite:${live}: last migration ${knownMigrations.at(-1)} (${knownMigrations.length} applied, 0 pending)\n`,
      stderr: '',
    });
  });

  it('prints the usage for help, names an unknown argument, and each command describes itself', async () => {
    const help = await cli(['--help']);
    expect(help).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    expect(await cli(['help'])).toEqual(help);
    expect(await cli(['-h'])).toEqual(help);
    for (const name of [
      'backup',
      'restore',
      'migrate',
      'check-config',
      'create-admin',
      'create-token',
      'version',
    ])
      expect(USAGE).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(USAGE).toContain('--config <file>');

    const unknown = await cli(['frob', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe(
      'Unknown argument "frob": the commands are backup, restore, migrate, check-config, create-admin, create-token and version.\n\n' +
        USAGE,
    );
    // Not a way into the object's own properties either.
    expect((await cli(['constructor'])).code).toBe(2);
    expect((await cli(['--frob'])).stderr).toMatch(/^Unknown argument "--frob"/);
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Name a command.');

    for (const [command, first] of [
      ['backup', 'Usage: qr-creator backup [file]'],
      ['restore', 'Usage: qr-creator restore <file>'],
      ['migrate', 'Usage: qr-creator migrate [--dry-run]'],
      ['create-admin', 'Usage: qr-creator create-admin <username> [--email <address>]'],
      ['create-token', 'Usage: qr-creator create-token --user <username>'],
      ['version', 'Usage: qr-creator version'],
    ] as const) {
      const described = await cli([command, '--help']);
      expect(described.code, command).toBe(0);
      expect(described.stdout.startsWith(first), command).toBe(true);
    }
    // npm starts its scripts in the package folder: the caller's folder is INIT_CWD, under our scripts only.
    expect(callerCwd({ INIT_CWD: '/home/ada', npm_lifecycle_event: 'backup' })).toBe('/home/ada');
    expect(callerCwd({ INIT_CWD: '/home/ada', npm_lifecycle_event: 'test' })).toBe(process.cwd());
    expect(callerCwd({})).toBe(process.cwd());

    // --version and -v are `version`.
    const dataDir = tempDir();
    const version = await cli(['-v'], { DATA_DIR: dataDir });
    expect(version.stdout).toBe(
      `qr-creator ${APP_VERSION} (Node ${process.version})\n` +
        `database: sqlite:${path.join(dataDir, 'qr-creator.db')}: no database yet (the first start creates it)\n`,
    );
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses a wrong command line (exit 2) and what it cannot do (exit 1), changing nothing', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, PORT: '0' };

    const noFile = await cli(['restore'], env);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toMatch(/^Restore refused: name the backup file to restore\.\n\nUsage: /);
    const two = await cli(['backup', 'a.db', 'b.db'], env);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/^backup takes one file at most, not 2 arguments\./);
    expect((await cli(['migrate', '--force'], env)).stderr).toMatch(/^Unknown argument --force\./);
    expect((await cli(['version', 'x'], env)).code).toBe(2);
    expect((await cli(['create-admin'], env)).stderr).toMatch(/^Name the admin: create-admin <username>\./);
    expect((await cli(['create-admin', 'ada', '--email'], env)).stderr).toMatch(/^--email needs an address/);

    const missing = await cli(['restore', 'missing.db'], env, dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`Restore refused: There is no file ${path.join(dataDir, 'missing.db')}.\n`);

    const nothing = await cli(['backup'], env);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^Backup refused: There is no database at .*: nothing to back up\.\n$/);

    const badConfig = await cli(['backup'], { ...env, PORT: 'eighty' });
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/^Backup refused: Invalid configuration: PORT must be a port number/);
    expect(fs.readdirSync(dataDir)).toEqual([]);

    // PostgreSQL without its tools: what to install, and the command to run elsewhere.
    for (const [command, tool] of [
      ['backup', 'pg_dump'],
      ['restore', 'pg_restore'],
    ] as const) {
      const noTool = await cli([command, ...(command === 'restore' ? ['x.dump'] : [])], {
        DATABASE_URL: 'postgres://qr:s3cret@db.example:5432/qr',
        PATH: '',
      });
      expect(noTool.code).toBe(2);
      expect(noTool.stdout).toBe('');
      expect(noTool.stderr).toContain(
        `${tool} is needed to ${command === 'backup' ? 'back up' : 'restore'} the PostgreSQL database postgres://qr:***@db.example:5432/qr and was not found on PATH.`,
      );
      expect(noTool.stderr).toContain('apt-get install postgresql-client');
      expect(noTool.stderr).not.toContain('s3cret');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Upgrades: a database of the oldest migration set, migrated by this build.

const OLDEST = '2026-11-22T0800-scan-rollups';
const ADA_PASSWORD = 'ada-says-hello';

/**
 * `<dataDir>/qr-creator.db` as the 2026-11-22 build left it: its four migrations, a user with a dynamic
 * and a static code, 30 scans of the dynamic code (written before the rollups migration, which counts
 * them) and a folder.
 */
async function oldestDatabase(dataDir: string): Promise<{ file: string; slug: string }> {
  const file = path.join(dataDir, 'qr-creator.db');
  const handle = createDb(`sqlite:${file}`);
  try {
    await migrateTo(handle.db, '2026-11-22T0500-initial');
    const db = handle.db;
    await sql`insert into users (username, password, name, email, created_at)
      values ('ada', ${await hashPassword(ADA_PASSWORD)}, 'Ada', 'ada@example.com', '2026-11-01T10:00:00.000Z')`.execute(
      db,
    );
    await sql`insert into folders (name, user_id) values ('Flyers', 1)`.execute(db);
    await sql`insert into qr_codes (user_id, folder_id, name, type, content, is_dynamic, slug, created, updated)
      values (1, 1, 'Menu', 'url', 'https://example.com/menu', ${true}, 'menu2026', '2026-11-02T10:00:00.000Z',
        '2026-11-02T10:00:00.000Z')`.execute(db);
    await sql`insert into qr_codes (user_id, name, type, content, is_dynamic, created, updated)
      values (1, 'Wi-Fi', 'text', 'hello', ${false}, '2026-11-02T11:00:00.000Z', '2026-11-02T11:00:00.000Z')`.execute(
      db,
    );
    for (let i = 0; i < 30; i++) {
      const at = new Date(Date.UTC(2026, 10, 3, 8) + i * 3_600_000).toISOString();
      await sql`insert into qr_scans (qr_code_id, timestamp, user_agent, ip_address, location, device)
        values (1, ${at}, 'Mozilla/5.0 (iPhone)', '203.0.113.9', 'Berlin, Germany', 'Mobile')`.execute(db);
    }
    await migrateTo(db, OLDEST);
  } finally {
    await handle.close();
  }
  return { file, slug: 'menu2026' };
}

describe('upgrades', () => {
  it('upgrades a database of the oldest migration set with its data, after a 0600 copy that restores', async () => {
    const dataDir = tempDir();
    const { file, slug } = await oldestDatabase(dataDir);
    const env = { DATA_DIR: dataDir, PORT: '0' };
    const pending = knownMigrations.length - 4;

    const before = await cli(['version'], env);
    expect(before.stdout).toContain(
      `database: sqlite:${file}: last migration ${OLDEST} (4 applied, ${pending} pending)\n`,
    );

    // --dry-run lists and changes nothing.
    const dry = await cli(['migrate', '--dry-run'], env);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(`^Database: sqlite:${file}\nApplied \\(4\\):\n  2026-11-22T0500-initial {2}\\(applied `),
    );
    expect(dry.stdout).toContain(`Pending (${pending}):\n  2026-11-25T0700-account\n`);
    expect(dry.stdout).toContain(
      `Dry run: nothing was changed. Without --dry-run, ${pending} migration(s) would run. ` +
        `A copy of the database would be written first to ${dataDir}/backups/pre-upgrade-${OLDEST}-<timestamp>.db.`,
    );
    expect(migrationsOf(file)).toBe(4);
    expect(fs.existsSync(path.join(dataDir, 'backups'))).toBe(false);

    // Copies of three earlier upgrades and a backup of the operator's own are there already.
    const backups = path.join(dataDir, 'backups');
    fs.mkdirSync(backups, { mode: 0o700 });
    const earlier = ['20260101-000000', '20260201-000000', '20260301-000000'].map((stamp) =>
      path.join(backups, `pre-upgrade-2026-11-22T0700-uploads-${stamp}.db`),
    );
    for (const f of [...earlier, path.join(backups, 'qr-creator-20250101-000000.db')])
      fs.writeFileSync(f, 'x');

    const { io, out } = testIo(env, root);
    const migrated = await migrateCommand([], io, () => new Date('2030-01-02T03:04:05Z'));
    expect(out.stderr).toBe('');
    expect(migrated).toBe(0);
    const copy = path.join(backups, `pre-upgrade-${OLDEST}-20300102-030405.db`);
    expect(out.stdout).toContain(`Database copied before the upgrade to ${copy}.\n`);
    expect(out.stdout).toContain(`Applied ${pending} migration(s):\n  2026-11-25T0700-account\n`);
    // The newest three copies made before upgrades stay; the operator's own backup is never touched.
    expect(fs.readdirSync(backups).sort()).toEqual(
      [
        'qr-creator-20250101-000000.db',
        path.basename(earlier[1]!),
        path.basename(earlier[2]!),
        path.basename(copy),
      ].sort(),
    );
    expect(modeOf(copy)).toBe(0o600);
    expect(migrationsOf(copy)).toBe(4);
    expect(scansOf(copy, 1)).toBe(30);
    expect(migrationsOf(file)).toBe(knownMigrations.length);
    expect((await cli(['migrate'], env)).stdout).toContain(
      'Nothing to do: the database has every migration of this build.\n',
    );

    // The app serves the upgraded data unchanged: the user signs in, the figures and the link hold.
    const handle = createDb(`sqlite:${file}`);
    const t = await createTestApp({
      handle,
      db: handle.db,
      dialect: 'sqlite',
      reset: () => Promise.resolve(),
      close: () => handle.close(),
    });
    try {
      const cookie = sessionCookie(await login(t.app, 'ada', ADA_PASSWORD));
      const summary = (await call(t.app, 'GET', '/api/analytics/user', { cookie })).json<UserSummary>();
      expect(summary.totalQRCodes).toBe(2);
      expect(summary.totalScans).toBe(30);
      expect(summary.qrCodeScans.map((c) => [c.name, c.scans])).toEqual([
        ['Menu', 30],
        ['Wi-Fi', 0],
      ]);
      const scan = await call(t.app, 'GET', `/r/${slug}`, { headers: { 'user-agent': 'Mozilla/5.0 (X11)' } });
      expect(scan.statusCode).toBe(302);
      expect(scan.headers.location).toBe('https://example.com/menu');
    } finally {
      await t.close();
      await handle.close();
    }

    // The copy restores (the server would then upgrade it again at its start).
    const restoredDir = tempDir();
    const restored = await cli(['restore', copy], { DATA_DIR: restoredDir, PORT: '0' });
    expect(restored.code).toBe(0);
    expect((await cli(['version'], { DATA_DIR: restoredDir })).stdout).toContain(
      `last migration ${OLDEST} (4 applied, ${pending} pending)`,
    );
  });

  it('refuses a database upgraded by a newer build before touching it, naming the copy made before', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'qr-creator.db');
    // This build's database, upgraded since by a build with one more migration.
    const handle = createDb(`sqlite:${file}`);
    await migrateToLatest(handle.db);
    await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-future', '2099-01-01T00:00:00.000Z')`.execute(
      handle.db,
    );
    const backups = path.join(dataDir, 'backups');
    fs.mkdirSync(backups);
    const copy = path.join(backups, `pre-upgrade-${knownMigrations.at(-1)}-20990101-000000.db`);
    fs.writeFileSync(copy, 'x');
    // A copy made before an even newer upgrade: this build could not run it.
    fs.writeFileSync(path.join(backups, 'pre-upgrade-2099-01-01T0000-future-20990102-000000.db'), 'x');
    const message =
      `The database was upgraded by a newer QR Creator (migration 2099-01-01T0000-future); this build ` +
      `(${APP_VERSION}) knows migrations up to ${knownMigrations.at(-1)}. Run the newer build, or restore ` +
      `the copy made before the upgrade: ${copy}`;
    try {
      // As the server's start meets it.
      await expect(
        upgradeDatabase(handle, {
          databaseUrl: `sqlite:${file}`,
          dataDir,
          now: () => new Date(),
          note: () => {},
        }),
      ).rejects.toThrow(message);
    } finally {
      await handle.close();
    }
    const env = { DATA_DIR: dataDir };
    const migrate = await cli(['migrate'], env);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toBe(`${message}\n`);
    expect(migrate.stdout).toContain(
      'Applied by a newer build, unknown to this one (1):\n  2099-01-01T0000-future',
    );
    expect((await cli(['version'], env)).stdout).toContain(
      `database: sqlite:${file}: newer than this build (migration 2099-01-01T0000-future; ${knownMigrations.length + 1} applied, 0 pending)`,
    );
    expect(fs.readdirSync(backups)).toHaveLength(2);
    expect(migrationsOf(file)).toBe(knownMigrations.length + 1);

    // Without any copy, the message says where none was found.
    fs.rmSync(backups, { recursive: true });
    expect((await cli(['migrate'], env)).stderr).toContain(
      `restore the copy made before the upgrade: none was found in ${backups}\n`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// create-admin

function userRow(file: string, username: string) {
  return read<{ id: number; password: string; is_admin: number; email: string | null } | undefined>(
    file,
    'select id, password, is_admin, email from users where username = ?',
    username,
  );
}

function auditRows(file: string) {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    return db
      .prepare('select actor_id, actor_username, action, target_label, after from audit_log order by id')
      .all() as { actor_id: number | null; actor_username: string; action: string; target_label: string }[];
  } finally {
    db.close();
  }
}

describe('create-admin', () => {
  it('creates an admin with ADMIN_PASSWORD, a piped password or a random one printed once; the audit log names the command line', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'qr-creator.db');
    const env = { DATA_DIR: dataDir };

    // No database yet: it is made and migrated first.
    const fromEnv = await cli(['create-admin', 'ada', '--email', 'Ada@Example.com'], {
      ...env,
      ADMIN_PASSWORD: 'from-the-environment',
    });
    expect(fromEnv.stderr).toBe('');
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stdout).toContain(
      `Migrated the database first (${knownMigrations.length} migration(s)).\n`,
    );
    expect(fromEnv.stdout).toContain(
      'Created the admin "ada" (id 1, Ada@Example.com).\nPassword: the one from ADMIN_PASSWORD.\n',
    );
    const ada = userRow(file, 'ada')!;
    expect(ada.is_admin).toBe(1);
    expect(await verifyPassword(ada.password, 'from-the-environment')).toBe(true);

    const piped = await cli(
      ['create-admin', '--email=bob@example.com', 'bob'],
      env,
      root,
      'from standard input',
    );
    expect(piped.stdout).toBe(
      'Created the admin "bob" (id 2, bob@example.com).\nPassword: the one from standard input.\n',
    );
    expect(await verifyPassword(userRow(file, 'bob')!.password, 'from standard input')).toBe(true);

    const random = await cli(['create-admin', 'cyd'], env);
    expect(random.code).toBe(0);
    const password = /Password \(shown only this once; sign in and change it\): (\S+)\n$/.exec(
      random.stdout,
    )?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const cyd = userRow(file, 'cyd')!;
    expect(cyd.email).toBeNull();
    expect(await verifyPassword(cyd.password, password!)).toBe(true);

    expect(auditRows(file).map((r) => [r.actor_id, r.actor_username, r.action, r.target_label])).toEqual([
      [null, '(command line)', 'user.create', 'ada'],
      [null, '(command line)', 'user.create', 'bob'],
      [null, '(command line)', 'user.create', 'cyd'],
    ]);
  });

  it('makes an existing user an admin, leaves an admin as it is, and refuses bad names, passwords and taken addresses', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'qr-creator.db');
    const handle = createDb(`sqlite:${file}`);
    try {
      await migrateToLatest(handle.db);
      await insertTestUser(handle.db, { username: 'Dora', email: 'dora@example.com' });
      await insertTestUser(handle.db, { username: 'demo', password: 'demo123' });
    } finally {
      await handle.close();
    }
    const env = { DATA_DIR: dataDir, ADMIN_PASSWORD: 'long-enough' };

    const promoted = await cli(['create-admin', 'dora', '--email', 'x@example.com'], env);
    expect(promoted).toEqual({
      code: 0,
      stdout:
        '"Dora" was a user and is now an admin; their password is unchanged. --email was not used: their address stays as it is.\n',
      stderr: '',
    });
    const dora = userRow(file, 'Dora')!;
    expect(dora.is_admin).toBe(1);
    expect(dora.email).toBe('dora@example.com');
    expect((await cli(['create-admin', 'Dora'], env)).stdout).toBe(
      '"Dora" is already an admin; nothing was changed.\n',
    );
    expect(auditRows(file).map((r) => [r.actor_username, r.action, r.target_label])).toEqual([
      ['(command line)', 'user.update', 'Dora'],
    ]);
    // The demo account's password is public: it never becomes an admin.
    const demo = await cli(['create-admin', 'demo'], env);
    expect(demo.code).toBe(1);
    expect(demo.stderr).toContain(`"demo" still has the demo account's public password`);
    expect(userRow(file, 'demo')!.is_admin).toBe(0);

    const refusals: [string[], NodeJS.ProcessEnv, string][] = [
      [['create-admin', 'ab'], env, 'create-admin refused: Username must be at least 3 characters.\n'],
      [['create-admin', 'a b c'], env, 'create-admin refused: Username cannot contain spaces.\n'],
      [
        ['create-admin', 'eve'],
        { ADMIN_PASSWORD: 'short' },
        'create-admin refused: Invalid configuration: ADMIN_PASSWORD must be at least 6 characters\n',
      ],
      [
        ['create-admin', 'eve', '--email', 'not-an-address'],
        env,
        'create-admin refused: Invalid email address.\n',
      ],
      [
        ['create-admin', 'eve', '--email', 'DORA@example.com'],
        env,
        'create-admin refused: the address DORA@example.com belongs to another user.\n',
      ],
    ];
    for (const [argv, e, message] of refusals) {
      const refused = await cli(argv, { DATA_DIR: dataDir, ...e });
      expect(refused.stderr, argv.join(' ')).toBe(message);
      expect(refused.code).toBe(1);
    }
    const shortPiped = await cli(['create-admin', 'eve'], { DATA_DIR: dataDir }, root, 'short');
    expect(shortPiped.stderr).toBe(
      'create-admin refused: Password must be at least 6 characters (the password from standard input).\n',
    );
    expect(userRow(file, 'eve')).toBeUndefined();
    expect(auditRows(file)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// PostgreSQL: pg_dump and pg_restore, on a database of the test's own.

const pgBase = testDatabaseUrl();
const pgDump = findExecutable('pg_dump', process.env);
describe.skipIf(!pgBase || !pgDump || !findExecutable('pg_restore', process.env))(
  `PostgreSQL backup and restore${pgBase ? '' : ' (skipped: TEST_DATABASE_URL not set)'}${pgDump ? '' : ' (skipped: no pg_dump)'}`,
  () => {
    it('backup dumps with pg_dump (0600); restore puts the dump back with pg_restore, keeping the database as it was; version, migrate and create-admin work on it', async () => {
      // A database of its own (the run drops every database with its prefix when it ends): restore
      // replaces every table of the database it is given.
      const name = `${process.env.TEST_RUN_PREFIX ?? 't_'}cli_${randomBytes(4).toString('hex')}`;
      const template = process.env.TEST_PG_TEMPLATE;
      const url = databaseUrl(pgBase!, name);
      const admin = new pg.Client({ connectionString: pgBase });
      await admin.connect();
      try {
        await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
      } finally {
        await admin.end();
      }
      // pg's Client, not a pool: its end() waits until the connection has closed.
      const scans = async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query<{ scans: string; migrations: string }>(
            'select (select count(*) from qr_scans) as scans, (select count(*) from kysely_migration) as migrations',
          );
          expect(Number(rows[0]!.migrations)).toBe(knownMigrations.length);
          return Number(rows[0]!.scans);
        } finally {
          await client.end();
        }
      };
      const handle = createDb(url, { poolSize: 1 });
      let codeId: number;
      try {
        if (!template) await migrateToLatest(handle.db);
        const user = await insertTestUser(handle.db, { username: 'pgowner' });
        codeId = (await insertQrRow(handle.db, { userId: user.id, isDynamic: true })).id;
        await insertScans(handle.db, codeId, 5);
      } finally {
        await handle.close();
      }

      const dataDir = tempDir();
      const env = { PATH: process.env.PATH, DATA_DIR: dataDir, DATABASE_URL: url, PORT: '0' };
      const backup = await cli(['backup'], env);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      const dump = /to {3}(\S+)/.exec(backup.stdout)?.[1] ?? '';
      expect(dump).toMatch(new RegExp(`^${dataDir}/backups/qr-creator-\\d{8}-\\d{6}\\.dump$`));
      expect(modeOf(dump)).toBe(0o600);
      expect(fs.readFileSync(dump).subarray(0, 5).toString('latin1')).toBe('PGDMP');

      const more = createDb(url, { poolSize: 1 });
      await insertScans(more.db, codeId, 2);
      await more.close();
      expect(await scans()).toBe(7);

      const restore = await cli(['restore', dump], env);
      expect(restore.stderr).toBe('');
      expect(restore.code).toBe(0);
      expect(restore.stdout).toMatch(
        /the database as it was is kept in \S+\/before-restore-\d{8}-\d{6}\.dump\./,
      );
      expect(await scans()).toBe(5);

      const notADump = await cli(['restore', path.join(dataDir, 'nothing.dump')], env);
      expect(notADump.code).toBe(1);
      expect(notADump.stderr).toMatch(/^Restore refused: There is no file /);

      // The other commands on PostgreSQL: the migration state, a dry run, an admin.
      const version = await cli(['version'], env);
      expect(version.code).toBe(0);
      expect(version.stdout).toContain(`${knownMigrations.length} applied, 0 pending`);
      const dryRun = await cli(['migrate', '--dry-run'], env);
      expect(dryRun.code).toBe(0);
      expect(dryRun.stdout).toContain('Pending (0):');
      const created = await cli(['create-admin', 'pgadmin'], { ...env, ADMIN_PASSWORD: 'long-enough' });
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ is_admin: boolean | number }>(
          "select is_admin from users where username = 'pgadmin'",
        );
        expect(rows.map((r) => Boolean(r.is_admin))).toEqual([true]);
      } finally {
        await client.end();
      }
    }, 60_000);
  },
);

// ---------------------------------------------------------------------------------------------
// The built bundle: `node dist/server.mjs <command>` as the executable and the npm scripts run it.

describe('node dist/server.mjs', () => {
  beforeAll(buildIfNeeded, 180_000);

  it('runs a command instead of serving: --help, version, an unknown argument, --config, a backup, a refused start', async () => {
    const { dataDir, codeId } = await dataDirWithScans(2);
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [path.join(root, 'dist/server.mjs'), ...args], {
        cwd: dataDir,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...env },
        encoding: 'utf8',
        timeout: 30_000,
      });

    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(USAGE);

    const version = run(['version']);
    expect(version.stderr).toBe('');
    expect(version.stdout).toMatch(
      new RegExp(
        `^qr-creator ${APP_VERSION.replaceAll('.', '\\.')} \\(Node v\\d+\\.\\d+\\.\\d+\\)\ndatabase: sqlite:`,
      ),
    );

    const unknown = run(['--frob']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe(
      'Unknown argument "--frob": the commands are backup, restore, migrate, check-config, create-admin, create-token and version.',
    );
    expect(unknown.stderr).toContain(USAGE);

    const noConfig = run(['--config', 'missing.json', 'version']);
    expect(noConfig.status).toBe(2);
    expect(noConfig.stderr).toBe(`--config: there is no file ${path.join(dataDir, 'missing.json')}.\n`);

    // A relative file is the caller's folder's; the command leaves no server behind.
    const backup = run(['backup', 'copy.db']);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(modeOf(path.join(dataDir, 'copy.db'))).toBe(0o600);
    expect(scansOf(path.join(dataDir, 'copy.db'), codeId)).toBe(2);

    // A start on a database a newer build upgraded: the first log line, then the refusal; exit 1.
    const db = new SQLite(path.join(dataDir, 'qr-creator.db'));
    db.prepare(
      "insert into kysely_migration (name, timestamp) values ('2099-01-01T0000-future', '2099')",
    ).run();
    db.close();
    const start = run([], { HOST: '127.0.0.1' });
    expect(start.status).toBe(1);
    const first = JSON.parse(start.stdout.split('\n')[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({
      level: 30,
      msg: `QR Creator ${APP_VERSION} starting`,
      version: APP_VERSION,
      node: process.version,
      database: `sqlite:${path.join(dataDir, 'qr-creator.db')}`,
      migrations: { applied: knownMigrations.length + 1, pending: 0, last: '2099-01-01T0000-future' },
    });
    expect(start.stderr).toBe(
      `The database was upgraded by a newer QR Creator (migration 2099-01-01T0000-future); this build ` +
        `(${APP_VERSION}) knows migrations up to ${knownMigrations.at(-1)}. Run the newer build, or restore ` +
        `the copy made before the upgrade: none was found in ${path.join(dataDir, 'backups')}\n`,
    );
  }, 60_000);
});
