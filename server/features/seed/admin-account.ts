import { randomBytes } from 'node:crypto';
import type { NewUserRow } from '../../db/database.js';
import { hashPassword } from '../auth/passwords.js';

/**
 * An admin account's row, as the first start makes the first admin (seed.ts) and the `create-admin`
 * command makes any other (server/ops/create-admin-command.ts): the password hashed, the address the
 * operator gave taken as verified. Hashing takes a while: do it before any transaction.
 */
export async function newAdminRow(
  fields: { username: string; password: string; email: string | null },
  now: Date,
): Promise<NewUserRow> {
  return {
    username: fields.username,
    password: await hashPassword(fields.password),
    name: 'Administrator',
    email: fields.email,
    is_admin: true,
    email_verified: true,
    created_at: now.toISOString(),
  };
}

/** A password for an admin nobody chose one for: 20 characters of base64url (120 bits). */
export function generatedAdminPassword(): string {
  return randomBytes(15).toString('base64url');
}
