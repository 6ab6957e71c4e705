// `version` (and `--version`, `-v`): this build, and where the configured database stands.
import { loadConfig } from '../config.js';
import { readMigrationState } from '../db/migrate.js';
import { APP_VERSION } from '../version.js';
import type { CliIo } from './cli.js';
import { databaseLabel, openExistingDatabase } from './upgrade.js';

export const VERSION_USAGE =
  'Usage: qr-creator version   (or --version, -v)\n' +
  "  This build's version and Node's, then the configured database's migration state: the last\n" +
  '  migration applied, how many are applied and pending, or that a newer build upgraded it.\n';

/** `version`: 0, also when the database cannot be read (the line says why); 2 a wrong command line. */
export async function versionCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout(VERSION_USAGE);
    return 0;
  }
  if (args.length > 0) {
    io.stderr(`version takes no arguments (${args[0]}).\n\n${VERSION_USAGE}`);
    return 2;
  }
  io.stdout(`qr-creator ${APP_VERSION} (Node ${process.version})\n`);
  let label = 'the configured database';
  try {
    const config = loadConfig(io.env);
    label = databaseLabel(config.databaseUrl);
    const handle = openExistingDatabase(config.databaseUrl);
    if (!handle) {
      io.stdout(`database: ${label}: no database yet (the first start creates it)\n`);
      return 0;
    }
    try {
      const state = await readMigrationState(handle.db);
      const counts = `${state.applied.length + state.unknown.length} applied, ${state.pending.length} pending`;
      io.stdout(
        state.unknown.length > 0
          ? `database: ${label}: newer than this build (migration ${state.unknown.at(-1)}; ${counts})\n`
          : state.last === null
            ? `database: ${label}: no migration applied yet (${counts})\n`
            : `database: ${label}: last migration ${state.last} (${counts})\n`,
      );
    } finally {
      await handle.close();
    }
  } catch (error) {
    io.stdout(
      `database: ${label}: cannot be read: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  return 0;
}
