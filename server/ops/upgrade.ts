import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sqliteHandle, createDb, type DbHandle } from '../db/create-db.js';
import { knownMigrations, migrateToLatest, readMigrationState, type MigrationState } from '../db/migrate.js';
import { privateDir } from '../private-files.js';
import { APP_VERSION } from '../version.js';
import { OpsError, backupSqlite, sqliteFileOf, timestamp, unusedName } from './backup.js';
import { postgresLabel } from './pg-tools.js';

/**
 * Upgrades, as the server's start and the `migrate` command run them: the database's migration state
 * is read first; a database that a newer build has upgraded is refused before anything touches it; an
 * existing SQLite database is copied (0600, with the online backup) to
 * `<DATA_DIR>/backups/pre-upgrade-<last applied migration>-<YYYYMMDD-HHMMSS>.db` before any migration
 * runs, and only the newest PRE_UPGRADE_KEEP such copies are kept. PostgreSQL is copied by pg_dump,
 * which the operator runs (the `backup` command): the server logs that instead.
 */

/** How many copies made before upgrades are kept (the newest; other backups are never deleted). */
export const PRE_UPGRADE_KEEP = 3;

const PRE_UPGRADE_FILE = /^pre-upgrade-(.+)-(\d{8}-\d{6})(?:-(\d+))?\.db$/;

/** Told of each step (the server logs it; the command line prints it). */
export type UpgradeNote = (message: string, fields?: Record<string, unknown>) => void;

/** A database upgraded by a newer build than this one: the message says what to do. */
export class NewerDatabaseError extends Error {}

/** `sqlite:/abs/file` or `postgres://user@host:port/db` (never a password). */
export function databaseLabel(databaseUrl: string): string {
  const file = sqliteFileOf(databaseUrl);
  return file ? `sqlite:${file}` : postgresLabel(databaseUrl);
}

export interface PreUpgradeCopy {
  file: string;
  /** The newest migration the database had when it was copied. */
  migration: string;
  /** YYYYMMDD-HHMMSS (UTC) of the copy. */
  stamp: string;
}

/** The copies made before upgrades in `<dataDir>/backups`, newest first. */
export function preUpgradeCopies(dataDir: string): PreUpgradeCopy[] {
  const dir = path.join(dataDir, 'backups');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const copies: (PreUpgradeCopy & { n: number })[] = [];
  for (const name of names) {
    const m = PRE_UPGRADE_FILE.exec(name);
    if (!m) continue;
    copies.push({ file: path.join(dir, name), migration: m[1]!, stamp: m[2]!, n: Number(m[3] ?? 1) });
  }
  copies.sort((a, b) => b.stamp.localeCompare(a.stamp) || b.n - a.n);
  return copies.map(({ file, migration, stamp }) => ({ file, migration, stamp }));
}

/**
 * The refusal of a database newer than this build. The copy named is the newest one this build can
 * run (made when the database had one of this build's migrations as its newest), else the newest.
 */
export function newerDatabaseMessage(state: MigrationState, dataDir: string, postgres: boolean): string {
  const newest = state.unknown.at(-1) ?? state.last ?? '?';
  const known = new Set(knownMigrations);
  const copies = preUpgradeCopies(dataDir);
  const copy = copies.find((c) => known.has(c.migration)) ?? copies[0];
  const where = copy
    ? copy.file
    : postgres
      ? 'none is made for PostgreSQL; restore the pg_dump taken before the upgrade'
      : `none was found in ${path.join(dataDir, 'backups')}`;
  return (
    `The database was upgraded by a newer QR Creator (migration ${newest}); this build (${APP_VERSION}) ` +
    `knows migrations up to ${knownMigrations.at(-1)}. Run the newer build, or restore the copy made ` +
    `before the upgrade: ${where}`
  );
}

/** Removes all but the newest `keep` copies made before upgrades; answers the files removed. */
export function prunePreUpgradeCopies(dataDir: string, keep = PRE_UPGRADE_KEEP): string[] {
  const old = preUpgradeCopies(dataDir).slice(keep);
  for (const copy of old) fs.rmSync(copy.file, { force: true });
  return old.map((c) => c.file);
}

/**
 * Copies the SQLite database `file` to `<dataDir>/backups/pre-upgrade-<last>-<stamp>.db` and prunes
 * older such copies. Throws OpsError when the copy cannot be written or fails its integrity check.
 */
export async function writePreUpgradeCopy(
  file: string,
  dataDir: string,
  last: string,
  now: Date,
): Promise<{ file: string; bytes: number; ms: number; removed: string[] }> {
  const dir = path.join(dataDir, 'backups');
  privateDir(dir);
  const target = unusedName(path.join(dir, `pre-upgrade-${last}-${timestamp(now)}.db`));
  const result = await backupSqlite(file, target);
  if (result.integrity.length !== 1 || result.integrity[0] !== 'ok') {
    throw new OpsError(
      `The copy of ${file} made before the upgrade fails PRAGMA integrity_check (kept as ${result.file}): ` +
        `${result.integrity.join('; ')}`,
    );
  }
  return { file: result.file, bytes: result.bytes, ms: result.ms, removed: prunePreUpgradeCopies(dataDir) };
}

export interface UpgradeOptions {
  databaseUrl: string;
  dataDir: string;
  now: () => Date;
  note: UpgradeNote;
  /** The state already read (the start log reads it first). */
  state?: MigrationState;
}

export interface UpgradeResult {
  /** The migrations applied now, in order. */
  applied: string[];
  /** The copy made before they ran (SQLite, a database that had migrations). */
  copy?: string;
}

/**
 * Brings the database to this build's migrations: refuses a newer database (NewerDatabaseError),
 * copies an existing SQLite database first, then migrates. A fresh database is migrated without a copy.
 */
export async function upgradeDatabase(handle: DbHandle, options: UpgradeOptions): Promise<UpgradeResult> {
  const state = options.state ?? (await readMigrationState(handle.db));
  const postgres = handle.dialect === 'postgres';
  if (state.unknown.length > 0) {
    throw new NewerDatabaseError(newerDatabaseMessage(state, options.dataDir, postgres));
  }
  if (state.pending.length === 0) return { applied: [] };
  let copy: string | undefined;
  if (state.applied.length > 0 && state.last) {
    const file = sqliteFileOf(options.databaseUrl);
    if (file) {
      const made = await writePreUpgradeCopy(file, options.dataDir, state.last, options.now());
      copy = made.file;
      options.note(`database copied before the upgrade to ${made.file}`, {
        file: made.file,
        bytes: made.bytes,
        ms: Math.round(made.ms),
        removedOlderCopies: made.removed,
      });
    } else {
      options.note(
        'PostgreSQL: no copy is made before migrations run; take one with pg_dump (the backup command) before upgrading',
        { pending: state.pending.length },
      );
    }
  }
  const applied = await migrateToLatest(handle.db);
  return { applied, ...(copy ? { copy } : {}) };
}

/**
 * The configured database for reading its state without changing it, or undefined when a SQLite
 * file does not exist yet (opening it would create it). SQLite: a plain connection, without the
 * server's settings.
 */
export function openExistingDatabase(databaseUrl: string): DbHandle | undefined {
  const file = sqliteFileOf(databaseUrl);
  if (!file) return createDb(databaseUrl, { poolSize: 1 });
  if (!fs.existsSync(file)) return undefined;
  const database = new SQLite(file, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  return sqliteHandle(database);
}

/**
 * A command's database (create-admin, create-token): opened from the configuration and brought up to date
 * first, each thing the upgrade does told to `say` as one sentence a line. Closed again if the upgrade fails.
 */
export async function openUpgradedDatabase(
  config: { databaseUrl: string; dataDir: string },
  now: () => Date,
  say: (line: string) => void,
): Promise<DbHandle> {
  const handle = createDb(config.databaseUrl, { poolSize: 2 });
  try {
    const upgrade = await upgradeDatabase(handle, {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      now,
      note: (message) => say(`${message[0]!.toUpperCase()}${message.slice(1)}.\n`),
    });
    if (upgrade.applied.length > 0) {
      say(`Migrated the database first (${upgrade.applied.length} migration(s)).\n`);
    }
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
