import type { FastifyBaseLogger } from 'fastify';
import type { MailQueue, QueuedMail } from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { recordAudit } from '../../audit.js';
import { toIso } from '../../db/database.js';
import { appError } from '../../errors.js';
import { startPeriodic } from '../../periodic.js';
import { maskEmail, type Mailer, type MailMessage } from './mailer.js';
import {
  claimQueuedMail,
  countQueuedMailsByStatus,
  deleteFinishedMails,
  deleteWaitingMails,
  findDueMailIds,
  findQueuedMail,
  finishAttempt,
  insertQueuedMail,
  listUnsentMailRows,
  type QueuedMailRow,
} from './mail.repository.js';

/**
 * Mail that is not lost when the mail server is down. The first attempt is made at once, as before
 * (withMailQueue); when it fails the mail goes into the `mail_queue` table and a periodic job
 * (startMailRetrier) tries it again after each pause of RETRY_DELAYS_MS, then gives it up. Several
 * instances may share one PostgreSQL database: each attempt first claims its row (claimQueuedMail), so
 * one instance alone sends it. /admin's Email Management lists what waits and what was given up.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The pause after the 1st, 2nd, … failed attempt: tries at 0, 1 min, 6 min, 36 min, 2 h 36, 8 h 36 and
 * 24 h 36 after the first; when the 7th fails, the mail is given up.
 */
export const RETRY_DELAYS_MS = [
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
  16 * HOUR_MS,
] as const;
/**
 * How long a claimed mail is left to the instance that claimed it before another may take it (that
 * instance died mid-send). Longer than an SMTP exchange can take (nodemailer gives up after 10 min).
 */
export const SEND_LEASE_MS = 15 * MINUTE_MS;
/** A mail whose link would die within this long of being sent is given up instead: nobody could use it. */
export const LINK_MARGIN_MS = 5 * MINUTE_MS;
/** How often the retrier looks for due mails. */
export const RETRY_INTERVAL_MS = 30_000;
/** Sent mails (their text already blanked) are deleted after a week, given-up ones after 30 days. */
const KEEP_SENT_MS = 7 * DAY_MS;
const KEEP_GIVEN_UP_MS = 30 * DAY_MS;
/** Mails tried per run of the retrier: a long outage's backlog drains over a few runs. */
const BATCH = 50;

export const mailQueueMessages = {
  notFound: 'Queued mail not found',
  sending: 'This mail is being sent right now',
  expired: 'The link in this mail has expired, so it is not sent: the user can ask for a new one',
  sent: (to: string) => `Mail sent to ${to}`,
  failed: (reason: string) => `Failed to send email: ${reason}`,
} as const;

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
type QueueDeps = Pick<AppDeps, 'db' | 'clock' | 'signals'>;

/** What the mail server answered ('550 …'), else the error's message. */
function reasonOf(error: unknown): string {
  const failure = (error ?? {}) as { response?: unknown; message?: unknown };
  const reason =
    typeof failure.response === 'string'
      ? failure.response
      : typeof failure.message === 'string'
        ? failure.message
        : String(error);
  return reason.slice(0, 1000);
}

/**
 * When to try again after `attempts` failed attempts, the last one at `failedAt`; null: give it up
 * (the schedule is over, or the mail's link would be dead or nearly so by then).
 */
export function nextAttemptAt(attempts: number, failedAt: Date, expiresAt: Date | null): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  const next = failedAt.getTime() + delay;
  if (expiresAt && next > expiresAt.getTime() - LINK_MARGIN_MS) return null;
  return new Date(next);
}

function messageOf(row: QueuedMailRow): MailMessage {
  return {
    to: row.recipient,
    subject: row.subject,
    text: row.body_text,
    ...(row.body_html === null ? {} : { html: row.body_html }),
    ...(row.sender === null ? {} : { from: row.sender }),
  };
}

const dateOf = (value: Date | string | null) => (value === null ? null : new Date(toIso(value)));

/**
 * The app's mailer: the first attempt at once; a failed one is queued (send() then resolves) unless
 * the message says `queue: false`. Each outcome is counted (signals) and each failure logged once, at
 * warn, with the address masked. `log` is asked for when needed (the app's logger exists after this).
 */
export function withMailQueue(mailer: Mailer, deps: QueueDeps & { log: () => Log }): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        if (message.queue === false) {
          // Not queued, but newer all the same: a new verification link has disabled the waiting one's.
          if (message.replaces) await deleteWaitingMails(deps.db, message.replaces);
          throw error;
        }
        await queueFailedMail(deps, message, error);
        return;
      }
      deps.signals?.mail('sent');
      // A newer mail under the same key went out: the older ones waiting are of no use any more.
      if (message.replaces) await deleteWaitingMails(deps.db, message.replaces);
    },
    verify: () => mailer.verify(),
  };
}

async function queueFailedMail(deps: QueueDeps & { log: () => Log }, message: MailMessage, error: unknown) {
  const failedAt = deps.clock.now();
  const next = nextAttemptAt(1, failedAt, message.expiresAt ?? null);
  const lastError = reasonOf(error);
  const id = await insertQueuedMail(deps.db, {
    recipient: message.to,
    sender: message.from ?? null,
    subject: message.subject.slice(0, 500),
    body_text: message.text,
    body_html: message.html ?? null,
    replace_key: message.replaces ?? null,
    status: next ? 'pending' : 'given-up',
    attempts: 1,
    next_attempt_at: (next ?? failedAt).toISOString(),
    expires_at: message.expiresAt?.toISOString() ?? null,
    last_error: lastError,
    created_at: failedAt.toISOString(),
    finished_at: next ? null : failedAt.toISOString(),
  });
  if (message.replaces) await deleteWaitingMails(deps.db, message.replaces, id);
  const fields = {
    mailId: id,
    to: maskEmail(message.to),
    subject: message.subject,
    attempts: 1,
    error: lastError,
  };
  if (next) {
    deps.signals?.mail('failed');
    deps.log().warn({ ...fields, nextAttemptAt: next.toISOString() }, 'mail failed: queued for another try');
  } else {
    deps.signals?.mail('given-up');
    deps.log().error(fields, 'mail given up: its link expires before another try');
  }
}

type Outcome = 'sent' | 'failed' | 'given-up' | 'expired' | 'lost-claim';

/**
 * One attempt at a claimed mail. A given-up mail an admin retries by hand stays given up when it fails
 * again (it is not counted or logged as given up a second time).
 */
async function attempt(
  deps: QueueDeps & Pick<AppDeps, 'mailer'>,
  row: QueuedMailRow,
  log: Log,
  wasGivenUp = false,
): Promise<{ outcome: Outcome; error?: string }> {
  const expiresAt = dateOf(row.expires_at);
  const fields = {
    mailId: row.id,
    to: maskEmail(row.recipient),
    subject: row.subject,
    attempts: row.attempts,
  };
  const started = deps.clock.now();
  if (expiresAt && expiresAt.getTime() - LINK_MARGIN_MS <= started.getTime()) {
    const error = 'Its link expired before it could be sent';
    await finishAttempt(deps.db, row, {
      status: 'given-up',
      attempts: row.attempts - 1,
      last_error: error,
      finished_at: started.toISOString(),
    });
    if (!wasGivenUp) {
      deps.signals?.mail('given-up');
      log.error(fields, 'mail given up: its link expired before it could be sent');
    }
    return { outcome: 'expired', error };
  }
  deps.signals?.mail('retried');
  try {
    await deps.mailer.send({ ...messageOf(row), queue: false });
  } catch (error) {
    const failedAt = deps.clock.now();
    const reason = reasonOf(error);
    const next = wasGivenUp ? null : nextAttemptAt(row.attempts, failedAt, expiresAt);
    const claimed = await finishAttempt(
      deps.db,
      row,
      next
        ? { status: 'pending', next_attempt_at: next.toISOString(), last_error: reason }
        : { status: 'given-up', last_error: reason, finished_at: failedAt.toISOString() },
    );
    if (!claimed) return { outcome: 'lost-claim', error: reason };
    if (next) {
      deps.signals?.mail('failed');
      log.warn({ ...fields, error: reason, nextAttemptAt: next.toISOString() }, 'mail failed again');
      return { outcome: 'failed', error: reason };
    }
    if (wasGivenUp) {
      log.warn({ ...fields, error: reason }, 'mail failed again: it stays given up');
    } else {
      deps.signals?.mail('given-up');
      const why =
        RETRY_DELAYS_MS[row.attempts - 1] === undefined
          ? 'after its last try'
          : 'its link expires before another try';
      log.error({ ...fields, error: reason }, `mail given up: ${why}`);
    }
    return { outcome: 'given-up', error: reason };
  }
  // Sent: the text (with its link) is not kept.
  await finishAttempt(deps.db, row, {
    status: 'sent',
    body_text: '',
    body_html: null,
    last_error: null,
    finished_at: deps.clock.now().toISOString(),
  });
  log.info(fields, 'queued mail sent');
  return { outcome: 'sent' };
}

/**
 * The retrier's run: every due mail, claimed one by one (a mail another instance claimed first is left
 * to it), then one attempt each; finished mails past their keeping time are deleted. Answers what
 * came of it. `deps.mailer` is the app's mailer (its attempts are written to the mail log).
 */
export async function sendDueMails(deps: QueueDeps & Pick<AppDeps, 'mailer'>, log: Log) {
  const now = deps.clock.now();
  const counts = { sent: 0, failed: 0, givenUp: 0 };
  for (const id of await findDueMailIds(deps.db, now.toISOString(), BATCH)) {
    const claimedAt = deps.clock.now();
    const row = await claimQueuedMail(deps.db, id, {
      statuses: ['pending', 'sending'],
      dueBy: claimedAt.toISOString(),
      leaseUntil: new Date(claimedAt.getTime() + SEND_LEASE_MS).toISOString(),
    });
    if (!row) continue;
    const { outcome } = await attempt(deps, row, log);
    if (outcome === 'sent') counts.sent++;
    else if (outcome === 'failed') counts.failed++;
    else if (outcome !== 'lost-claim') counts.givenUp++;
  }
  await deleteFinishedMails(deps.db, 'sent', new Date(now.getTime() - KEEP_SENT_MS).toISOString());
  await deleteFinishedMails(deps.db, 'given-up', new Date(now.getTime() - KEEP_GIVEN_UP_MS).toISOString());
  return counts;
}

/** Runs sendDueMails every RETRY_INTERVAL_MS (the first run after one interval); answers a stop function. */
export function startMailRetrier(deps: AppDeps, log: Log, everyMs = RETRY_INTERVAL_MS): () => void {
  return startPeriodic(() => sendDueMails(deps, log), {
    firstRunMs: everyMs,
    everyMs,
    onError: (error) => log.error({ err: error }, 'retrying queued mails failed'),
  });
}

function toQueuedMail(row: Awaited<ReturnType<typeof listUnsentMailRows>>[number]): QueuedMail {
  return {
    id: row.id,
    recipient: row.recipient,
    subject: row.subject,
    status: row.status === 'pending' ? 'waiting' : row.status === 'sending' ? 'sending' : 'given-up',
    attempts: Number(row.attempts),
    nextAttemptAt: row.status === 'given-up' ? null : toIso(row.next_attempt_at),
    expiresAt: toIso(row.expires_at),
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    finishedAt: row.status === 'given-up' ? toIso(row.finished_at) : null,
  };
}

/** /admin's Email Management: how many mails wait and were given up, and the newest 100 of them. */
export async function getMailQueue(deps: Pick<AppDeps, 'db'>): Promise<MailQueue> {
  const [counts, rows] = await Promise.all([
    countQueuedMailsByStatus(deps.db),
    listUnsentMailRows(deps.db, 100),
  ]);
  return {
    waiting: (counts.get('pending') ?? 0) + (counts.get('sending') ?? 0),
    givenUp: counts.get('given-up') ?? 0,
    mails: rows.map(toQueuedMail),
  };
}

/**
 * An admin's "Retry now": one attempt at once, whatever its next try was, a given-up mail included.
 * Sent: 200. Failed again: 502 with the server's answer (a waiting mail keeps its schedule). Its link
 * expired: 409, and it is given up. Audited as `mail.retry` with the outcome.
 */
export async function retryQueuedMail(
  deps: Pick<AppDeps, 'db' | 'clock' | 'signals' | 'mailer'> & { log: Log },
  admin: User,
  id: number,
): Promise<{ success: boolean; message: string }> {
  const found = await findQueuedMail(deps.db, id);
  if (!found || found.status === 'sent') throw appError('NOT_FOUND', mailQueueMessages.notFound);
  if (found.status === 'sending') throw appError('CONFLICT', mailQueueMessages.sending);
  const now = deps.clock.now();
  const row = await claimQueuedMail(deps.db, id, {
    statuses: [found.status],
    dueBy: null,
    leaseUntil: new Date(now.getTime() + SEND_LEASE_MS).toISOString(),
  });
  // The retrier took it between the two statements.
  if (!row) throw appError('CONFLICT', mailQueueMessages.sending);
  const { outcome, error } = await attempt(deps, row, deps.log, found.status === 'given-up');
  await recordAudit(deps.db, admin, deps.clock.now(), {
    action: 'mail.retry',
    targetType: 'mail',
    targetId: id,
    targetLabel: row.recipient,
    after: { subject: row.subject, outcome, ...(error ? { error } : {}) },
  });
  if (outcome === 'sent') return { success: true, message: mailQueueMessages.sent(row.recipient) };
  if (outcome === 'expired') throw appError('CONFLICT', mailQueueMessages.expired);
  throw appError('BAD_GATEWAY', mailQueueMessages.failed(error ?? 'unknown error'), { success: false });
}
