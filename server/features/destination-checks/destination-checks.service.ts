import type { FastifyBaseLogger } from 'fastify';
import { destinationCheckMessages } from '../../../src/qr/destination-check.js';
import type { DestinationIssue } from '../../../src/qr/destination-check.schema.js';
import { isHttpUrl } from '../../../src/qr/field-checks.js';
import { normalizeQrType, redirectingQrTypes } from '../../../src/qr/qr-types.js';
import { readSmartRedirect, smartDestinations } from '../../../src/qr/smart-redirect.js';
import type { AppDeps } from '../../app-deps.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/database.js';
import { appError, refuse } from '../../errors.js';
import { startPeriodic } from '../../periodic.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import { findQrCodeOf } from '../qr/qr.repository.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages, type CheckedUrl } from '../mail/messages/index.js';
import { emitWebhookEvent } from '../webhooks/webhooks.service.js';
import { claimNotification, releaseNotification } from '../notifications/notifications.repository.js';
import { checkDestination, type CheckResult } from './destination-checker.js';
import {
  claimDueUrls,
  claimUrlNow,
  ensureCheckedUrl,
  findChecks,
  findDynamicCodeOf,
  listDownUrls,
  listDynamicCodes,
  listDynamicCodesOf,
  listWorkspaceEditors,
  saveCheck,
  syncCheckedUrls,
  type CheckRow,
} from './destination-checks.repository.js';

/**
 * Dead destinations caught (issue 35, item 4). A periodic job (on every instance; they share the work
 * through claims in `destination_checks`) keeps one row per URL that an active dynamic code sends
 * scanners to, checks each at most once a day (HEAD, then GET; destination-checker.ts) with a pause
 * between two requests to one host, and marks a URL failing twice in a row as down. Its codes' owners
 * (a team's editors) get one mail per code and run of failures. The redirect reads the down URLs from
 * memory (downDestinations) to send scans of a code that opted in to its fallback URL.
 */

export const CHECK_EVERY_MS = 24 * 3_600_000;
/** A user's "Check again" of one URL: at most once a minute. */
export const RECHECK_GAP_MS = 60_000;

export interface CheckJobOptions {
  /** URLs claimed per run. */
  batch: number;
  /** The pause between two requests to one host. */
  hostGapMs: number;
  timeoutMs: number;
  /** Hosts checked at once. */
  lanes: number;
  /** How long a claim holds before another instance may take the URL. */
  leaseMs: number;
  /** How often this instance reads every dynamic code for URLs to add or forget (a full read). */
  syncEveryMs: number;
}

export const defaultCheckJob: CheckJobOptions = {
  batch: 60,
  hostGapMs: 2_000,
  timeoutMs: 10_000,
  lanes: 4,
  leaseMs: 10 * 60_000,
  syncEveryMs: 3_600_000,
};

/** Which of a code's URLs are checked, each with its label: its destination, its rules', its fallback. */
export function checkedUrlsOf(
  code: { type: string; content: string; redirect_options: string | null },
  now: Date,
): { label: string; url: string }[] {
  if (!redirectingQrTypes.includes(normalizeQrType(code.type))) return [];
  const options = readSmartRedirect(code.redirect_options);
  // Paused or ended: nobody is sent anywhere, so nothing to watch.
  if (options?.paused) return [];
  if (options?.activeUntil && Date.parse(options.activeUntil) <= now.getTime()) return [];
  const out = [{ label: 'Destination', url: code.content }, ...(options ? smartDestinations(options) : [])];
  return out.filter((u) => isHttpUrl(u.url));
}

function hostOfUrl(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** The outcome of a check on a URL's row: failures in a row, down from the second. */
function outcomeOf(row: CheckRow, result: CheckResult, now: Date) {
  const checkedAt = now.toISOString();
  const nextCheckAt = new Date(now.getTime() + CHECK_EVERY_MS).toISOString();
  if (result.kind === 'skipped')
    return {
      state: 'skipped',
      failures: 0,
      problem: null,
      cause: null,
      httpStatus: null,
      failingSince: null,
      checkedAt,
      nextCheckAt,
    };
  if (result.kind === 'ok')
    return {
      state: 'ok',
      failures: 0,
      problem: null,
      cause: null,
      httpStatus: result.httpStatus,
      failingSince: null,
      checkedAt,
      nextCheckAt,
    };
  const failures = Number(row.failures) + 1;
  return {
    state: failures >= 2 ? 'down' : 'failing',
    failures,
    problem: result.problem,
    cause: result.cause,
    httpStatus: result.httpStatus,
    failingSince: row.failing_since === null ? checkedAt : toIso(row.failing_since),
    checkedAt,
    nextCheckAt,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks claimed URLs host by host (a pause between two of one host), `lanes` hosts at once. */
async function checkPaced(
  deps: AppDeps,
  rows: readonly CheckRow[],
  options: CheckJobOptions,
  onResult: (row: CheckRow, result: CheckResult) => Promise<void>,
) {
  const byHost = new Map<string, CheckRow[]>();
  for (const row of rows) byHost.set(row.host, [...(byHost.get(row.host) ?? []), row]);
  const hosts = [...byHost.values()];
  let next = 0;
  const lane = async () => {
    while (next < hosts.length) {
      const list = hosts[next++]!;
      for (const [i, row] of list.entries()) {
        if (i > 0) await sleep(options.hostGapMs);
        await onResult(
          row,
          await checkDestination(deps.config.outbound, row.url, { timeoutMs: options.timeoutMs }),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.lanes, hosts.length) }, lane));
}

/** Which of a code's URLs a label of checkedUrlsOf names, for the mail's words. */
function checkedUrlOf(label: string): CheckedUrl {
  const rule = /^Rule (\d+):/.exec(label);
  if (rule) return { kind: 'rule', rule: Number(rule[1]) };
  return label === 'Fallback URL' ? { kind: 'fallback' } : { kind: 'destination' };
}

/** A code that sends scanners to a URL, and which of its URLs it is ("Destination", "Rule 2: …"). */
interface CodeUsing {
  code: Awaited<ReturnType<typeof listDynamicCodes>>[number];
  label: string;
}

/** The active dynamic codes that send scanners to `url`: read once when it goes down, for webhooks and mails. */
async function codesUsing(deps: AppDeps, url: string, now: Date): Promise<CodeUsing[]> {
  const using: CodeUsing[] = [];
  for (const code of await listDynamicCodes(deps.db)) {
    const label = checkedUrlsOf(code, now).find((u) => u.url === url)?.label;
    if (label !== undefined) using.push({ code, label });
  }
  return using;
}

/** Mails the people of each code that uses `url` that it is down: once per code, person and run of failures. */
async function tellOwners(
  deps: AppDeps,
  using: readonly CodeUsing[],
  url: string,
  outcome: ReturnType<typeof outcomeOf>,
) {
  const now = deps.clock.now();
  for (const { code, label } of using) {
    for (const person of await listWorkspaceEditors(deps.db, code.user_id)) {
      const key = `destination-down:${code.id}:${outcome.failingSince}:${url.slice(0, 200)}:u${person.id}`;
      if (!(await claimNotification(deps.db, key, person.id, now.toISOString()))) continue;
      const team = code.user_id !== person.id;
      const details = `${deps.config.publicUrl}/qr-details/${code.id}?check=destination${team ? `&workspace=${code.user_id}` : ''}`;
      try {
        const locale = mailLocaleOf(person);
        await deps.mailer.send(
          composeMailFor(
            { to: person.email, locale, name: person },
            mailMessages(locale).destinationDown({
              codeName: code.name,
              team,
              which: checkedUrlOf(label),
              url,
              problem: outcome.cause,
            }),
            details,
            deps.config.publicUrl,
          ),
        );
      } catch (error) {
        await releaseNotification(deps.db, key);
        throw error;
      }
    }
  }
}

async function applyResult(deps: AppDeps, row: CheckRow, result: CheckResult, notify: boolean) {
  const now = deps.clock.now();
  const outcome = outcomeOf(row, result, now);
  const wentDown = outcome.state === 'down' && row.state !== 'down';
  const using = wentDown ? await codesUsing(deps, row.url, now) : [];
  // The result and the webhooks' `destination.down` (once per code) in one transaction: an event is sent
  // if and only if the state it tells of is saved.
  await deps.db.transaction().execute(async (trx) => {
    await saveCheck(trx, row.url, outcome);
    for (const { code, label } of using)
      await emitWebhookEvent(trx, now, code.user_id, 'destination.down', {
        code: { id: code.id, name: code.name },
        url: row.url,
        label,
        problem: outcome.problem,
        httpStatus: outcome.httpStatus,
        since: outcome.failingSince,
      });
  });
  if (wentDown || (outcome.state !== 'down' && row.state === 'down')) await reloadDownDestinations(deps.db);
  if (wentDown && notify) await tellOwners(deps, using, row.url, outcome);
}

/** Every URL some active dynamic code sends scanners to, with its host. */
async function currentUrls(deps: AppDeps): Promise<Map<string, string>> {
  const now = deps.clock.now();
  const urls = new Map<string, string>();
  for (const code of await listDynamicCodes(deps.db))
    for (const { url } of checkedUrlsOf(code, now)) urls.set(url, hostOfUrl(url));
  return urls;
}

/** When this instance last read every code's URLs, per database. */
const lastSyncs = new WeakMap<Db, number>();

/**
 * One run: the URLs brought up to date (at most every `syncEveryMs`: a new code waits for the next read,
 * which is well within its first day), then those due checked. Answers how many were checked.
 */
export async function runDestinationChecks(
  deps: AppDeps,
  options: CheckJobOptions = defaultCheckJob,
): Promise<number> {
  const now = deps.clock.now();
  const last = lastSyncs.get(deps.db);
  if (last === undefined || now.getTime() - last >= options.syncEveryMs) {
    await syncCheckedUrls(deps.db, await currentUrls(deps), now.toISOString());
    lastSyncs.set(deps.db, now.getTime());
  }
  const claimed = await claimDueUrls(
    deps.db,
    now.toISOString(),
    new Date(now.getTime() + options.leaseMs).toISOString(),
    options.batch,
  );
  await checkPaced(deps, claimed, options, (row, result) => applyResult(deps, row, result, true));
  return claimed.length;
}

/** The job on this instance: a first run a minute after start, then every five minutes. */
export function startDestinationChecks(deps: AppDeps, log: Pick<FastifyBaseLogger, 'error'>): () => void {
  return startPeriodic(() => runDestinationChecks(deps), {
    firstRunMs: 60_000,
    everyMs: 5 * 60_000,
    onError: (error) => log.error({ err: error }, 'destination checks failed'),
  });
}

type CodeRow = Awaited<ReturnType<typeof listDynamicCodesOf>>[number];

function issuesOf(codes: readonly CodeRow[], checks: ReadonlyMap<string, CheckRow>, now: Date, all: boolean) {
  const items: DestinationIssue[] = [];
  for (const code of codes) {
    const options = readSmartRedirect(code.redirect_options);
    for (const { label, url } of checkedUrlsOf(code, now)) {
      const check = checks.get(url);
      const state = check?.state;
      if (state !== 'down' && state !== 'failing' && !(all && state === 'ok')) continue;
      items.push({
        codeId: code.id,
        codeName: code.name,
        url,
        label,
        state,
        problem: check!.problem,
        httpStatus: check!.http_status === null ? null : Number(check!.http_status),
        since: check!.failing_since === null ? null : toIso(check!.failing_since),
        checkedAt: check!.checked_at === null ? null : toIso(check!.checked_at),
        usingFallback:
          state === 'down' &&
          label === 'Destination' &&
          Boolean(options?.fallbackWhenDown && options.fallbackUrl),
      });
    }
  }
  return items;
}

/** The workspace's destinations that fail now (down, or failed once), for its cards and dashboard. */
export async function listDestinationIssues(
  deps: AppDeps,
  ownerId: number,
): Promise<{ items: DestinationIssue[] }> {
  const codes = await listDynamicCodesOf(deps.db, ownerId);
  const now = deps.clock.now();
  const urls = [...new Set(codes.flatMap((c) => checkedUrlsOf(c, now).map((u) => u.url)))];
  return { items: issuesOf(codes, await findChecks(deps.db, urls), now, false) };
}

/**
 * "Check again": every URL of one of the workspace's codes checked now (a URL checked in the last minute
 * keeps that answer), whatever its schedule; answers each URL's state, good ones included.
 */
export async function checkCodeNow(deps: AppDeps, ownerId: number, codeId: number) {
  const code = await findDynamicCodeOf(deps.db, ownerId, codeId);
  if (!code) {
    if (await findQrCodeOf(deps.db, ownerId, codeId))
      throw refuse('STATIC_CODE_NOT_EDITABLE', destinationCheckMessages.notDynamic);
    throw appError('NOT_FOUND', qrMessages.notFound);
  }
  const now = deps.clock.now();
  const urls = checkedUrlsOf(code, now);
  const claimed: CheckRow[] = [];
  for (const { url } of urls) {
    await ensureCheckedUrl(deps.db, url, hostOfUrl(url), now.toISOString());
    const row = await claimUrlNow(
      deps.db,
      url,
      now.toISOString(),
      new Date(now.getTime() - RECHECK_GAP_MS).toISOString(),
      new Date(now.getTime() + defaultCheckJob.leaseMs).toISOString(),
    );
    if (row) claimed.push(row);
  }
  await checkPaced(deps, claimed, { ...defaultCheckJob, hostGapMs: 500 }, (row, result) =>
    applyResult(deps, row, result, false),
  );
  const checks = await findChecks(
    deps.db,
    urls.map((u) => u.url),
  );
  return { items: issuesOf([code], checks, deps.clock.now(), true) };
}

// ---- The down URLs in memory, for the redirect ----

const REFRESH_MS = 30_000;

interface DownSet {
  urls: Set<string>;
  loadedAt: number;
  loading: Promise<void> | null;
}

const downSets = new WeakMap<Db, DownSet>();

function load(db: Db, set: DownSet): Promise<void> {
  set.loading ??= listDownUrls(db)
    .then((urls) => {
      set.urls = new Set(urls);
      set.loadedAt = Date.now();
    })
    .catch(() => undefined)
    .finally(() => {
      set.loading = null;
    });
  return set.loading;
}

/** Reads the down URLs again now (after a check changed one, or in a test). */
export function reloadDownDestinations(db: Db): Promise<void> {
  return load(db, downSetOf(db));
}

function downSetOf(db: Db): DownSet {
  let set = downSets.get(db);
  if (!set) {
    set = { urls: new Set(), loadedAt: 0, loading: null };
    downSets.set(db, set);
  }
  return set;
}

/**
 * Whether the checks find `url` down, from memory: read at the first question and again every 30 s
 * (a check on another instance shows here within that), never on a scan's own time.
 */
export function isDestinationDown(db: Db, url: string): boolean {
  const set = downSetOf(db);
  if (Date.now() - set.loadedAt > REFRESH_MS) void load(db, set);
  return set.urls.has(url);
}
