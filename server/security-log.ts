import type { FastifyBaseLogger } from 'fastify';
import { maskIp } from '../src/analytics/mask-ip.js';
import type { AppDeps } from './app-deps.js';
import { listAuditedSince, recordAudit, type AuditActor } from './audit.js';
import { maskEmail } from './features/mail/mailer.js';
import { unmapIpv4 } from './features/scans/client-address.js';

/**
 * The security events by their stable names (docs/operations.md#security-events). Each is one `warn`
 * line, one row of the admin audit log and one count of the metrics; docs/fail2ban.md matches the
 * first four by their client address.
 */
export const securityEventNames = [
  'login.failed',
  'account.locked',
  'twofactor.failed',
  'token.refused',
  'token.created',
  'token.revoked',
  'role.changed',
  'plan.changed',
  'password.changed',
  'password.reset',
  'email.changed',
  'twofactor.enabled',
  'twofactor.disabled',
  'session.revoked',
] as const;
export type SecurityEventName = (typeof securityEventNames)[number];

/**
 * Failures anyone can cause, signed in or not: each is logged, but audited at most once a minute per
 * event, client address and account (per address alone when no account has the name typed, so trying
 * many names is one entry), and at most AUDIT_CAP_PER_MINUTE times a minute per event in all, so a flood
 * cannot grow the table. The log lines (and fail2ban) see every one.
 */
const CAPPED: ReadonlySet<SecurityEventName> = new Set([
  'login.failed',
  'account.locked',
  'twofactor.failed',
  'token.refused',
]);
export const AUDIT_CAP_MS = 60_000;
export const AUDIT_CAP_PER_MINUTE = 100;

/** Longest attempted username kept (the sign-in form allows fewer; a token path takes none). */
const NAME_MAX = 100;

/** What an event needs; a request's logger and client address when it happens in one. */
export type SecurityDeps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'signals'> & {
  /** Absent outside a request (a test's setup): then the event is audited and counted, not logged. */
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  ip?: string;
};

type Detail = string | number | boolean | null | undefined;

export interface SecurityEventFields {
  /** One short sentence for the operator: what happened, to whom. */
  message: string;
  /** The account concerned, when there is one. */
  user?: { id: number; username: string } | null;
  /** The name typed, when no account has it. */
  username?: string;
  /** Who acted when not the account itself: the admin. */
  by?: { id: number; username: string };
  /** An e-mail address concerned: logged and audited masked (`a***@example.com`). */
  email?: string | null;
  /**
   * Anything else, never a secret (no password, code, token or hash): a reason, a token's id and its
   * public prefix, counts, a route pattern, values before and after.
   */
  details?: Record<string, Detail>;
  /** false when the caller writes its own audit entry (an admin's change, inside its transaction). */
  audit?: boolean;
}

/** The client's address as every log line shows it: masked (`203.0.*.*`) with ANONYMIZE_IPS. */
export function loggedAddress(config: { anonymizeIps: boolean }, ip: string): string {
  return config.anonymizeIps ? maskIp(ip) : unmapIpv4(ip);
}

function defined(record: Record<string, Detail>): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Records a security event: one `warn` line `{ event, ip, userId, username, actor, email, …details }`
 * (`event` then `ip` first, in that order, for docs/fail2ban.md's filter), an audit_log row (target type
 * 'security'; the actor is the admin, else the account, else the name typed or 'anonymous'; `after`
 * holds the address and details), and `signals.securityEvent(event)`. Writing the row never fails the
 * request: a failure to write it is logged instead. Call it outside any transaction.
 */
export async function securityEvent(
  deps: SecurityDeps,
  event: SecurityEventName,
  fields: SecurityEventFields,
): Promise<void> {
  const ip = deps.ip === undefined ? null : loggedAddress(deps.config, deps.ip);
  const typed = fields.username?.slice(0, NAME_MAX);
  const email = fields.email ? maskEmail(fields.email) : undefined;
  const details = defined(fields.details ?? {});
  deps.log?.warn(
    {
      event,
      ...(ip === null ? {} : { ip }),
      ...defined({
        userId: fields.user?.id,
        username: fields.user?.username ?? typed,
        actor: fields.by?.username,
        email,
      }),
      ...details,
    },
    fields.message,
  );
  deps.signals?.securityEvent(event);
  if (fields.audit === false) return;
  const actor: AuditActor = fields.by ?? fields.user ?? { id: null, username: typed ?? 'anonymous' };
  try {
    const now = deps.clock.now();
    if (CAPPED.has(event)) {
      const since = new Date(now.getTime() - AUDIT_CAP_MS).toISOString();
      const recent = await listAuditedSince(deps.db, event, since, AUDIT_CAP_PER_MINUTE);
      const same = recent.some(
        (r) => r.ip === ip && (actor.id === null ? r.actorId === null : r.actorId === actor.id),
      );
      if (same || recent.length >= AUDIT_CAP_PER_MINUTE) return;
    }
    await recordAudit(deps.db, actor, now, {
      action: event,
      targetType: 'security',
      targetId: fields.user?.id ?? null,
      targetLabel: fields.user?.username ?? typed ?? null,
      after: defined({ ip, email, ...details }),
    });
  } catch (error) {
    deps.log?.error({ err: error, event }, 'security event not written to the audit log');
  }
}
