import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OpsError, timestamp, unusedName } from './backup.js';

/**
 * Backup and restore of a PostgreSQL database with PostgreSQL's own tools, pg_dump and pg_restore
 * (Debian: apt-get install postgresql-client). pg_dump takes one consistent snapshot while the server
 * runs. The password never appears on a command line (where `ps` shows it to every user): it is taken
 * out of DATABASE_URL and handed over in PGPASSWORD.
 */

export interface PgToolOptions {
  /** The environment the tool runs with (and whose PATH it is found on). */
  env: NodeJS.ProcessEnv;
}

export interface DumpResult {
  file: string;
  bytes: number;
  ms: number;
}

/** A custom-format dump begins with these bytes. */
const DUMP_MAGIC = Buffer.from('PGDMP', 'latin1');

/** The first executable file `name` on the PATH of `env`, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The URL with its password masked, for messages. */
export function maskedUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    url.searchParams.delete('password');
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

/** `postgres://user@host:port/db`: what the start log and `version` say of a PostgreSQL database. */
export function postgresLabel(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `postgres://${user}${url.host}${url.pathname}`;
  } catch {
    return 'postgres://…';
  }
}

/** DATABASE_URL without its password (for the tool's command line), and the password (for PGPASSWORD). */
function splitPassword(databaseUrl: string): { connection: string; password?: string } {
  const url = new URL(databaseUrl);
  const password = url.password
    ? decodeURIComponent(url.password)
    : (url.searchParams.get('password') ?? undefined);
  url.password = '';
  url.searchParams.delete('password');
  return { connection: url.toString(), ...(password === undefined ? {} : { password }) };
}

/** What to do without the tool: install the client tools, or run the command by hand elsewhere. */
export function postgresToolAdvice(tool: 'pg_dump' | 'pg_restore', databaseUrl: string, now = new Date()) {
  const file = `qr-creator-${timestamp(now)}.dump`;
  return (
    `${tool} is needed to ${tool === 'pg_dump' ? 'back up' : 'restore'} the PostgreSQL database ` +
    `${maskedUrl(databaseUrl)} and was not found on PATH. Install PostgreSQL's client tools ` +
    `(Debian, Ubuntu: apt-get install postgresql-client; the same major version as the server or newer) ` +
    `and run this command again, or run ${tool} yourself where it is installed:\n\n` +
    (tool === 'pg_dump'
      ? `  pg_dump --format=custom --exclude-table-data=scan_salts --file=${file} "$DATABASE_URL"\n`
      : `  pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" ${file}\n`)
  );
}

/** Runs `command`; resolves with its exit code and what it wrote to stderr. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), stderr: stderr.trim() }));
  });
}

function toolEnv(env: NodeJS.ProcessEnv, password: string | undefined): NodeJS.ProcessEnv {
  return password === undefined ? { ...env } : { ...env, PGPASSWORD: password };
}

/** `<backupsDir>/<prefix>-YYYYMMDD-HHMMSS.dump` (UTC), never an existing file. */
export function defaultDumpFile(backupsDir: string, now = new Date(), prefix = 'qr-creator'): string {
  return unusedName(path.join(backupsDir, `${prefix}-${timestamp(now)}.dump`));
}

function isDump(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(DUMP_MAGIC.length);
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(DUMP_MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `pg_dump --format=custom` of the database into `destination` (mode 0600, written as
 * `<destination>.partial` and renamed when pg_dump succeeded). Today's visitor salt stays out of it,
 * as out of a SQLite backup. Throws OpsError with pg_dump's own message when it fails.
 */
export async function dumpPostgres(
  pgDump: string,
  databaseUrl: string,
  destination: string,
  { env }: PgToolOptions,
): Promise<DumpResult> {
  const dest = path.resolve(destination);
  if (fs.existsSync(dest) && fs.statSync(dest).isDirectory()) {
    throw new OpsError(`${dest} is a folder; name the backup file to write.`);
  }
  // A folder the caller named stays as it is; a new one is the owner's alone.
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
  const partial = `${dest}.partial`;
  // Created owner-only before pg_dump opens it: pg_dump keeps the mode of a file it truncates.
  fs.rmSync(partial, { force: true });
  fs.closeSync(fs.openSync(partial, 'wx', 0o600));
  const started = performance.now();
  const { connection, password } = splitPassword(databaseUrl);
  try {
    const result = await run(
      pgDump,
      [
        '--format=custom',
        '--exclude-table-data=scan_salts',
        '--no-password',
        `--file=${partial}`,
        connection,
      ],
      toolEnv(env, password),
    );
    if (result.code !== 0) {
      throw new OpsError(`pg_dump failed (exit ${result.code}): ${result.stderr || 'no message'}`);
    }
    if (!isDump(partial)) throw new OpsError(`pg_dump wrote no custom-format dump to ${partial}.`);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, dest);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { file: dest, bytes: fs.statSync(dest).size, ms: performance.now() - started };
}

/**
 * `pg_restore --clean --if-exists --no-owner --single-transaction` of `file` into the database: the
 * dump's tables replace the database's in one transaction, so a failure changes nothing. Refuses
 * (OpsError) a missing file or one that is not a custom-format dump.
 */
export async function restorePostgres(
  pgRestore: string,
  databaseUrl: string,
  file: string,
  { env }: PgToolOptions,
): Promise<{ file: string; ms: number }> {
  const from = path.resolve(file);
  const stat = fs.statSync(from, { throwIfNoEntry: false });
  if (!stat) throw new OpsError(`There is no file ${from}.`);
  if (!stat.isFile()) throw new OpsError(`${from} is not a file.`);
  if (!isDump(from)) {
    throw new OpsError(`${from} is not a pg_dump custom-format dump (made by the backup command).`);
  }
  const started = performance.now();
  const { connection, password } = splitPassword(databaseUrl);
  const result = await run(
    pgRestore,
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      '--exit-on-error',
      '--no-password',
      `--dbname=${connection}`,
      from,
    ],
    toolEnv(env, password),
  );
  if (result.code !== 0) {
    throw new OpsError(
      `pg_restore failed (exit ${result.code}); the database is unchanged: ${result.stderr || 'no message'}`,
    );
  }
  return { file: from, ms: performance.now() - started };
}
