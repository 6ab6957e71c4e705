import type { AuditEntry } from '../src/admin/admin.schema.js';
import type { User } from '../src/auth/auth.schema.js';
import { toIso, type Db } from './db/database.js';

export interface AuditRecord {
  action: string;
  /**
   * 'security': a security event (server/security-log.ts), about the account named by the target.
   * 'workspace': a team workspace (its plan, its unlimited access), named by the team's id and name.
   */
  targetType:
    'user' | 'subscription' | 'settings' | 'mail' | 'upgrade-request' | 'security' | 'workspace' | 'domain';
  targetId?: number | string | null;
  targetLabel?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Who acted: a user, or (id null) someone without an account — a security event's attempted username or
 * 'anonymous', or the command line's `create-admin`.
 */
export type AuditActor = Pick<User, 'username'> & { id: number | null };

/** Writes one admin action to the audit log, inside the action's own transaction when given one. */
export async function recordAudit(db: Db, actor: AuditActor, now: Date, entry: AuditRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_username: actor.username,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      target_label: entry.targetLabel ?? null,
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      created_at: now.toISOString(),
    })
    .execute();
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * The entries of `action` written after `since` (ISO 8601), at most `limit`: who and from which address
 * (the `ip` of their change). Reads only the last moments' rows (created_at is indexed).
 */
export async function listAuditedSince(db: Db, action: string, since: string, limit: number) {
  const rows = await db
    .selectFrom('audit_log')
    .select(['actor_id', 'actor_username', 'after'])
    .where('created_at', '>', since)
    .where('action', '=', action)
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const after = parsed(r.after);
    const ip = typeof after === 'object' && after !== null ? (after as { ip?: unknown }).ip : undefined;
    return { actorId: r.actor_id, actorUsername: r.actor_username, ip: typeof ip === 'string' ? ip : null };
  });
}

/** The newest entries first, one page at a time. */
export async function listAudit(db: Db, page: number, pageSize: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const entries: AuditEntry[] = rows.map((r) => ({
    id: r.id,
    actorId: r.actor_id,
    actorUsername: r.actor_username,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    targetLabel: r.target_label,
    before: parsed(r.before),
    after: parsed(r.after),
    createdAt: toIso(r.created_at),
  }));
  return { entries, total: Number(count.n), page, pageSize };
}
