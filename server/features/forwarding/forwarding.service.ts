import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  addressModes,
  forwardingMessages,
  PLAUSIBLE_DEFAULT_URL,
  providerLabels,
  type AddressMode,
  type ForwardingAnswer,
  type ForwardingProvider,
  type ForwardingSettings,
  type ForwardingSettingsInput,
  type ForwardingTestAnswer,
} from '../../../src/forwarding/forwarding.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { appError } from '../../errors.js';
import { startPeriodic } from '../../periodic.js';
import { shortLinksFor, type ShortLinks } from '../domains/short-domains.registry.js';
import { recordActivity } from '../workspaces/activity.js';
import { actorOf, type Owner } from '../workspaces/owner.js';
import {
  claimFeed,
  ensureFeed,
  skipFeedToEnd,
  moveFeed,
  nextScans,
  readScansAfter,
  releaseFeed,
  type FeedScan,
} from '../scan-feed/scan-feed.js';
import {
  addressToSend,
  campaignUrl,
  dailyVisitor,
  ga4Requests,
  matomoRequests,
  matomoTrackerUrl,
  plausibleRequest,
  type ForwardedScan,
  type ProviderRequest,
} from './forwarding.formats.js';
import {
  anyForwardingEnabled,
  deleteForwarding,
  findForwarding,
  listEnabledForwarding,
  markSuccess,
  recordDelivery,
  saveForwarding,
  type ForwardingRow,
} from './forwarding.repository.js';
import { defaultSendOptions, deliver, eachLimited, postOnce, type SendOptions } from './forwarding.sender.js';

/**
 * Forwarding scans to web analytics (issue 36, item 2). The settings: one provider per workspace, read
 * and changed by its admins. The worker: the scan feed's consumer 'analytics-forwarding' reads the stored
 * scans after the redirect has answered (never on its path), keeps those of workspaces that forward, and
 * sends them to each one's provider outside any transaction, workspaces side by side, each request with a
 * time-out and a few tries; then it moves the feed past them. Delivery is best effort: scans a provider
 * did not take after the tries are counted as failed and the error is shown on the settings card.
 */

export const FEED_NAME = 'analytics-forwarding';

// ---- Settings ----

interface StoredSettings {
  url?: string;
  siteId?: number;
  domain?: string;
  measurementId?: string;
}

function readSettings(row: ForwardingRow): StoredSettings {
  try {
    return JSON.parse(row.settings) as StoredSettings;
  } catch {
    return {};
  }
}

function addressOf(row: ForwardingRow): AddressMode {
  return (addressModes as readonly string[]).includes(row.address) ? (row.address as AddressMode) : 'none';
}

/** A row as answered: never its secret, only whether one is kept. */
export function toForwardingSettings(row: ForwardingRow): ForwardingSettings {
  const settings = readSettings(row);
  const status = {
    enabled: Boolean(row.enabled),
    address: addressOf(row),
    lastSuccessAt: row.last_success_at === null ? null : toIso(row.last_success_at),
    lastError:
      row.last_error_message === null || row.last_error_at === null
        ? null
        : {
            message: row.last_error_message,
            httpStatus: row.last_error_status === null ? null : Number(row.last_error_status),
            at: toIso(row.last_error_at),
          },
    sentCount: Number(row.sent_count),
    failedCount: Number(row.failed_count),
    updatedAt: toIso(row.updated_at),
  };
  const provider = row.provider as ForwardingProvider;
  if (provider === 'matomo')
    return {
      provider,
      url: settings.url ?? '',
      siteId: Number(settings.siteId ?? 0),
      hasTokenAuth: row.secret !== null,
      ...status,
    };
  if (provider === 'ga4')
    return {
      provider,
      measurementId: settings.measurementId ?? '',
      hasApiSecret: row.secret !== null,
      ...status,
    };
  return {
    provider: 'plausible',
    url: settings.url ?? PLAUSIBLE_DEFAULT_URL,
    domain: settings.domain ?? '',
    ...status,
  };
}

export async function getForwarding(deps: AppDeps, ownerId: number): Promise<ForwardingAnswer> {
  const row = await findForwarding(deps.db, ownerId);
  return { settings: row ? toForwardingSettings(row) : null };
}

/** The provider's public fields and its secret from an input (a secret left out is kept if the provider is). */
function valuesOf(input: ForwardingSettingsInput, existing: ForwardingRow | undefined) {
  const kept = existing && existing.provider === input.provider ? existing.secret : null;
  switch (input.provider) {
    case 'matomo':
      return {
        settings: { url: matomoTrackerUrl(input.url), siteId: input.siteId },
        secret: input.tokenAuth ?? kept,
      };
    case 'plausible':
      return { settings: { url: input.url.replace(/\/+$/, ''), domain: input.domain }, secret: null };
    case 'ga4': {
      const secret = input.apiSecret ?? kept;
      if (!secret) throw appError('BAD_REQUEST', forwardingMessages.apiSecretRequired);
      return { settings: { measurementId: input.measurementId.toUpperCase() }, secret };
    }
  }
}

/** Stores the workspace's settings, and says so in its activity feed (never a secret). */
export async function saveForwardingSettings(
  deps: AppDeps,
  owner: Owner,
  input: ForwardingSettingsInput,
): Promise<ForwardingAnswer> {
  const existing = await findForwarding(deps.db, owner.id);
  const { settings, secret } = valuesOf(input, existing);
  const now = deps.clock.now();
  // The scans stored from now on are forwarded (the feed starts at the newest scan when it is new).
  await ensureFeed(deps.db, FEED_NAME);
  await deps.db.transaction().execute(async (trx) => {
    await saveForwarding(
      trx,
      owner.id,
      {
        provider: input.provider,
        settings: JSON.stringify(settings),
        secret,
        enabled: input.enabled,
        address: input.address,
      },
      randomBytes(32).toString('hex'),
      now.toISOString(),
    );
    await recordActivity(trx, owner.id, actorOf(owner), now, {
      action: 'forwarding.updated',
      targetType: 'workspace',
      targetId: owner.id,
      targetLabel: providerLabels[input.provider],
      details: { enabled: input.enabled, address: input.address },
    });
  });
  return getForwarding(deps, owner.id);
}

export async function removeForwarding(
  deps: AppDeps,
  owner: Owner,
): Promise<{ success: boolean; message: string }> {
  const existing = await findForwarding(deps.db, owner.id);
  if (!existing) throw appError('NOT_FOUND', forwardingMessages.notConfigured);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await deleteForwarding(trx, owner.id);
    await recordActivity(trx, owner.id, actorOf(owner), now, {
      action: 'forwarding.removed',
      targetType: 'workspace',
      targetId: owner.id,
      targetLabel: providerLabels[existing.provider as ForwardingProvider] ?? existing.provider,
    });
  });
  return { success: true, message: forwardingMessages.removed };
}

// ---- Requests ----

/** The requests that carry `scans` to the workspace's provider. */
export function requestsFor(
  deps: Pick<AppDeps, 'config'>,
  row: ForwardingRow,
  scans: readonly ForwardedScan[],
  now: number,
): ProviderRequest[] {
  const settings = readSettings(row);
  switch (row.provider) {
    case 'matomo':
      return matomoRequests(
        { trackerUrl: settings.url ?? '', siteId: Number(settings.siteId), tokenAuth: row.secret },
        scans,
        now,
      );
    case 'plausible':
      return scans.map((scan) =>
        plausibleRequest({ url: settings.url ?? PLAUSIBLE_DEFAULT_URL, domain: settings.domain ?? '' }, scan),
      );
    case 'ga4':
      return ga4Requests(
        {
          collectUrl: deps.config.ga4CollectUrl,
          measurementId: settings.measurementId ?? '',
          apiSecret: row.secret ?? '',
        },
        scans,
      );
    default:
      return [];
  }
}

/** A stored scan as its workspace's provider gets it; null for one never forwarded (a bot, a test). */
export function forwardedScanOf(links: ShortLinks, row: ForwardingRow, scan: FeedScan): ForwardedScan | null {
  if (scan.device === 'Bot' || scan.outcome.kind === 'simulated' || !scan.slug) return null;
  // The link as printed: on the code's short domain when it has one.
  const link = links.shortUrl(encodeURIComponent(scan.slug), scan.domainId);
  return {
    url: campaignUrl(link, scan.codeName),
    link,
    campaign: scan.codeName,
    userAgent: scan.userAgent,
    referrer: scan.referrer,
    at: scan.at,
    address: addressToSend(scan.ipAddress, addressOf(row)),
    visitor: dailyVisitor(row.hash_salt, scan.at, scan.ipAddress, scan.userAgent),
    device: scan.device,
    outcome: scan.outcome,
  };
}

/** "Send a test event": one made-up scan sent now (no retry), and what the provider said. */
export async function sendTestEvent(
  deps: AppDeps & { userAgent?: string | null },
  ownerId: number,
  options: Pick<SendOptions, 'timeoutMs'> = defaultSendOptions,
): Promise<ForwardingTestAnswer> {
  const row = await findForwarding(deps.db, ownerId);
  if (!row) throw appError('NOT_FOUND', forwardingMessages.notConfigured);
  const now = deps.clock.now();
  const link = `${deps.config.publicUrl}/r/test-event`;
  const campaign = 'QR Creator test event';
  const scan: ForwardedScan = {
    url: campaignUrl(link, campaign),
    link,
    campaign,
    userAgent: deps.userAgent ?? null,
    referrer: null,
    at: now.getTime(),
    address: null,
    visitor: dailyVisitor(row.hash_salt, now.getTime(), null, 'test'),
    device: 'Desktop',
    outcome: { kind: 'default', rule: null },
  };
  const [request] = requestsFor(deps, row, [scan], now.getTime());
  if (!request) throw appError('BAD_REQUEST', forwardingMessages.notConfigured);
  const answer = await postOnce(deps.config.outbound, request, options.timeoutMs);
  const at = deps.clock.now().toISOString();
  // A test the provider took shows as the last success, as a forwarded scan does; one it refused, as the error.
  if (answer.ok) await markSuccess(deps.db, ownerId, at);
  else
    await recordDelivery(deps.db, ownerId, {
      sent: 0,
      failed: 0,
      at,
      error: { message: answer.message, httpStatus: answer.httpStatus },
    });
  return answer;
}

// ---- The worker ----

export interface ForwardingTurnOptions extends SendOptions {
  /** Who holds the feed while the turn runs. */
  instance: string;
  /** Scans read per turn. */
  limit: number;
  /** Workspaces sent to at once. */
  lanes: number;
  /** How long the feed is held: longer than a turn with its tries can take. */
  leaseMs: number;
}

const processInstance = randomUUID();

export const defaultTurnOptions: ForwardingTurnOptions = {
  ...defaultSendOptions,
  instance: processInstance,
  limit: 500,
  lanes: 4,
  leaseMs: 5 * 60_000,
};

export interface TurnResult {
  /** Scans the feed moved past. */
  handed: number;
  sent: number;
  failed: number;
}

/**
 * One turn: claims the feed, reads the scans after it (every workspace's: filtering here would look like
 * gaps), keeps those of workspaces that forward, sends them (no transaction open), records each
 * workspace's outcome and moves the feed past them. Another instance holding the feed: nothing to do.
 */
export async function runForwardingTurn(
  deps: AppDeps,
  options: Partial<ForwardingTurnOptions> = {},
): Promise<TurnResult> {
  const o = { ...defaultTurnOptions, ...options };
  const result: TurnResult = { handed: 0, sent: 0, failed: 0 };
  const now = deps.clock.now();
  // No workspace forwards: the feed moves to the newest scan, nothing is read (a busy server's scans cost
  // one statement a turn).
  if (
    await skipFeedToEnd(
      deps.db,
      FEED_NAME,
      o.instance,
      now,
      async () => !(await anyForwardingEnabled(deps.db)),
    )
  )
    return result;
  const position = await claimFeed(deps.db, FEED_NAME, o.instance, now, o.leaseMs);
  if (!position) return result;
  try {
    const read = await readScansAfter(deps.db, position.lastId, o.limit);
    const next = nextScans(read, position, now);
    const moved =
      next.position.lastId !== position.lastId ||
      next.position.gapId !== position.gapId ||
      next.position.gapSince !== position.gapSince;
    if (!moved) return result;
    const owners = [...new Set(next.scans.map((s) => s.ownerId))];
    const rows = await listEnabledForwarding(deps.db, owners);
    const links = await shortLinksFor(deps, new Set(next.scans.map((s) => s.domainId)));
    await eachLimited(rows, o.lanes, async (row) => {
      const scans = next.scans
        .filter((s) => s.ownerId === row.owner_id)
        .map((s) => forwardedScanOf(links, row, s))
        .filter((s): s is ForwardedScan => s !== null);
      if (scans.length === 0) return;
      const outcome = await deliver(deps.config.outbound, requestsFor(deps, row, scans, now.getTime()), o);
      result.sent += outcome.sent;
      result.failed += outcome.failed;
      await recordDelivery(deps.db, row.owner_id, { ...outcome, at: deps.clock.now().toISOString() });
    });
    await moveFeed(deps.db, FEED_NAME, next.position);
    result.handed = next.scans.length;
    return result;
  } finally {
    await releaseFeed(deps.db, FEED_NAME, o.instance);
  }
}

/** Every 2 s, a turn (never two at once); the timers do not keep the process alive. Answers how to stop. */
export function startForwarding(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'error'>,
  /** Whether a turn should wait now, while scans rush in (background/scan-pace.ts). */
  wait: () => boolean = () => false,
): () => void {
  return startPeriodic(() => (wait() ? Promise.resolve() : runForwardingTurn(deps)), {
    firstRunMs: 2_000,
    everyMs: 2_000,
    onError: (error) => log.error({ err: error }, 'forwarding scans to web analytics failed'),
  });
}
