// The command line's side of the process: what a command reads and writes (CliIo), and the global
// `--config <file>` option. `node dist/server.mjs <command>` (server/main.ts) runs a command of
// server/ops/cli-commands.ts, which has the registry and the usage; each command's work is in a module
// of its own beside it. This file imports no command, so commands may import it.
import fs from 'node:fs';
import path from 'node:path';

/** What a command reads and writes: the process's own, or a test's. */
export interface CliIo {
  /** The environment the server's settings are read from. */
  env: NodeJS.ProcessEnv;
  /** Where a file named on the command line is resolved from. */
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * The first line of standard input when it is not a terminal (a password piped in); undefined when
   * it is a terminal or empty. Absent: there is no such input.
   */
  readInputLine?: () => Promise<string | undefined>;
}

/** The npm scripts that run a command (package.json): only they make INIT_CWD the caller's folder. */
const NPM_COMMAND_SCRIPTS = new Set(['backup', 'restore', 'migrate', 'check-config', 'create-admin']);

/**
 * `npm run` starts scripts in the package folder; INIT_CWD is the folder the caller typed the command
 * in. Only for our own scripts: a command started by some other script (a test run under `npm test`)
 * inherits an INIT_CWD that is not its own.
 */
export function callerCwd(env: NodeJS.ProcessEnv = process.env): string {
  const script = env.npm_lifecycle_event;
  return env.INIT_CWD && script && NPM_COMMAND_SCRIPTS.has(script) ? env.INIT_CWD : process.cwd();
}

/** The first line of standard input, when it is a pipe or a file rather than a terminal. */
async function readStdinLine(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  process.stdin.pause();
  const line = text.split(/\r?\n/)[0];
  return line === undefined || line === '' ? undefined : line;
}

export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: callerCwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    readInputLine: readStdinLine,
  };
}

/** A wrong command line: the message names the argument; exit 2. */
export class UsageError extends Error {}

/**
 * Takes the global `--config <file>` (or `--config=<file>`) out of the arguments, wherever it stands:
 * the rest, and the file's absolute path (relative to `cwd`).
 */
export function takeConfigOption(argv: string[], cwd: string): { args: string[]; configFile?: string } {
  const args: string[] = [];
  let configFile: string | undefined;
  const take = (value: string | undefined) => {
    if (configFile !== undefined) throw new UsageError('--config is given more than once.');
    if (value === undefined || value === '' || value.startsWith('-')) {
      throw new UsageError('--config needs a file: --config <file>.');
    }
    const file = path.resolve(cwd, value);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new UsageError(`--config: there is no file ${file}.`);
    if (!stat.isFile()) throw new UsageError(`--config: ${file} is not a file.`);
    configFile = file;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--config') take(argv[++i]);
    else if (arg.startsWith('--config=')) take(arg.slice('--config='.length));
    else args.push(arg);
  }
  return { args, ...(configFile === undefined ? {} : { configFile }) };
}
