// The operations command line: `tsx server/ops/cli.ts <command> [arguments]`, run as `npm run backup`
// and `npm run restore`. It reads the server's configuration (DATA_DIR, DATABASE_URL; restore also HOST
// and PORT); the work is in server/ops/backup.ts.
//   backup [file]   a consistent copy of the live SQLite database while the server runs.
//                   Exit codes: 0 written and sound, 1 failed (or the copy fails PRAGMA integrity_check),
//                   2 PostgreSQL (use pg_dump).
//   restore <file>  puts a backup in place of the SQLite database while the server is stopped.
//                   Exit codes: 0 restored, 1 refused or failed, 2 PostgreSQL (use pg_restore).
// An unknown or missing command prints the usage and exits 2; --help prints it and exits 0.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import {
  OpsError,
  backupSqlite,
  defaultBackupFile,
  postgresBackupAdvice,
  restoreSqlite,
  sqliteFileOf,
} from './backup.js';

/** What a command reads and writes: the process's own, or a test's. */
export interface CliIo {
  /** The environment the server's settings are read from. */
  env: NodeJS.ProcessEnv;
  /** Where a file named on the command line is resolved from. */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** `npm run` starts scripts in the package folder; INIT_CWD is the folder the caller typed the command in. */
export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  };
}

export const USAGE =
  'Usage: npm run backup [file]      (tsx server/ops/cli.ts backup [file])\n' +
  '       npm run restore <file>     (tsx server/ops/cli.ts restore <file>)\n' +
  '\n' +
  'Commands:\n' +
  '  backup [file]    Writes a consistent copy of the SQLite database while the server runs;\n' +
  '                   default file: <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.db (UTC).\n' +
  '  restore <file>   Puts a backup in place of the SQLite database. Stop the server first.\n' +
  '\n' +
  "Both read the server's settings (DATA_DIR, DATABASE_URL; restore also HOST and PORT). With\n" +
  'PostgreSQL they print the pg_dump / pg_restore commands to run instead and exit 2.\n' +
  '<command> --help describes one command.\n';

const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** `npm run backup [file]`: 0 written and sound, 1 failed or refused, 2 PostgreSQL. */
export async function backupCommand(args: string[], io: CliIo = processIo()): Promise<number> {
  if (args.length > 1 || isHelp(args[0])) {
    io.stderr(
      'Usage: npm run backup [file]\n' +
        '  Writes a consistent copy of the SQLite database while the server runs;\n' +
        '  default file: <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.db (UTC).\n',
    );
    return isHelp(args[0]) ? 0 : 1;
  }
  try {
    const config = loadConfig(io.env);
    const source = sqliteFileOf(config.databaseUrl);
    if (!source) {
      io.stdout(postgresBackupAdvice(config.databaseUrl));
      return 2;
    }
    const destination = args[0] ? path.resolve(io.cwd, args[0]) : defaultBackupFile(config.dataDir);
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
    if (error instanceof ConfigError || error instanceof OpsError) {
      io.stderr(`Backup refused: ${error.message}\n`);
    } else {
      io.stderr(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
}

/** `npm run restore <file>`: 0 restored, 1 refused or failed, 2 PostgreSQL. */
export async function restoreCommand(args: string[], io: CliIo = processIo()): Promise<number> {
  if (args.length !== 1 || isHelp(args[0])) {
    io.stderr(
      (args.length === 0 ? 'Restore refused: name the backup file to restore.\n' : '') +
        'Usage: npm run restore <file>\n' +
        '  Stop the server first. The current database is kept as <db>.before-restore-<timestamp>;\n' +
        '  the server applies any newer migrations when it starts.\n',
    );
    return isHelp(args[0]) ? 0 : 1;
  }
  try {
    const config = loadConfig(io.env);
    const database = sqliteFileOf(config.databaseUrl);
    if (!database) {
      io.stdout(postgresBackupAdvice(config.databaseUrl));
      return 2;
    }
    // A second sign of a running server beside the file lock: the configured port answering /healthz.
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
    const healthUrl =
      config.port === 0
        ? undefined
        : `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/healthz`;
    const result = await restoreSqlite(path.resolve(io.cwd, args[0]!), database, { healthUrl });
    io.stdout(
      (result.movedAside.length > 0
        ? `Moved the previous database aside:\n${result.movedAside.map((f) => `  ${f}\n`).join('')}`
        : `There was no database at ${result.database} yet.\n`) +
        `Restored ${result.restoredFrom} (${result.bytes} bytes, PRAGMA integrity_check: ok)\n` +
        `  to ${result.database}\n` +
        `Start the server (npm start); it applies any newer migrations at start-up.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof OpsError) {
      io.stderr(`Restore refused: ${error.message}\n`);
    } else {
      io.stderr(`Restore failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  }
}

const commands: Record<string, (args: string[], io: CliIo) => Promise<number>> = {
  backup: backupCommand,
  restore: restoreCommand,
};

/** `<command> [arguments]` → the exit code: the command's own, 0 for --help, 2 for no or an unknown command. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...args] = argv;
  if (isHelp(name) || name === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (name === undefined) {
    io.stderr(`Name a command: backup or restore.\n\n${USAGE}`);
    return 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    io.stderr(`Unknown command "${name}": the commands are backup and restore.\n\n${USAGE}`);
    return 2;
  }
  return command(args, io);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
