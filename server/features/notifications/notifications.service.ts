import { listTeamsOf } from '../workspaces/workspaces.repository.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { dayLabel, startOfLocalDay, today } from '../scans/time-zone.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import {
  formatters,
  mailMessages,
  type Formatters,
  type MailMessages,
  type MailText,
} from '../mail/messages/index.js';
import { QUARTER_MS } from '../scans/rollup-model.js';
import {
  claimNotification,
  hasNotification,
  listRecipients,
  releaseNotification,
  sumScansPerCodeBetween,
  sumScansPerCodeOf,
  type Recipient,
} from './notifications.repository.js';

/**
 * The scan mails a user can ask for in Settings → Notifications: a daily digest of yesterday's scans per
 * code (in the user's zone, only when there were any), and a mail when a code passes 100, 1,000, 10,000…
 * scans. A periodic job sends them, never a scan's own request or transaction. Each mail is claimed by a
 * key in `sent_notifications` before it is sent, so it goes out once even when several instances share
 * one database and run the job at the same moment.
 */

/**
 * Claims, sends, and gives the claim back if the mail server refuses, so the next run tries again. The
 * mail is written in the user's language: `write` gets its words and formatters.
 */
async function sendOnce(
  deps: AppDeps,
  key: string,
  user: Recipient,
  write: (words: MailMessages, f: Formatters) => MailText,
  link: string,
) {
  if (!(await claimNotification(deps.db, key, user.id, deps.clock.now().toISOString()))) return false;
  const locale = mailLocaleOf(user);
  try {
    await deps.mailer.send(
      composeMailFor(
        { to: user.email, locale, name: user },
        write(mailMessages(locale), formatters(locale)),
        link,
        deps.config.publicUrl,
      ),
    );
    return true;
  } catch (error) {
    await releaseNotification(deps.db, key);
    throw error;
  }
}

/** A person's own workspace, then the teams they work in: whose codes their mails are about. */
async function workspacesOf(deps: AppDeps, userId: number) {
  const teams = await listTeamsOf(deps.db, userId);
  return [
    { id: userId, team: false, name: '' },
    ...teams.map((t) => ({ id: t.id, team: true, name: t.name ?? '' })),
  ];
}

/** Yesterday's digest for every user who asked for it; answers how many mails went out. */
export async function sendScanDigests(deps: AppDeps): Promise<number> {
  const now = deps.clock.now().getTime();
  let sent = 0;
  for (const user of await listRecipients(deps.db, 'notify_scan_digest')) {
    const yesterday = today(user.time_zone, now) - 1;
    const key = `digest:${user.id}:${dayLabel(yesterday)}`;
    if (await hasNotification(deps.db, key)) continue;
    const from = startOfLocalDay(user.time_zone, yesterday) / QUARTER_MS;
    const to = startOfLocalDay(user.time_zone, yesterday + 1) / QUARTER_MS;
    // Their own codes, then each team's they work in, under the team's name.
    const sections: { team: string | null; codes: { name: string; scans: number }[] }[] = [];
    let total = 0;
    for (const workspace of await workspacesOf(deps, user.id)) {
      const codes = await sumScansPerCodeBetween(deps.db, workspace.id, from, to);
      if (codes.length === 0) continue;
      total += codes.reduce((sum, c) => sum + c.scans, 0);
      sections.push({ team: workspace.team ? workspace.name : null, codes });
    }
    if (sections.length === 0) continue;
    const sentNow = await sendOnce(
      deps,
      key,
      user,
      (words, f) =>
        words.scanDigest({ total, day: f.day(dayLabel(yesterday)), timeZone: user.time_zone, sections }),
      `${deps.config.publicUrl}/analytics`,
    );
    if (sentNow) sent++;
  }
  return sent;
}

/** 100, 1,000, 10,000…: the highest level a total has reached, or null under 100. */
export function thresholdOf(scans: number): number | null {
  if (scans < 100) return null;
  return 10 ** Math.floor(Math.log10(scans));
}

/** A mail for each code that passed a new level since the last run; answers how many went out. */
export async function sendScanThresholdMails(deps: AppDeps): Promise<number> {
  let sent = 0;
  for (const user of await listRecipients(deps.db, 'notify_scan_thresholds')) {
    for (const workspace of await workspacesOf(deps, user.id)) {
      for (const code of await sumScansPerCodeOf(deps.db, workspace.id)) {
        const level = thresholdOf(code.scans);
        if (level === null) continue;
        // A team's code tells each member who asked, once each; one's own code keeps its key of before.
        const key = workspace.team
          ? `threshold:${code.id}:${level}:u${user.id}`
          : `threshold:${code.id}:${level}`;
        const write = (words: MailMessages) =>
          words.scanThreshold({
            codeName: code.name,
            team: workspace.team ? workspace.name : null,
            level,
            scans: code.scans,
          });
        const link = `${deps.config.publicUrl}/qr-details/${code.id}${workspace.team ? `?workspace=${workspace.id}` : ''}`;
        const sentNow = await sendOnce(deps, key, user, write, link);
        if (sentNow) sent++;
      }
    }
  }
  return sent;
}

export const NOTIFICATION_INTERVAL_MS = 10 * 60_000;

/** Runs both jobs now and then; a failure is logged and tried again next time. Answers a stop function. */
export function startNotificationJobs(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'error'>,
  intervalMs = NOTIFICATION_INTERVAL_MS,
): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await sendScanThresholdMails(deps);
      await sendScanDigests(deps);
    } catch (error) {
      log.error({ err: error }, 'notification mails failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
