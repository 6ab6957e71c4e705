import {
  auditListInput,
  updateInstanceSettingsInput,
  type InstanceSettings,
  type SystemStats,
} from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { dialectOf } from '../../db/create-db.js';
import { toIso } from '../../db/database.js';
import { parseInput } from '../../errors.js';
import { listMailLog } from '../mail/mailer.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { getInstanceSettings, storeInstanceSettings } from '../settings/instance-settings.js';
import { countPendingRequests } from '../billing/billing.repository.js';
import { countUsers } from '../users/users.repository.js';
import {
  countAdminsWithEmail,
  countCodes,
  databaseBytes,
  listSignupTimes,
  sumScansPerDay,
  topUsersByScans,
} from './admin.repository.js';
import { listAudit, recordAudit } from '../../audit.js';

const CHART_DAYS = 30;

function dayKey(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instance at a glance: people (a team workspace is none), codes (teams' too), scans (UTC days,
 * bots left out), growth and size.
 */
export async function getSystemStats(deps: AppDeps): Promise<SystemStats> {
  const today = Math.floor(deps.clock.now().getTime() / DAY_MS);
  const firstDay = today - (CHART_DAYS - 1);
  const [{ users, admins }, qrCodes, scans, topUsers, signups, bytes] = await Promise.all([
    countUsers(deps.db),
    countCodes(deps.db),
    sumScansPerDay(deps.db, firstDay),
    topUsersByScans(deps.db, firstDay, 5),
    listSignupTimes(deps.db, new Date(firstDay * DAY_MS).toISOString()),
    databaseBytes(deps.db),
  ]);
  const scansByDay = new Map(scans.map((s) => [s.day, s.scans]));
  const signupsByDay = new Map<string, number>();
  for (const at of signups) {
    const key = toIso(at).slice(0, 10);
    signupsByDay.set(key, (signupsByDay.get(key) ?? 0) + 1);
  }
  const days = Array.from({ length: CHART_DAYS }, (_, i) => firstDay + i);
  const sumSince = (from: number) =>
    days.filter((d) => d >= from).reduce((n, d) => n + (scansByDay.get(d) ?? 0), 0);
  return {
    users,
    admins,
    qrCodes,
    scansToday: sumSince(today),
    scans7Days: sumSince(today - 6),
    scans30Days: sumSince(firstDay),
    signupsPerDay: days.map((d) => ({ date: dayKey(d), count: signupsByDay.get(dayKey(d)) ?? 0 })),
    scansPerDay: days.map((d) => ({ date: dayKey(d), count: scansByDay.get(d) ?? 0 })),
    topUsers,
    databaseBytes: bytes,
    databaseKind: dialectOf(deps.db),
  };
}

/** What waits for an admin: shown as counts in the sidebar and on /admin. */
export interface AdminNotices {
  /** Upgrade requests no admin has decided yet. */
  pendingUpgradeRequests: number;
  /** Admins with an e-mail address: 0 means nobody is mailed about upgrade requests. */
  adminsWithEmail: number;
}

export async function getAdminNotices(deps: AppDeps): Promise<AdminNotices> {
  const [pendingUpgradeRequests, adminsWithEmail] = await Promise.all([
    countPendingRequests(deps.db),
    countAdminsWithEmail(deps.db),
  ]);
  return { pendingUpgradeRequests, adminsWithEmail };
}

/** The last mails: recipient, subject, time, and sent / outbox / failed. */
export async function getMailLog(deps: AppDeps) {
  return {
    transport: deps.config.smtpUrl ? ('smtp' as const) : ('outbox' as const),
    from: deps.config.mailFrom,
    entries: await listMailLog(deps.db, 50),
  };
}

export function getSettings(deps: AppDeps): Promise<InstanceSettings> {
  return getInstanceSettings(deps);
}

export async function updateSettings(deps: AppDeps, admin: User, raw: unknown): Promise<InstanceSettings> {
  const patch = parseInput(updateInstanceSettingsInput, raw);
  const before = await getInstanceSettings(deps);
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await storeInstanceSettings(trx, patch, now);
    await recordAudit(trx, admin, now, {
      action: 'settings.update',
      targetType: 'settings',
      before,
      after: { ...before, ...patch },
    });
  });
  return getInstanceSettings(deps);
}

export async function getAuditLog(deps: AppDeps, raw: unknown) {
  const input = parseInput(auditListInput, raw ?? {});
  return listAudit(deps.db, input.page, input.pageSize);
}
