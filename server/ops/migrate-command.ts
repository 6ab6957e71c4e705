// `migrate [--dry-run]`: what the server's start does to the database, on its own and said aloud.
import { ConfigError, loadConfig } from '../config.js';
import { createDb, type DbHandle } from '../db/create-db.js';
import { knownMigrations, readMigrationState, type MigrationState } from '../db/migrate.js';
import { OpsError, sqliteFileOf } from './backup.js';
import type { CliIo } from './cli.js';
import {
  NewerDatabaseError,
  PRE_UPGRADE_KEEP,
  databaseLabel,
  newerDatabaseMessage,
  openExistingDatabase,
  upgradeDatabase,
} from './upgrade.js';

export const MIGRATE_USAGE =
  'Usage: qr-creator migrate [--dry-run]\n' +
  '  Lists the migrations the database has had and those this build would apply, then applies them,\n' +
  '  as the server does when it starts. An existing SQLite database is first copied to\n' +
  `  <DATA_DIR>/backups/pre-upgrade-<last migration>-YYYYMMDD-HHMMSS.db (the newest ${PRE_UPGRADE_KEEP} such copies\n` +
  '  are kept). A database upgraded by a newer build is refused.\n' +
  '  --dry-run  only lists; changes nothing (and creates no database).\n';

const at = (iso: string | undefined) => (iso ? `  (applied ${iso.slice(0, 19).replace('T', ' ')} UTC)` : '');

function listing(label: string, state: MigrationState | undefined): string {
  const applied = state?.applied ?? [];
  const pending = state?.pending ?? [...knownMigrations];
  const lines = [`Database: ${label}${state ? '' : ' (no database yet)'}`];
  lines.push(`Applied (${applied.length}):`);
  for (const name of applied) lines.push(`  ${name}${at(state?.appliedAt[name])}`);
  if (state && state.unknown.length > 0) {
    lines.push(`Applied by a newer build, unknown to this one (${state.unknown.length}):`);
    for (const name of state.unknown) lines.push(`  ${name}${at(state.appliedAt[name])}`);
  }
  lines.push(`Pending (${pending.length}):`);
  for (const name of pending) lines.push(`  ${name}`);
  return `${lines.join('\n')}\n`;
}

/** `migrate [--dry-run]`: 0 up to date (or would be), 1 refused or failed, 2 a wrong command line. */
export async function migrateCommand(
  args: string[],
  io: CliIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout(MIGRATE_USAGE);
    return 0;
  }
  const wrong = args.find((a) => a !== '--dry-run');
  if (wrong !== undefined || args.length > 1) {
    io.stderr(
      `${wrong === undefined ? '--dry-run is given twice' : `Unknown argument ${wrong}`}.\n\n${MIGRATE_USAGE}`,
    );
    return 2;
  }
  const dryRun = args.length === 1;
  let handle: DbHandle | undefined;
  try {
    const config = loadConfig(io.env);
    const label = databaseLabel(config.databaseUrl);
    handle = dryRun
      ? openExistingDatabase(config.databaseUrl)
      : createDb(config.databaseUrl, { poolSize: 2 });
    const state = handle ? await readMigrationState(handle.db) : undefined;
    io.stdout(listing(label, state));
    const postgres = !sqliteFileOf(config.databaseUrl);
    if (state && state.unknown.length > 0) {
      io.stderr(`${newerDatabaseMessage(state, config.dataDir, postgres)}\n`);
      return 1;
    }
    const pending = state?.pending.length ?? knownMigrations.length;
    if (pending === 0) {
      io.stdout('Nothing to do: the database has every migration of this build.\n');
      return 0;
    }
    if (dryRun) {
      const copy =
        state && state.applied.length > 0
          ? postgres
            ? ' No copy is made of a PostgreSQL database: take one with the backup command (pg_dump) first.'
            : ` A copy of the database would be written first to ${config.dataDir}/backups/pre-upgrade-${state.last}-<timestamp>.db.`
          : '';
      io.stdout(
        `Dry run: nothing was changed. Without --dry-run, ${pending} migration(s) would run.${copy}\n`,
      );
      return 0;
    }
    const result = await upgradeDatabase(handle!, {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      now,
      state,
      note: (message) => io.stdout(`${message[0]!.toUpperCase()}${message.slice(1)}.\n`),
    });
    io.stdout(
      `Applied ${result.applied.length} migration(s):\n${result.applied.map((name) => `  ${name}\n`).join('')}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof NewerDatabaseError) io.stderr(`${error.message}\n`);
    else if (error instanceof ConfigError || error instanceof OpsError)
      io.stderr(`Migrate refused: ${error.message}\n`);
    else io.stderr(`Migrate failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
