// `create-token --user <username> --name <label> --scope read|write|admin [--expires-days N]
// [--workspace <id>]`: an API token made on the host for scripts and CI, where no browser signs in.
// It opens the database itself (no HTTP: nothing new to reach from outside) and prints the token alone
// on standard output, so `TOKEN=$(qr-creator create-token …)` takes it.
import { TRPCError } from '@trpc/server';
import { createTokenInput, tokenMessages } from '../../src/auth/api-token.schema.js';
import { roleAtLeast } from '../../src/workspaces/workspace.schema.js';
import { ConfigError, loadConfig } from '../config.js';
import type { DbHandle } from '../db/create-db.js';
import { createTokenOnHost } from '../features/tokens/tokens.service.js';
import { toUser } from '../features/users/users.mapper.js';
import { findUserByUsername } from '../features/users/users.repository.js';
import { membershipOf } from '../trpc/workspace-access.js';
import { OpsError } from './backup.js';
import type { CliIo } from './cli.js';
import { NewerDatabaseError, openUpgradedDatabase } from './upgrade.js';

export const CREATE_TOKEN_USAGE =
  'Usage: qr-creator create-token --user <username> --name <label> --scope read|write|admin\n' +
  '                               [--expires-days <days>] [--workspace <id>]\n' +
  '  Makes an API token for a user, for scripts and CI, and prints it alone on standard output\n' +
  '  (TOKEN=$(qr-creator create-token …)); a line on standard error says what was made. It is shown\n' +
  '  this once: the app keeps only its hash, lists it under Settings → Security, and revokes it there.\n' +
  '  --scope admin is for admins only. --expires-days: 1-3650 (none: until revoked). --workspace: a\n' +
  '  team the user administers (default: their own workspace). The security log records it as made\n' +
  '  on the command line. Exit codes: 0 made; 1 failed; 2 a wrong command line (an unknown user, a\n' +
  '  bad scope, name or number of days, a workspace the user does not administer).\n';

interface Parsed {
  user: string;
  name: string;
  scope: string;
  expiresDays?: string;
  workspace?: string;
}

const OPTIONS = {
  '--user': 'user',
  '--name': 'name',
  '--scope': 'scope',
  '--expires-days': 'expiresDays',
  '--workspace': 'workspace',
} as const satisfies Record<string, keyof Parsed>;
type Option = keyof typeof OPTIONS;
const isOption = (value: string): value is Option => Object.hasOwn(OPTIONS, value);

function parseArgs(args: string[]): Parsed | string {
  const found: Partial<Record<keyof Parsed, string>> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!isOption(flag)) {
      return arg.startsWith('-')
        ? `Unknown option ${arg}.`
        : `create-token takes options only, not "${arg}".`;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    const key = OPTIONS[flag];
    if (found[key] !== undefined) return `${flag} is given more than once.`;
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) {
      return `${flag} needs a value.`;
    }
    found[key] = value;
  }
  const { user, name, scope } = found;
  if (user === undefined) return 'Name the user: --user <username>.';
  if (name === undefined) return 'Name the token: --name <label> (it tells tokens apart in the app).';
  if (scope === undefined) return 'Give the scope: --scope read|write|admin.';
  return {
    user,
    name,
    scope,
    ...(found.expiresDays === undefined ? {} : { expiresDays: found.expiresDays }),
    ...(found.workspace === undefined ? {} : { workspace: found.workspace }),
  };
}

/** The option a field of the token's input comes from, for messages. */
const FLAG_OF: Record<string, string> = {
  name: '--name',
  scope: '--scope',
  expiresInDays: '--expires-days',
};

/** `create-token`: 0 made, 1 failed, 2 a wrong command line (see the usage). */
export async function createTokenCommand(
  args: string[],
  io: CliIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout(CREATE_TOKEN_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n\n${CREATE_TOKEN_USAGE}`);
    return 2;
  }
  const refuse = (message: string) => {
    io.stderr(`create-token refused: ${message}\n`);
    return 2;
  };
  const days = parsed.expiresDays;
  if (days !== undefined && !/^\d+$/.test(days))
    return refuse('--expires-days must be a whole number of days.');
  const input = createTokenInput.safeParse({
    name: parsed.name,
    scope: parsed.scope,
    ...(days === undefined ? {} : { expiresInDays: Number(days) }),
  });
  if (!input.success) {
    return refuse(
      input.error.issues
        .map((issue) => `${FLAG_OF[String(issue.path[0])] ?? 'the input'}: ${issue.message}`)
        .join('; ') + '.',
    );
  }
  let workspaceId: number | undefined;
  if (parsed.workspace !== undefined) {
    if (!/^[1-9]\d{0,9}$/.test(parsed.workspace))
      return refuse('--workspace must be a workspace id (a number).');
    workspaceId = Number(parsed.workspace);
  }

  let handle: DbHandle | undefined;
  try {
    const config = loadConfig(io.env);
    // Standard output is the token's alone: what the upgrade says goes to standard error.
    handle = await openUpgradedDatabase(config, now, (line) => io.stderr(line));
    const db = handle.db;
    const row = await findUserByUsername(db, parsed.user);
    if (!row) return refuse(`there is no user "${parsed.user}".`);
    const user = toUser(row);
    if (input.data.scope === 'admin' && !user.isAdmin)
      return refuse(`${tokenMessages.adminScope}: "${user.username}" is not an admin.`);
    let workspaceLabel = 'their own workspace';
    if (workspaceId !== undefined && workspaceId !== user.id) {
      const workspace = await membershipOf(db, user, workspaceId);
      if (!workspace) return refuse(`"${user.username}" is not a member of workspace ${workspaceId}.`);
      if (!roleAtLeast(workspace.role, 'admin')) {
        return refuse(
          `"${user.username}" is ${workspace.role === 'editor' ? 'an' : 'a'} ${workspace.role} of workspace ${workspaceId} ("${workspace.name}"); tokens of a team are made by its admins.`,
        );
      }
      workspaceLabel = `workspace ${workspaceId} ("${workspace.name}")`;
    }
    const { token, apiToken } = await createTokenOnHost(
      { db, config, clock: { now } },
      user,
      input.data,
      workspaceId ?? user.id,
    );
    io.stdout(`${token}\n`);
    io.stderr(
      `Created the API token ${apiToken.prefix} "${apiToken.name}" (${apiToken.scope}) for ${user.username} in ${workspaceLabel}, ` +
        `${apiToken.expiresAt ? `expiring ${apiToken.expiresAt}` : 'until revoked'}. It is shown only this once.\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof NewerDatabaseError) {
      io.stderr(`${error.message}\n`);
    } else if (error instanceof ConfigError || error instanceof OpsError) {
      io.stderr(`create-token refused: ${error.message}\n`);
    } else if (error instanceof TRPCError) {
      // The service's own refusal (the rules it shares with the app).
      return refuse(`${error.message}.`);
    } else {
      io.stderr(`create-token failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
