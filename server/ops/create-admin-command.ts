// `create-admin <username> [--email <address>]`: an admin made from the command line (a locked-out
// instance, a server set up without the first start's generated password).
import { adminCreateUserInput } from '../../src/admin/admin.schema.js';
import { recordAudit } from '../audit.js';
import { ConfigError, loadConfig } from '../config.js';
import type { DbHandle } from '../db/create-db.js';
import { isUniqueViolation } from '../db/db-errors.js';
import { generatedAdminPassword, newAdminRow } from '../features/seed/admin-account.js';
import {
  findUserByEmail,
  findUserByUsername,
  insertUser,
  updateUserColumns,
} from '../features/users/users.repository.js';
import { DEMO_PASSWORD } from '../features/auth/auth.service.js';
import { verifyPassword } from '../features/auth/passwords.js';
import { OpsError } from './backup.js';
import type { CliIo } from './cli.js';
import { NewerDatabaseError, openUpgradedDatabase } from './upgrade.js';

export const CREATE_ADMIN_USAGE =
  'Usage: qr-creator create-admin <username> [--email <address>]\n' +
  '  Creates an admin, or gives an existing user admin rights (their password stays as it is).\n' +
  "  The new admin's password: ADMIN_PASSWORD if set, else the first line of standard input when it\n" +
  '  is not a terminal (printf \'%s\\n\' "$PASSWORD" | qr-creator create-admin ada), else a random one\n' +
  "  printed once. The username and password follow the app's rules (3-50 characters without spaces;\n" +
  '  6-256 characters). The database is migrated first if it needs to be; the audit log records the\n' +
  '  change with "(command line)" as its actor.\n';

/** Who the audit log names for changes made here: no user of the app. */
export const COMMAND_LINE_ACTOR = { id: null, username: '(command line)' } as const;

function parseArgs(args: string[]): { username: string; email?: string } | string {
  let username: string | undefined;
  let email: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    let value: string | undefined;
    if (arg === '--email') value = args[++i] ?? '';
    else if (arg.startsWith('--email=')) value = arg.slice('--email='.length);
    else if (arg.startsWith('-')) return `Unknown option ${arg}.`;
    else if (username === undefined) {
      username = arg;
      continue;
    } else return `create-admin takes one username, not also "${arg}".`;
    if (email !== undefined) return '--email is given more than once.';
    if (value === '') return '--email needs an address: --email <address>.';
    email = value;
  }
  if (username === undefined) return 'Name the admin: create-admin <username>.';
  return { username, ...(email === undefined ? {} : { email }) };
}

/**
 * `create-admin`: 0 created (or made an admin, or one already), 1 refused (a bad username, password or
 * address, a taken address) or failed, 2 a wrong command line.
 */
export async function createAdminCommand(
  args: string[],
  io: CliIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout(CREATE_ADMIN_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr(`${parsed}\n\n${CREATE_ADMIN_USAGE}`);
    return 2;
  }
  let handle: DbHandle | undefined;
  try {
    const config = loadConfig(io.env);
    handle = await openUpgradedDatabase(config, now, (line) => io.stdout(line));
    const db = handle.db;

    // People only: a team workspace's handle is never made an admin (it is taken: refused below).
    const existing = await findUserByUsername(db, parsed.username);
    if (existing) {
      const ignored =
        parsed.email === undefined ? '' : ' --email was not used: their address stays as it is.';
      if (existing.is_admin) {
        io.stdout(`"${existing.username}" is already an admin; nothing was changed.${ignored}\n`);
        return 0;
      }
      // Anyone may sign in with the demo account's well-known password: it must never be an admin.
      if (await verifyPassword(existing.password, DEMO_PASSWORD)) {
        io.stderr(
          `Refused: "${existing.username}" still has the demo account's public password (${DEMO_PASSWORD}), so anyone could sign in as an admin. Create another admin, or change its password first.\n`,
        );
        return 1;
      }
      await db.transaction().execute(async (trx) => {
        await updateUserColumns(trx, existing.id, { is_admin: true });
        await recordAudit(trx, COMMAND_LINE_ACTOR, now(), {
          action: 'user.update',
          targetType: 'user',
          targetId: existing.id,
          targetLabel: existing.username,
          before: { isAdmin: false },
          after: { isAdmin: true },
        });
      });
      io.stdout(
        `"${existing.username}" was a user and is now an admin; their password is unchanged.${ignored}\n`,
      );
      return 0;
    }

    let password = config.adminPassword;
    let source = 'ADMIN_PASSWORD';
    if (password === undefined) {
      password = await io.readInputLine?.();
      source = 'standard input';
    }
    const generated = password === undefined;
    if (password === undefined) password = generatedAdminPassword();
    const input = adminCreateUserInput.safeParse({
      username: parsed.username,
      password,
      email: parsed.email ?? null,
      isAdmin: true,
    });
    if (!input.success) {
      const messages = input.error.issues.map((issue) =>
        issue.path[0] === 'password' ? `${issue.message} (the password from ${source})` : issue.message,
      );
      io.stderr(`create-admin refused: ${messages.join('; ')}.\n`);
      return 1;
    }
    const { username, email } = input.data;
    if (email && (await findUserByEmail(db, email))) {
      io.stderr(`create-admin refused: the address ${email} belongs to another user.\n`);
      return 1;
    }
    const row = await newAdminRow({ username, password, email: email ?? null }, now());
    const created = await db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, row);
      await recordAudit(trx, COMMAND_LINE_ACTOR, now(), {
        action: 'user.create',
        targetType: 'user',
        targetId: user.id,
        targetLabel: user.username,
        after: { username: user.username, email: user.email, isAdmin: true },
      });
      return user;
    });
    io.stdout(
      `Created the admin "${created.username}" (id ${created.id}${created.email ? `, ${created.email}` : ''}).\n` +
        (generated
          ? `Password (shown only this once; sign in and change it): ${password}\n`
          : `Password: the one from ${source}.\n`),
    );
    return 0;
  } catch (error) {
    if (isUniqueViolation(error)) {
      io.stderr(`create-admin refused: the username "${parsed.username}" is taken.\n`);
    } else if (error instanceof NewerDatabaseError) {
      io.stderr(`${error.message}\n`);
    } else if (error instanceof ConfigError || error instanceof OpsError) {
      io.stderr(`create-admin refused: ${error.message}\n`);
    } else {
      io.stderr(`create-admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 1;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
