// `check-config [--config <file>]`: reads the configuration exactly as the server would (environment,
// CONFIG_FILE, *_FILE secrets) and prints either "Configuration OK" with every setting in effect (secrets
// masked, each with where it came from) or every problem at once. Exit codes: 0 usable, 1 not (or a bad
// argument). It never opens the database, listens or writes: it only reads the config files and looks
// at DATA_DIR, the SQLite file's folder and GEOIP_CITY_DB.
import fs from 'node:fs';
import path from 'node:path';
import {
  checkConfig,
  describeSource,
  maskedValue,
  trustProxyWarning,
  type Config,
  type Setting,
} from '../config.js';

/**
 * What the command reads and writes. The same shape as cli.ts's CliIo, declared here because cli.ts
 * imports this file: importing its type back would make the two files a cycle.
 */
export interface CheckConfigIo {
  env: NodeJS.ProcessEnv;
  /** Where a `--config` file named on the command line is resolved from. */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export const CHECK_CONFIG_USAGE =
  'Usage: check-config [--config <file>]\n' +
  "  Reads the server's settings (environment, CONFIG_FILE or --config, *_FILE secrets) without\n" +
  '  starting it, and prints every setting in effect (secrets masked) or every problem at once.\n' +
  '  Also checks that DATA_DIR can be written and GEOIP_CITY_DB read, changing nothing.\n' +
  '  Run it as the user the server runs as. Exit codes: 0 usable, 1 not.\n';

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** `check-config [--config <file>]`: 0 the configuration is usable, 1 it is not or an argument is bad. */
export function checkConfigCommand(args: string[], io: CheckConfigIo): Promise<number> {
  // Promise-shaped like every command of the command line; the checks themselves are synchronous.
  return Promise.resolve(checkConfiguration(args, io));
}

function checkConfiguration(args: string[], io: CheckConfigIo): number {
  if (isHelp(args[0])) {
    io.stdout(CHECK_CONFIG_USAGE);
    return 0;
  }
  const env = { ...io.env };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const inline = arg.startsWith('--config=') ? arg.slice('--config='.length) : undefined;
    const file = inline ?? (arg === '--config' ? args[++i] : undefined);
    if (file === undefined || file === '') {
      io.stderr(
        (arg === '--config' || inline !== undefined
          ? 'check-config: --config needs a file name.\n'
          : `check-config: unknown argument "${arg}".\n`) + CHECK_CONFIG_USAGE,
      );
      return 1;
    }
    env.CONFIG_FILE = path.resolve(io.cwd, file);
  }

  const check = checkConfig(env);
  const problems = [...check.problems, ...(check.config ? placeProblems(check.config) : [])];
  const proxyWarning = check.config ? trustProxyWarning(check.config) : undefined;
  const warnings = [...check.warnings, ...(proxyWarning ? [proxyWarning] : [])];
  const warningText = warnings.map((warning) => `Warning: ${warning}\n`).join('');
  if (problems.length > 0) {
    io.stderr(
      problems.map((problem) => `${problem}\n`).join('') +
        warningText +
        `${problems.length === 1 ? '1 problem' : `${problems.length} problems`}: the server would not start.\n`,
    );
    return 1;
  }
  io.stdout(
    'Configuration OK\n' +
      (check.configFile ? `Config file: ${check.configFile}\n` : 'Config file: none (CONFIG_FILE unset)\n') +
      summary(check.settings),
  );
  if (warningText) io.stderr(warningText);
  return 0;
}

/** One line per setting: name, value in effect (secrets masked), where it came from. */
function summary(settings: Setting[]): string {
  const rows = settings.map((setting) => [
    setting.name,
    maskedValue(setting.name, setting.effective) ?? 'unset',
    // The file itself is named once, above the list.
    setting.source.from === 'config-file'
      ? `CONFIG_FILE line ${setting.source.line}`
      : describeSource(setting.source),
  ]);
  const nameWidth = Math.max(...rows.map((row) => row[0]!.length));
  const valueWidth = Math.min(48, Math.max(...rows.map((row) => row[1]!.length)));
  return rows
    .map(([name, value, source]) => `  ${name!.padEnd(nameWidth)}  ${value!.padEnd(valueWidth)}  ${source}\n`)
    .join('');
}

/** What the server would trip on at start beyond the values: folders it cannot write, files it cannot read. */
function placeProblems(config: Config): string[] {
  const problems: string[] = [];
  const dataDirProblem = writableFolderProblem(config.dataDir);
  if (dataDirProblem) problems.push(`Invalid configuration: DATA_DIR ${config.dataDir} ${dataDirProblem}`);
  if (config.databaseUrl.startsWith('sqlite:')) {
    const file = path.resolve(config.databaseUrl.slice('sqlite:'.length));
    const folder = path.dirname(file);
    const problem = fs.existsSync(file)
      ? fileProblem(file, fs.constants.R_OK | fs.constants.W_OK, 'read and written')
      : folder === config.dataDir
        ? undefined
        : writableFolderProblem(folder);
    if (problem) problems.push(`Invalid configuration: DATABASE_URL ${file}: ${problem}`);
  }
  if (config.geoipCityDb) {
    const file = path.resolve(config.geoipCityDb);
    const problem = fileProblem(file, fs.constants.R_OK, 'read');
    if (problem) problems.push(`Invalid configuration: GEOIP_CITY_DB ${file}: ${problem}`);
  }
  return problems;
}

const user = () => (process.getuid ? `this user (uid ${process.getuid()})` : 'this user');

/** Why a folder could not be used (it, or the nearest folder above it that exists, is not writable). */
function writableFolderProblem(folder: string): string | undefined {
  let existing = folder;
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  if (!fs.statSync(existing).isDirectory()) {
    return existing === folder ? 'is not a folder' : `cannot be created: ${existing} is not a folder`;
  }
  try {
    fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK);
    return undefined;
  } catch {
    return existing === folder
      ? `cannot be written by ${user()}`
      : `does not exist and cannot be created: ${existing} cannot be written by ${user()}`;
  }
}

function fileProblem(file: string, mode: number, verb: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'no such file';
  }
  if (!stat.isFile()) return 'is not a file';
  try {
    fs.accessSync(file, mode);
    return undefined;
  } catch {
    return `cannot be ${verb} by ${user()}`;
  }
}
