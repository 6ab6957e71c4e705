import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * Online backup and restore of the SQLite database (the `backup` and `restore` commands of
 * server/ops/cli-commands.ts, and the copy made before an upgrade, server/ops/upgrade.ts).
 *
 * Backup uses SQLite's online backup API on a connection of its own, while the server keeps running.
 * The database is in WAL mode, where a reader never blocks a writer: each backup step holds a read
 * snapshot, and the server's scan writer goes on committing to the WAL meanwhile. What a step cannot
 * do is see another process's commits: when the server commits between two steps, SQLite restarts the
 * copy from the first page at the next step. Under a steady stream of scans a copy in many small
 * steps could restart for ever, so the copy starts in steps of `stepPages` and, at its first restart,
 * copies everything in one step: one read snapshot, which still blocks no writer (the server's WAL
 * only grows until the snapshot ends, as checkpoints cannot pass it). Either way the copy is the
 * database as of one commit, and it holds every transaction committed before the backup began: since
 * the recorder commits a scan before its redirect is answered, every scan answered by then.
 *
 * Restore puts a backup in place of the live file when the server is stopped: the server's open
 * connection in WAL mode keeps a shared lock on the database file for as long as it is open, so an
 * exclusive file lock (locking_mode=EXCLUSIVE and a read, busy_timeout 0) fails exactly while a server
 * has it open. `BEGIN EXCLUSIVE` is no such signal: in WAL mode it takes only the write lock and
 * succeeds beside an idle server.
 */

export class OpsError extends Error {}

export interface BackupResult {
  /** The database copied. */
  source: string;
  /** The file written. */
  file: string;
  bytes: number;
  pages: number;
  ms: number;
  /** Times another connection committed between two steps and the copy started over. */
  restarts: number;
  /** `PRAGMA integrity_check` of the copy: ['ok'] when sound. */
  integrity: string[];
}

export interface BackupOptions {
  /** Pages per step while nothing else writes (4 KiB pages: 1,000 pages are 4 MB). */
  stepPages?: number;
  /** Called after each step (tests use it to write between steps). */
  onProgress?: (progress: { totalPages: number; remainingPages: number }) => void;
}

export interface RestoreResult {
  /** The live database, now the backup's copy. */
  database: string;
  restoredFrom: string;
  bytes: number;
  /** Where the previous database (and its -wal/-shm files) went; empty when there was none. */
  movedAside: string[];
  integrity: string[];
}

export interface RestoreOptions {
  /** `GET <healthUrl>` answering 2xx also means the server is running (a second signal). */
  healthUrl?: string;
  now?: Date;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** The largest step better-sqlite3 takes: more pages than any database has. */
const ALL_PAGES = 0x7fffffff;

/** `sqlite:<file>` → the absolute file; PostgreSQL → undefined. */
export function sqliteFileOf(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const file = databaseUrl.slice('sqlite:'.length);
  if (file === '' || file === ':memory:') {
    throw new OpsError('DATABASE_URL names an in-memory SQLite database: there is no file to back up.');
  }
  return path.resolve(file);
}

/** YYYYMMDD-HHMMSS in UTC. */
export function timestamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-25T10:15:00.000Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}`;
}

/** A name beside `file` that does not exist yet: `file`, else `file-2`, `file-3`… before the extension. */
export function unusedName(file: string): string {
  const ext = path.extname(file);
  const base = file.slice(0, file.length - ext.length);
  let candidate = file;
  for (let n = 2; fs.existsSync(candidate); n++) candidate = `${base}-${n}${ext}`;
  return candidate;
}

/** `<backupsDir>/qr-creator-YYYYMMDD-HHMMSS.db` (UTC), never an existing file. */
export function defaultBackupFile(backupsDir: string, now = new Date()): string {
  return unusedName(path.join(backupsDir, `qr-creator-${timestamp(now)}.db`));
}

/** Every message of `PRAGMA integrity_check` (['ok'] for a sound database). */
function integrityOf(db: SQLite.Database): string[] {
  return (db.pragma('integrity_check(20)') as { integrity_check: string }[]).map((r) => r.integrity_check);
}

function hasSqliteHeader(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncFile(file: string) {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string) {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform can sync a directory; the rename itself is still atomic.
  }
}

/** A closed database's leftovers (normally none: the last connection to close removes them). */
function removeSidecars(file: string) {
  for (const f of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

function removeWithSidecars(file: string) {
  fs.rmSync(file, { force: true });
  removeSidecars(file);
}

/**
 * Today's visitor salt stays with the live database (server/features/scans/unique-scanners.ts): a
 * backup kept for months must not let anyone remake that day's visitor hashes. Overwritten, then
 * deleted, so its bytes are not left in the page. A restored backup starts the day with a new salt.
 */
function withoutVisitorSalt(copy: SQLite.Database) {
  const table = copy.prepare("select 1 from sqlite_master where type = 'table' and name = 'scan_salts'");
  if (!table.get()) return;
  copy.prepare('update scan_salts set salt = zeroblob(length(salt))').run();
  copy.prepare('delete from scan_salts').run();
}

/** The absolute path of `file`, a database that exists; else OpsError: nothing to back up. */
export function requireDatabase(file: string): string {
  const src = path.resolve(file);
  if (!fs.existsSync(src)) throw new OpsError(`There is no database at ${src}: nothing to back up.`);
  return src;
}

/** One copy of `src` to `partial` in steps of `step` pages, and its check. */
async function copyOnce(
  src: string,
  partial: string,
  step: number,
  onProgress: BackupOptions['onProgress'],
): Promise<{ pages: number; restarts: number; integrity: string[] }> {
  removeWithSidecars(partial);
  // A connection of its own, opened normally (a read-only one would leave -wal/-shm files behind
  // a stopped server's database). It only reads; the server's settings are not touched.
  const db = new SQLite(src, { fileMustExist: true });
  let restarts = 0;
  let pages: number;
  try {
    db.pragma('busy_timeout = 5000');
    let rate = step;
    let lastRemaining = Number.POSITIVE_INFINITY;
    const result = await db.backup(partial, {
      progress: (progress) => {
        // No progress since the last step: another connection committed and SQLite started over.
        if (progress.remainingPages >= lastRemaining) {
          restarts += 1;
          rate = ALL_PAGES;
        }
        lastRemaining = progress.remainingPages;
        onProgress?.(progress);
        return rate;
      },
    });
    pages = result.totalPages;
  } catch (error) {
    removeWithSidecars(partial);
    const message = error instanceof Error ? error.message : String(error);
    throw new OpsError(`The backup of ${src} failed: ${message}`);
  } finally {
    db.close();
  }
  try {
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      withoutVisitorSalt(copy);
      return { pages, restarts, integrity: integrityOf(copy) };
    } finally {
      copy.close();
    }
  } catch (error) {
    // A copy too damaged to open is a failed check, like one whose check finds faults.
    const message = error instanceof Error ? error.message : String(error);
    return { pages, restarts, integrity: [message] };
  }
}

/**
 * Copies the live database `source` to `destination` with SQLite's online backup API, while the
 * server may go on writing. The copy is written beside the destination as `<destination>.partial`,
 * switched to a rollback journal (one self-contained file, readable without -wal/-shm), checked with
 * `PRAGMA integrity_check`, synced, and renamed into place; an existing destination is replaced only
 * then. A copy that fails the check is left as `<destination>.failed` and reported in `integrity`.
 */
export async function backupSqlite(
  source: string,
  destination: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const src = requireDatabase(source);
  const dest = path.resolve(destination);
  if ([src, `${src}-wal`, `${src}-shm`, `${src}-journal`].includes(dest)) {
    throw new OpsError(`The backup cannot be written over the live database (${dest}).`);
  }
  if (fs.existsSync(dest) && fs.statSync(dest).isDirectory()) {
    throw new OpsError(`${dest} is a folder; name the backup file to write.`);
  }
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
  const partial = `${dest}.partial`;
  removeWithSidecars(partial);

  const started = performance.now();
  let restarts = 0;
  let pages = 0;
  let integrity: string[] = [];
  // A copy in several steps under a stream of writes from another process once came out torn although
  // SQLite reported no restart (index entries missing, caught by the check below): such a copy is made
  // again in one step, one read snapshot from its first page to its last.
  for (const step of [Math.max(1, Math.round(options.stepPages ?? 1000)), ALL_PAGES]) {
    const copy = await copyOnce(src, partial, step, options.onProgress);
    restarts += copy.restarts;
    pages = copy.pages;
    integrity = copy.integrity;
    if (integrity.length === 1 && integrity[0] === 'ok') break;
  }
  removeSidecars(partial);
  // A copy of password and session hashes: the owner's alone.
  fs.chmodSync(partial, 0o600);
  fsyncFile(partial);
  const ok = integrity.length === 1 && integrity[0] === 'ok';
  const file = ok ? dest : `${dest}.failed`;
  fs.renameSync(partial, file);
  fsyncDir(path.dirname(file));
  return {
    source: src,
    file,
    bytes: fs.statSync(file).size,
    pages,
    ms: performance.now() - started,
    restarts,
    integrity,
  };
}

/**
 * Whether a process (the server) has `file` open: in WAL mode every open connection holds a shared
 * lock on the database file, so an exclusive lock cannot be had. Answers false when nobody does;
 * the probe's own close then checkpoints the WAL into the file and removes it, as a server's clean
 * shutdown does.
 */
export function databaseInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.prepare('select count(*) from sqlite_master').get();
    return false;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return true;
    // Not a readable database (damaged, say): nobody serves it, and it is about to be replaced.
    return false;
  } finally {
    db?.close();
  }
}

/** Whether something answers `GET url` with a 2xx within a second. */
export async function answersHealth(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000), redirect: 'manual' });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** Checks a would-be backup file without changing it; throws OpsError naming what is wrong. */
function checkBackupFile(backup: string) {
  const stat = fs.statSync(backup, { throwIfNoEntry: false });
  if (!stat) throw new OpsError(`There is no file ${backup}.`);
  if (!stat.isFile()) throw new OpsError(`${backup} is not a file.`);
  if (!hasSqliteHeader(backup)) throw new OpsError(`${backup} is not a SQLite database.`);
  const wal = fs.statSync(`${backup}-wal`, { throwIfNoEntry: false });
  if (wal && wal.size > 0) {
    throw new OpsError(
      `${backup} has a write-ahead log beside it (${backup}-wal) that holds part of its data; ` +
        `take a backup with the backup command instead of copying a live database file.`,
    );
  }
}

/**
 * Puts `backup` in place of the live database `database` while the server is stopped. Refuses
 * (OpsError) when the backup is missing, is not a SQLite database, fails `PRAGMA integrity_check` or
 * is not a QR Creator database, or when a server has the database open (or answers `healthUrl`).
 * The backup is copied to a temporary file in the database's folder and checked there, the current
 * database and its -wal/-shm files are moved to `<database>.before-restore-<timestamp>`, and the copy
 * is renamed into place. Migrations are not run: the server runs them when it starts.
 */
export async function restoreSqlite(
  backup: string,
  database: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const from = path.resolve(backup);
  const live = path.resolve(database);
  if ([live, `${live}-wal`, `${live}-shm`].includes(from)) {
    throw new OpsError(`${from} is the live database itself; name a backup file.`);
  }
  checkBackupFile(from);

  const running = () =>
    new OpsError(
      `The server is running: another process has ${live} open. Stop it first (Ctrl-C or SIGTERM), then restore.`,
    );
  if (databaseInUse(live)) throw running();
  if (options.healthUrl && (await answersHealth(options.healthUrl))) {
    throw new OpsError(
      `A server answers GET ${options.healthUrl}: stop it first (Ctrl-C or SIGTERM), then restore.`,
    );
  }

  const dir = path.dirname(live);
  fs.mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(live)}.restore-${process.pid}-${Date.now()}.tmp`);
  let integrity: string[];
  try {
    fs.copyFileSync(from, temp);
    fs.chmodSync(temp, 0o600);
    let copy: SQLite.Database;
    try {
      copy = new SQLite(temp, { fileMustExist: true });
    } catch (error) {
      throw new OpsError(`${from} cannot be opened as a SQLite database: ${(error as Error).message}`);
    }
    try {
      try {
        integrity = integrityOf(copy);
      } catch (error) {
        throw new OpsError(`${from} is damaged: ${(error as Error).message}`);
      }
      if (integrity.length !== 1 || integrity[0] !== 'ok') {
        throw new OpsError(`${from} fails PRAGMA integrity_check:\n  ${integrity.join('\n  ')}`);
      }
      const tables = copy
        .prepare(
          "select name from sqlite_master where type = 'table' and name in ('kysely_migration', 'users')",
        )
        .all();
      if (tables.length < 2) throw new OpsError(`${from} is a SQLite database but not one of QR Creator.`);
    } finally {
      copy.close();
    }
    removeSidecars(temp);
    fsyncFile(temp);

    // Checked again just before the move: a server started meanwhile would hold the file open now.
    if (databaseInUse(live)) throw running();
    const movedAside: string[] = [];
    const aside = unusedName(`${live}.before-restore-${timestamp(options.now ?? new Date())}`);
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      if (!fs.existsSync(`${live}${suffix}`)) continue;
      fs.renameSync(`${live}${suffix}`, `${aside}${suffix}`);
      movedAside.push(`${aside}${suffix}`);
    }
    fs.renameSync(temp, live);
    fsyncDir(dir);
    return { database: live, restoredFrom: from, bytes: fs.statSync(live).size, movedAside, integrity };
  } finally {
    removeWithSidecars(temp);
  }
}
