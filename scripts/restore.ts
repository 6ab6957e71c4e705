// npm run restore <file> — puts a backup in place of the SQLite database while the server is stopped.
// Reads the server's configuration (DATA_DIR, DATABASE_URL, PORT); the work is in server/ops/backup.ts.
// Exit codes: 0 restored, 1 refused or failed, 2 PostgreSQL (use pg_restore).
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config.js';
import { OpsError, postgresBackupAdvice, restoreSqlite, sqliteFileOf } from '../server/ops/backup.js';

/** A path typed by the caller: `npm run` starts scripts in the package folder, INIT_CWD is where they were. */
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    process.stderr.write(
      (args.length === 0 ? 'Restore refused: name the backup file to restore.\n' : '') +
        'Usage: npm run restore <file>\n' +
        '  Stop the server first. The current database is kept as <db>.before-restore-<timestamp>;\n' +
        '  the server applies any newer migrations when it starts.\n',
    );
    return args[0] === '--help' || args[0] === '-h' ? 0 : 1;
  }
  const config = loadConfig();
  const database = sqliteFileOf(config.databaseUrl);
  if (!database) {
    process.stdout.write(postgresBackupAdvice(config.databaseUrl));
    return 2;
  }
  // A second sign of a running server beside the file lock: the configured port answering /healthz.
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const healthUrl =
    config.port === 0
      ? undefined
      : `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/healthz`;
  const result = await restoreSqlite(fromCaller(args[0]!), database, { healthUrl });
  process.stdout.write(
    (result.movedAside.length > 0
      ? `Moved the previous database aside:\n${result.movedAside.map((f) => `  ${f}\n`).join('')}`
      : `There was no database at ${result.database} yet.\n`) +
      `Restored ${result.restoredFrom} (${result.bytes} bytes, PRAGMA integrity_check: ok)\n` +
      `  to ${result.database}\n` +
      `Start the server (npm start); it applies any newer migrations at start-up.\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof OpsError) {
      process.stderr.write(`Restore refused: ${error.message}\n`);
    } else {
      process.stderr.write(`Restore failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  },
);
