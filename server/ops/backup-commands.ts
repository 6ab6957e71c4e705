// `backup [file]` and `restore <file>`: SQLite with server/ops/backup.ts, PostgreSQL with pg_dump and
// pg_restore (server/ops/pg-tools.ts).
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { privateDir } from '../private-files.js';
import {
  OpsError,
  answersHealth,
  backupSqlite,
  defaultBackupFile,
  requireDatabase,
  restoreSqlite,
  sqliteFileOf,
} from './backup.js';
import type { CliIo } from './cli.js';
import {
  defaultDumpFile,
  dumpPostgres,
  findExecutable,
  postgresLabel,
  postgresToolAdvice,
  restorePostgres,
} from './pg-tools.js';

export const BACKUP_USAGE =
  'Usage: qr-creator backup [file]\n' +
  '  Writes a consistent copy of the database while the server runs, readable by its owner only.\n' +
  '  SQLite: the online backup, checked with PRAGMA integrity_check; default file\n' +
  '  <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.db (UTC).\n' +
  '  PostgreSQL: pg_dump --format=custom (needs pg_dump on PATH); default file\n' +
  '  <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.dump.\n' +
  '  A relative file is relative to the folder the command is run from.\n';

export const RESTORE_USAGE =
  'Usage: qr-creator restore <file>\n' +
  '  Puts a backup in place of the database. Stop the server first.\n' +
  '  SQLite: the current database is kept as <db>.before-restore-<timestamp>.\n' +
  '  PostgreSQL: pg_restore --clean --if-exists --single-transaction (needs pg_restore on PATH); the\n' +
  '  current database is first dumped to <DATA_DIR>/backups/before-restore-<timestamp>.dump.\n' +
  '  The server applies any newer migrations when it starts.\n';

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;

/** The configured port's /healthz: a server answering it is running (a sign beside SQLite's file lock). */
function healthUrlOf(config: Config): string | undefined {
  if (config.port === 0) return undefined;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/healthz`;
}

/** `<DATA_DIR>/backups`, 0700 (narrowed if an older version made it wider): backups are the owner's alone. */
function backupsDir(config: Config): string {
  const dir = path.join(config.dataDir, 'backups');
  privateDir(dir);
  return dir;
}

function refusal(verb: 'Backup' | 'Restore', error: unknown): string {
  if (error instanceof ConfigError || error instanceof OpsError) return `${verb} refused: ${error.message}\n`;
  return `${verb} failed: ${error instanceof Error ? error.message : String(error)}\n`;
}

/** `backup [file]`: 0 written and sound, 1 failed or refused, 2 a wrong command line or no pg_dump. */
export async function backupCommand(args: string[], io: CliIo): Promise<number> {
  if (isHelp(args[0])) {
    io.stdout(BACKUP_USAGE);
    return 0;
  }
  if (args.length > 1 || args[0]?.startsWith('-')) {
    io.stderr(
      `${args.length > 1 ? `backup takes one file at most, not ${args.length} arguments` : `Unknown option ${args[0]}`}.\n\n${BACKUP_USAGE}`,
    );
    return 2;
  }
  try {
    const config = loadConfig(io.env);
    const source = sqliteFileOf(config.databaseUrl);
    if (!source) return await backupPostgres(config, args[0], io);
    requireDatabase(source);
    const destination = args[0] ? path.resolve(io.cwd, args[0]) : defaultBackupFile(backupsDir(config));
    const result = await backupSqlite(source, destination);
    const ok = result.integrity.length === 1 && result.integrity[0] === 'ok';
    io.stdout(
      `Backed up ${result.source}\n` +
        `  to   ${result.file}\n` +
        `  size ${formatBytes(result.bytes)} (${result.bytes} bytes, ${result.pages} pages)\n` +
        `  took ${Math.round(result.ms)} ms` +
        (result.restarts > 0 ? ` (the server wrote meanwhile; copied in one snapshot)` : '') +
        `\n` +
        `PRAGMA integrity_check: ${result.integrity.join('\n  ')}\n`,
    );
    if (!ok) io.stderr(`The copy is damaged and was kept as ${result.file} for inspection.\n`);
    return ok ? 0 : 1;
  } catch (error) {
    io.stderr(refusal('Backup', error));
    return 1;
  }
}

async function backupPostgres(config: Config, file: string | undefined, io: CliIo): Promise<number> {
  const pgDump = findExecutable('pg_dump', io.env);
  if (!pgDump) {
    io.stderr(postgresToolAdvice('pg_dump', config.databaseUrl));
    return 2;
  }
  const destination = file ? path.resolve(io.cwd, file) : defaultDumpFile(backupsDir(config));
  const result = await dumpPostgres(pgDump, config.databaseUrl, destination, { env: io.env });
  io.stdout(
    `Backed up ${postgresLabel(config.databaseUrl)} (pg_dump --format=custom)\n` +
      `  to   ${result.file}\n` +
      `  size ${formatBytes(result.bytes)} (${result.bytes} bytes)\n` +
      `  took ${Math.round(result.ms)} ms\n` +
      `Restore it with: qr-creator restore ${result.file}\n`,
  );
  return 0;
}

/** `restore <file>`: 0 restored, 1 refused or failed, 2 a wrong command line or no pg_restore. */
export async function restoreCommand(args: string[], io: CliIo): Promise<number> {
  if (isHelp(args[0])) {
    io.stdout(RESTORE_USAGE);
    return 0;
  }
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    io.stderr(
      `${
        args.length === 0
          ? 'Restore refused: name the backup file to restore'
          : args.length > 1
            ? `restore takes one file, not ${args.length} arguments`
            : `Unknown option ${args[0]}`
      }.\n\n${RESTORE_USAGE}`,
    );
    return 2;
  }
  try {
    const config = loadConfig(io.env);
    const database = sqliteFileOf(config.databaseUrl);
    const healthUrl = healthUrlOf(config);
    if (!database) return await restorePostgresCommand(config, path.resolve(io.cwd, args[0]!), healthUrl, io);
    const result = await restoreSqlite(path.resolve(io.cwd, args[0]!), database, { healthUrl });
    io.stdout(
      (result.movedAside.length > 0
        ? `Moved the previous database aside:\n${result.movedAside.map((f) => `  ${f}\n`).join('')}`
        : `There was no database at ${result.database} yet.\n`) +
        `Restored ${result.restoredFrom} (${result.bytes} bytes, PRAGMA integrity_check: ok)\n` +
        `  to ${result.database}\n` +
        `Start the server; it applies any newer migrations at start-up.\n`,
    );
    return 0;
  } catch (error) {
    io.stderr(refusal('Restore', error));
    return 1;
  }
}

async function restorePostgresCommand(
  config: Config,
  file: string,
  healthUrl: string | undefined,
  io: CliIo,
): Promise<number> {
  const pgRestore = findExecutable('pg_restore', io.env);
  if (!pgRestore) {
    io.stderr(postgresToolAdvice('pg_restore', config.databaseUrl));
    return 2;
  }
  if (healthUrl && (await answersHealth(healthUrl))) {
    throw new OpsError(
      `A server answers GET ${healthUrl}: stop every instance first (Ctrl-C or SIGTERM), then restore.`,
    );
  }
  // The database as it is now, so that a restore of the wrong file can be undone.
  const pgDump = findExecutable('pg_dump', io.env);
  let before = 'no copy of the current database was made (pg_dump is not on PATH)';
  if (pgDump) {
    const copy = await dumpPostgres(
      pgDump,
      config.databaseUrl,
      defaultDumpFile(backupsDir(config), new Date(), 'before-restore'),
      { env: io.env },
    );
    before = `the database as it was is kept in ${copy.file}`;
  }
  const result = await restorePostgres(pgRestore, config.databaseUrl, file, { env: io.env });
  io.stdout(
    `Restored ${result.file}\n` +
      `  to ${postgresLabel(config.databaseUrl)} in ${Math.round(result.ms)} ms; ${before}.\n` +
      `Start the server; it applies any newer migrations at start-up.\n`,
  );
  return 0;
}
