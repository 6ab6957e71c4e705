// npm run backup [file] — a consistent copy of the live SQLite database while the server runs.
// Reads the server's configuration (DATA_DIR, DATABASE_URL); the work is in server/ops/backup.ts.
// Exit codes: 0 written and sound, 1 failed (or the copy fails PRAGMA integrity_check), 2 PostgreSQL.
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config.js';
import {
  OpsError,
  backupSqlite,
  defaultBackupFile,
  postgresBackupAdvice,
  sqliteFileOf,
} from '../server/ops/backup.js';

const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;

/** A path typed by the caller: `npm run` starts scripts in the package folder, INIT_CWD is where they were. */
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0] === '--help' || args[0] === '-h') {
    process.stderr.write(
      'Usage: npm run backup [file]\n' +
        '  Writes a consistent copy of the SQLite database while the server runs;\n' +
        '  default file: <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.db (UTC).\n',
    );
    return args[0] === '--help' || args[0] === '-h' ? 0 : 1;
  }
  const config = loadConfig();
  const source = sqliteFileOf(config.databaseUrl);
  if (!source) {
    process.stdout.write(postgresBackupAdvice(config.databaseUrl));
    return 2;
  }
  const destination = args[0] ? fromCaller(args[0]) : defaultBackupFile(config.dataDir);
  const result = await backupSqlite(source, destination);
  const ok = result.integrity.length === 1 && result.integrity[0] === 'ok';
  process.stdout.write(
    `Backed up ${result.source}\n` +
      `  to   ${result.file}\n` +
      `  size ${formatBytes(result.bytes)} (${result.bytes} bytes, ${result.pages} pages)\n` +
      `  took ${Math.round(result.ms)} ms` +
      (result.restarts > 0 ? ` (the server wrote meanwhile; copied in one snapshot)` : '') +
      `\n` +
      `PRAGMA integrity_check: ${result.integrity.join('\n  ')}\n`,
  );
  if (!ok) process.stderr.write(`The copy is damaged and was kept as ${result.file} for inspection.\n`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof OpsError) {
      process.stderr.write(`Backup refused: ${error.message}\n`);
    } else {
      process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  },
);
