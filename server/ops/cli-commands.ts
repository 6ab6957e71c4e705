// The operations command line: `qr-creator <command> [arguments]`, where qr-creator is the single
// executable, `node dist/server.mjs` or, in a checkout, `npm run <command> --` (server/main.ts passes
// the arguments here). Each command is a module of its own, loaded only when it runs: `version` does not
// load what `create-admin` needs, and nothing here loads the web server.
import { processIo, type CliIo } from './cli.js';

export type Command = (args: string[], io: CliIo) => Promise<number>;

/** The commands by name. One line registers a command: its name and the module that runs it. */
const commands: Record<string, () => Promise<Command>> = {
  backup: () => import('./backup-commands.js').then((m) => m.backupCommand),
  restore: () => import('./backup-commands.js').then((m) => m.restoreCommand),
  migrate: () => import('./migrate-command.js').then((m) => m.migrateCommand),
  'create-admin': () => import('./create-admin-command.js').then((m) => m.createAdminCommand),
  'create-token': () => import('./token-command.js').then((m) => m.createTokenCommand),
  version: () => import('./version-command.js').then((m) => m.versionCommand),
  'check-config': () => import('./check-config.js').then((m) => m.checkConfigCommand),
};

/** The names the usage lists, in its order. */
export const COMMAND_NAMES = [
  'backup',
  'restore',
  'migrate',
  'check-config',
  'create-admin',
  'create-token',
  'version',
];

export const USAGE =
  'Usage: qr-creator [--config <file>] [<command> [arguments]]\n' +
  '  qr-creator is ./qr-creator-linux-x64 (the single executable) or node dist/server.mjs; in a\n' +
  '  checkout also npm run <command> -- [arguments]. Without a command it serves the app.\n' +
  '\n' +
  'Commands:\n' +
  '  backup [file]        A consistent copy of the database while the server runs, 0600. SQLite: the\n' +
  '                       online backup, checked; PostgreSQL: pg_dump. Default file:\n' +
  '                       <DATA_DIR>/backups/qr-creator-YYYYMMDD-HHMMSS.db (.dump for PostgreSQL).\n' +
  '  restore <file>       Puts a backup in place of the database (the current one is kept). Stop the\n' +
  '                       server first.\n' +
  '  migrate [--dry-run]  Lists applied and pending migrations and applies the pending ones, after a\n' +
  '                       copy of a SQLite database; --dry-run changes nothing.\n' +
  '  check-config         Checks the configuration without starting and names every bad value.\n' +
  '  create-admin <username> [--email <address>]\n' +
  '                       Creates an admin (password: ADMIN_PASSWORD, else the first line of standard\n' +
  '                       input, else a random one printed once), or makes an existing user one.\n' +
  '  create-token --user <username> --name <label> --scope read|write|admin [--expires-days <days>]\n' +
  '               [--workspace <id>]\n' +
  '                       Makes an API token for scripts and CI and prints it alone on standard output.\n' +
  "  version              This build's version and the database's migration state.\n" +
  '\n' +
  'Options:\n' +
  '  --config <file>      Reads the settings from this file too (sets CONFIG_FILE; see the README).\n' +
  '  --help, -h, help     This text. <command> --help describes one command.\n' +
  '  --version, -v        The same as version.\n' +
  '\n' +
  "Every command reads the server's settings (DATA_DIR, DATABASE_URL, …). Exit codes: 0 done; 1 refused\n" +
  'or failed; 2 a wrong command line, or a tool the command needs (pg_dump, pg_restore) is missing.\n';

const unknown = (arg: string) =>
  `Unknown argument "${arg}": the commands are ${COMMAND_NAMES.slice(0, -1).join(', ')} and ${COMMAND_NAMES.at(-1)}.\n\n${USAGE}`;

/** `<command> [arguments]` → the exit code: the command's own, 0 for help, 2 for none or an unknown one. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [first, ...args] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  if (first === undefined) {
    io.stderr(`Name a command.\n\n${USAGE}`);
    return 2;
  }
  const name = first === '--version' || first === '-v' ? 'version' : first;
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    io.stderr(unknown(first));
    return 2;
  }
  const command = await load();
  return command(args, io);
}
