import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import {
  MAX_WEBHOOKS,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SCANS_PER_DELIVERY,
  WEBHOOK_SIGNATURE_HEADER,
  webhookEventTypes,
  webhookMessages,
  type CreateWebhookInput,
  type DeliveryState,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookCodeSummary,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookPayload,
  type WebhookScanData,
  type WebhookWithSecret,
} from '../../../src/webhooks/webhook.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso, type Db } from '../../db/database.js';
import { appError, refuse } from '../../errors.js';
import { startPeriodic } from '../../periodic.js';
import { shortLinksOf, type ShortLinks } from '../domains/short-domains.registry.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { mailMessages } from '../mail/messages/index.js';
import { claimNotification } from '../notifications/notifications.repository.js';
import { namesPrivatePlace, OutboundError, safeFetch } from '../outbound/safe-fetch.js';
import {
  consumeScanFeed,
  decodeScanIds,
  encodeScanIds,
  ensureFeed,
  readScansByIds,
  skipFeedToEnd,
  type FeedEntry,
  type FeedScan,
} from '../scan-feed/scan-feed.js';
import { newWebhookSecret, signWebhook } from './webhook-signature.js';
import {
  claimDelivery,
  claimDueDeliveries,
  countEndpointsOf,
  deleteEndpointOf,
  deleteOldDeliveries,
  failWaitingDeliveries,
  findDeliveryOf,
  findEndpointOf,
  insertDeliveries,
  insertEndpoint,
  lastDeliveriesOf,
  listDeliveriesOf,
  listEnabledEndpoints,
  listEndpointsOf,
  listWorkspaceAdmins,
  saveAttempt,
  succeededSince,
  updateEndpointOf,
  type DeliveryRow,
  type DueDelivery,
  type EndpointRow,
} from './webhooks.repository.js';

/** The scan feed's consumer that turns stored scans into deliveries (server/features/scan-feed). */
export const WEBHOOK_FEED = 'webhooks';
/** How long one attempt may take, the answer included. */
const SEND_TIMEOUT_MS = 10_000;
/** A claimed delivery is another instance's again after this (longer than any attempt). */
const LEASE_MS = 60_000;
/** Waits after the 1st, 2nd… failed attempt; then every 8 hours until 24 hours have passed. */
const RETRY_AFTER_S = [60, 300, 1_800, 3_600, 7_200, 14_400, 28_800];
const EXCERPT_CHARS = 1_000;
const DELIVERY_LOG_DAYS = 7;

/** This process among the instances sharing the database. */
const INSTANCE = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

function eventsOf(row: Pick<EndpointRow, 'events'>): WebhookEventType[] {
  try {
    const parsed = JSON.parse(row.events) as unknown;
    return Array.isArray(parsed)
      ? webhookEventTypes.filter((type) => (parsed as unknown[]).includes(type))
      : [];
  } catch {
    return [];
  }
}

function secretHint(secret: string): string {
  return `${secret.slice(0, 10)}…`;
}

function toWebhook(row: EndpointRow, last: DeliveryRow | undefined): Webhook {
  return {
    id: Number(row.id),
    url: row.url,
    description: row.description,
    events: eventsOf(row),
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    secretHint: secretHint(row.secret),
    createdAt: toIso(row.created_at),
    lastDelivery: last
      ? {
          state: last.state as DeliveryState,
          at: toIso(last.last_attempt_at ?? last.created_at),
        }
      : null,
  };
}

function toDelivery(row: DeliveryRow, payload: string): WebhookDelivery {
  return {
    id: Number(row.id),
    eventTypes: row.event_types.split(',').filter(Boolean),
    events: Number(row.events),
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    createdAt: toIso(row.created_at),
    lastAttemptAt: toIso(row.last_attempt_at),
    nextAttemptAt: row.state === 'pending' || row.state === 'retrying' ? toIso(row.next_attempt_at) : null,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseExcerpt: row.response_excerpt,
    error: row.error,
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    redeliveryOf: row.redelivery_of === null ? null : Number(row.redelivery_of),
    payload,
  };
}

/** A private or loopback address is refused at once, unless OUTBOUND_ALLOWED_HOSTS names it. */
function checkTarget(deps: AppDeps, url: string) {
  if (namesPrivatePlace(deps.config.outbound, new URL(url))) {
    throw appError('BAD_REQUEST', 'url: private and loopback addresses are not allowed', { field: 'url' });
  }
}

async function endpointOrThrow(db: Db, ownerId: number, id: number): Promise<EndpointRow> {
  const row = await findEndpointOf(db, ownerId, id);
  if (!row) throw appError('NOT_FOUND', webhookMessages.notFound);
  return row;
}

// ---- The workspace's endpoints ----

export async function listWebhooks(deps: AppDeps, ownerId: number): Promise<{ items: Webhook[] }> {
  const rows = await listEndpointsOf(deps.db, ownerId);
  const last = await lastDeliveriesOf(
    deps.db,
    rows.map((r) => Number(r.id)),
  );
  return { items: rows.map((row) => toWebhook(row, last.get(Number(row.id)))) };
}

export async function getWebhook(deps: AppDeps, ownerId: number, id: number): Promise<Webhook> {
  const row = await endpointOrThrow(deps.db, ownerId, id);
  return toWebhook(row, (await lastDeliveriesOf(deps.db, [Number(row.id)])).get(Number(row.id)));
}

export async function createWebhook(
  deps: AppDeps,
  ownerId: number,
  actorId: number,
  input: CreateWebhookInput,
): Promise<WebhookWithSecret> {
  checkTarget(deps, input.url);
  if ((await countEndpointsOf(deps.db, ownerId)) >= MAX_WEBHOOKS) {
    throw refuse('LIMIT_REACHED', webhookMessages.tooMany);
  }
  // The scans stored from now on are read for it (those before it are not sent: see routeScansToWebhooks).
  await ensureFeed(deps.db, WEBHOOK_FEED);
  const secret = newWebhookSecret();
  const row = await insertEndpoint(deps.db, {
    owner_id: ownerId,
    created_by: actorId,
    url: input.url,
    description: input.description ?? '',
    events: JSON.stringify(webhookEventTypes.filter((type) => input.events.includes(type))),
    secret,
    created_at: deps.clock.now().toISOString(),
  });
  return { ...toWebhook(row, undefined), secret };
}

export async function updateWebhook(
  deps: AppDeps,
  ownerId: number,
  input: UpdateWebhookInput,
): Promise<Webhook> {
  const existing = await endpointOrThrow(deps.db, ownerId, input.id);
  if (input.url !== undefined) checkTarget(deps, input.url);
  const row = await updateEndpointOf(deps.db, ownerId, input.id, {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.events !== undefined
      ? { events: JSON.stringify(webhookEventTypes.filter((type) => input.events!.includes(type))) }
      : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled, disabled_reason: null } : {}),
    updated_at: deps.clock.now().toISOString(),
  });
  if (!row) throw appError('NOT_FOUND', webhookMessages.notFound);
  // Turned off by a person: what waits is not sent later.
  if (input.enabled === false && Boolean(existing.enabled)) {
    await failWaitingDeliveries(deps.db, input.id, deps.clock.now().toISOString());
  }
  return getWebhook(deps, ownerId, input.id);
}

/** A new signing secret, shown this once; the old one stops signing at once. */
export async function rotateWebhookSecret(
  deps: AppDeps,
  ownerId: number,
  id: number,
): Promise<WebhookWithSecret> {
  await endpointOrThrow(deps.db, ownerId, id);
  const secret = newWebhookSecret();
  await deps.db
    .updateTable('webhook_endpoints')
    .set({ secret, updated_at: deps.clock.now().toISOString() })
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .execute();
  return { ...(await getWebhook(deps, ownerId, id)), secret };
}

export async function deleteWebhook(deps: AppDeps, ownerId: number, id: number) {
  if (!(await deleteEndpointOf(deps.db, ownerId, id))) throw appError('NOT_FOUND', webhookMessages.notFound);
  return { success: true as const, message: webhookMessages.deleted };
}

export async function listWebhookDeliveries(
  deps: AppDeps,
  ownerId: number,
  input: { id: number; before?: number | undefined; limit?: number | undefined },
): Promise<{ items: WebhookDelivery[]; next: number | null }> {
  await endpointOrThrow(deps.db, ownerId, input.id);
  const limit = input.limit ?? 25;
  const rows = await listDeliveriesOf(deps.db, input.id, input.before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await Promise.all(page.map(async (row) => toDelivery(row, await payloadOf(deps, row)))),
    next: rows.length > limit ? Number(page[page.length - 1]!.id) : null,
  };
}

/** "Send a test": a ping event sent now; answers the delivery as it ended (tests are not retried). */
export async function sendTestEvent(deps: AppDeps, ownerId: number, id: number): Promise<WebhookDelivery> {
  const endpoint = await endpointOrThrow(deps.db, ownerId, id);
  const now = deps.clock.now().toISOString();
  const event: WebhookEvent = {
    id: `evt_${randomUUID()}`,
    type: 'ping',
    createdAt: now,
    workspace: { id: ownerId },
    data: { message: 'A test event from QR Creator', webhook: { id, url: endpoint.url } },
  };
  const [inserted] = await insertDeliveries(deps.db, [
    {
      endpoint_id: id,
      event_types: 'ping',
      events: 1,
      payload: JSON.stringify({ events: [event] } satisfies WebhookPayload),
      created_at: now,
    },
  ]);
  return sendNow(deps, id, Number(inserted!.id));
}

/** "Redeliver": the same events again, as a new delivery sent now. */
export async function redeliver(
  deps: AppDeps,
  ownerId: number,
  input: { id: number; deliveryId: number },
): Promise<WebhookDelivery> {
  await endpointOrThrow(deps.db, ownerId, input.id);
  const original = await findDeliveryOf(deps.db, input.id, input.deliveryId);
  if (!original) throw appError('NOT_FOUND', webhookMessages.deliveryNotFound);
  const [inserted] = await insertDeliveries(deps.db, [
    {
      endpoint_id: input.id,
      event_types: original.event_types,
      events: Number(original.events),
      payload: original.payload,
      scan_ids: original.scan_ids,
      created_at: deps.clock.now().toISOString(),
      redelivery_of: Number(original.id),
    },
  ]);
  return sendNow(deps, input.id, Number(inserted!.id));
}

async function sendNow(deps: AppDeps, endpointId: number, deliveryId: number): Promise<WebhookDelivery> {
  const now = deps.clock.now();
  const claimed = await claimDelivery(
    deps.db,
    deliveryId,
    now.toISOString(),
    new Date(now.getTime() + LEASE_MS).toISOString(),
  );
  if (claimed) await attempt(deps, claimed);
  const row = await findDeliveryOf(deps.db, endpointId, deliveryId);
  if (!row) throw appError('NOT_FOUND', webhookMessages.deliveryNotFound);
  return toDelivery(row, await payloadOf(deps, row));
}

/**
 * The JSON body of a delivery: as stored, or for scans made from the scans it names (as stored now: one
 * deleted since, with its code or by retention, is left out).
 */
async function payloadOf(deps: AppDeps, row: Pick<DeliveryRow, 'payload' | 'scan_ids'>): Promise<string> {
  if (row.scan_ids === null) return row.payload;
  const scans = await readScansByIds(deps.db, decodeScanIds(row.scan_ids));
  const links = shortLinksOf(deps.db, deps.config.publicUrl);
  return JSON.stringify({ events: scans.map((scan) => scanEventOf(links, scan)) } satisfies WebhookPayload);
}

// ---- Events ----

/** A code as events describe it. */
export function webhookCodeOf(
  deps: Pick<AppDeps, 'db' | 'config'>,
  row: {
    id: number;
    name: string;
    type: string;
    is_dynamic: boolean | number;
    slug: string | null;
    domain_id?: number | null;
    content: string;
    folder_id: number | null;
  },
): WebhookCodeSummary {
  const dynamic = Boolean(row.is_dynamic);
  return {
    id: Number(row.id),
    name: row.name,
    type: row.type,
    dynamic,
    shortUrl:
      dynamic && row.slug
        ? shortLinksOf(deps.db, deps.config.publicUrl).shortUrl(row.slug, row.domain_id)
        : null,
    content: row.content,
    folderId: row.folder_id === null ? null : Number(row.folder_id),
  };
}

/**
 * Writes a delivery of the event to each of the workspace's endpoints that takes it — in `db`, so inside the
 * transaction of the change it tells of: the event is sent if and only if the change commits.
 */
export async function emitWebhookEvent(
  db: Db,
  now: Date,
  ownerId: number,
  type: Exclude<WebhookEventType, 'scan'>,
  data: unknown,
): Promise<void> {
  await emitWebhookEvents(db, now, ownerId, type, [data]);
}

/** Events of one type at once (a bulk creation's codes): at most 100 in a delivery to each endpoint. */
export async function emitWebhookEvents(
  db: Db,
  now: Date,
  ownerId: number,
  type: Exclude<WebhookEventType, 'scan'>,
  data: readonly unknown[],
): Promise<void> {
  if (data.length === 0) return;
  const endpoints = (await listEnabledEndpoints(db, [ownerId])).filter((e) => eventsOf(e).includes(type));
  if (endpoints.length === 0) return;
  const createdAt = now.toISOString();
  const rows = [];
  for (let i = 0; i < data.length; i += WEBHOOK_SCANS_PER_DELIVERY) {
    const chunk = data.slice(i, i + WEBHOOK_SCANS_PER_DELIVERY);
    const events = chunk.map((item): WebhookEvent => ({
      id: `evt_${randomUUID()}`,
      type,
      createdAt,
      workspace: { id: ownerId },
      data: item,
    }));
    const payload = JSON.stringify({ events } satisfies WebhookPayload);
    for (const e of endpoints)
      rows.push({
        endpoint_id: Number(e.id),
        event_types: type,
        events: chunk.length,
        payload,
        created_at: createdAt,
      });
  }
  for (let i = 0; i < rows.length; i += 100) await insertDeliveries(db, rows.slice(i, i + 100));
}

/**
 * The plan refused a workspace one more code: `limit.reached`, at most once a day per workspace (a person
 * trying again and again is one event).
 */
export async function emitLimitReached(deps: AppDeps, ownerId: number, max: number): Promise<void> {
  const now = deps.clock.now();
  const endpoints = (await listEnabledEndpoints(deps.db, [ownerId])).filter((e) =>
    eventsOf(e).includes('limit.reached'),
  );
  if (endpoints.length === 0) return;
  const day = now.toISOString().slice(0, 10);
  if (!(await claimNotification(deps.db, `webhook-limit:${ownerId}:${day}`, ownerId, now.toISOString())))
    return;
  await emitWebhookEvent(deps.db, now, ownerId, 'limit.reached', {
    limit: 'codes',
    maxCount: max,
    message: `The workspace has reached its plan's limit of ${max} QR codes: a new code was refused.`,
  });
}

function scanEventOf(links: ShortLinks, scan: FeedScan): WebhookEvent {
  const at = new Date(scan.at).toISOString();
  const data: WebhookScanData = {
    code: {
      id: scan.qrCodeId,
      name: scan.codeName,
      shortUrl: scan.slug ? links.shortUrl(scan.slug, scan.domainId) : null,
      folderId: scan.folderId,
    },
    scan: {
      id: scan.id,
      at,
      device: scan.device,
      bot: scan.device === 'Bot',
      location: scan.location,
      referrer: scan.referrer,
      userAgent: scan.userAgent,
      ipAddress: scan.ipAddress,
      outcome: scan.outcome,
    },
  };
  return { id: `scan_${scan.id}`, type: 'scan', createdAt: at, workspace: { id: scan.ownerId }, data };
}

/** Scans read per turn of the feed, and turns at most per run (a busy server's backlog over a few runs). */
const FEED_READ = 5_000;
const FEED_TURNS = 20;

/**
 * Turns the scans stored since the last run into deliveries, up to WEBHOOK_SCANS_PER_DELIVERY scans each, to
 * every enabled endpoint taking scans of their workspace. With no such endpoint anywhere the feed simply moves
 * to the newest scan: nothing is read. Answers how many scans were handed on.
 */
export async function routeScansToWebhooks(deps: AppDeps): Promise<number> {
  let endpoints: Awaited<ReturnType<typeof listEnabledEndpoints>> = [];
  const noOneWants = async () => {
    endpoints = (await listEnabledEndpoints(deps.db)).filter((e) => eventsOf(e).includes('scan'));
    return endpoints.length === 0;
  };
  if (await skipFeedToEnd(deps.db, WEBHOOK_FEED, INSTANCE, deps.clock.now(), noOneWants)) return 0;
  /** Each workspace's endpoints taking scans, with when each was added: it gets the scans from then on. */
  const byOwner = new Map<number, { id: number; since: number }[]>();
  for (const e of endpoints) {
    const owner = Number(e.owner_id);
    const entry = { id: Number(e.id), since: Date.parse(toIso(e.created_at)) };
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), entry]);
  }
  let total = 0;
  for (let turn = 0; turn < FEED_TURNS; turn++) {
    const now = deps.clock.now();
    const handed = await consumeScanFeed(
      deps.db,
      WEBHOOK_FEED,
      { instance: INSTANCE, now, limit: FEED_READ },
      async (trx, scans) => {
        const ofOwner = new Map<number, FeedEntry[]>();
        for (const scan of scans) {
          if (!byOwner.has(scan.ownerId)) continue;
          const list = ofOwner.get(scan.ownerId);
          if (list) list.push(scan);
          else ofOwner.set(scan.ownerId, [scan]);
        }
        const rows = [];
        const createdAt = now.toISOString();
        for (const [owner, list] of ofOwner) {
          for (const endpoint of byOwner.get(owner)!) {
            const taken = list.filter((scan) => scan.at >= endpoint.since);
            for (let i = 0; i < taken.length; i += WEBHOOK_SCANS_PER_DELIVERY) {
              const chunk = taken.slice(i, i + WEBHOOK_SCANS_PER_DELIVERY);
              rows.push({
                endpoint_id: endpoint.id,
                event_types: 'scan',
                events: chunk.length,
                payload: '',
                scan_ids: encodeScanIds(chunk.map((scan) => scan.id)),
                created_at: createdAt,
              });
            }
          }
        }
        for (let i = 0; i < rows.length; i += 100) await insertDeliveries(trx, rows.slice(i, i + 100));
      },
    );
    total += handed;
    if (handed < FEED_READ) break;
  }
  return total;
}

// ---- Sending ----

function nextAttemptAt(delivery: DueDelivery, attempts: number, now: Date): string | null {
  const wait = RETRY_AFTER_S[attempts - 1] ?? RETRY_AFTER_S[RETRY_AFTER_S.length - 1]!;
  const next = now.getTime() + wait * 1000;
  const giveUpAt = Date.parse(toIso(delivery.created_at)) + WEBHOOK_RETRY_HOURS * 3_600_000;
  return next > giveUpAt ? null : new Date(next).toISOString();
}

function failureText(error: unknown): string {
  if (error instanceof OutboundError) {
    const words: Record<OutboundError['reason'], string> = {
      private: 'Refused: the address is on a private network',
      dns: 'Its address does not resolve',
      tls: 'Its certificate is not valid',
      timeout: `No answer within ${SEND_TIMEOUT_MS / 1000} seconds`,
      refused: 'The connection was refused',
      'too-large': 'The answer was too large',
      protocol: 'It did not answer as a web server',
    };
    return words[error.reason];
  }
  return 'The delivery could not be sent';
}

/** One attempt at a claimed delivery, its outcome stored; a delivery failing for 24 hours disables its endpoint. */
async function attempt(deps: AppDeps, delivery: DueDelivery): Promise<void> {
  const started = deps.clock.now();
  const timestamp = Math.floor(started.getTime() / 1000);
  let status: number | null = null;
  let excerpt: string | null = null;
  let error: string | null = null;
  const began = performance.now();
  const payload = await payloadOf(deps, delivery);
  try {
    const answer = await safeFetch(deps.config.outbound, delivery.url, {
      method: 'POST',
      body: payload,
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signWebhook(delivery.secret, timestamp, payload),
        [WEBHOOK_DELIVERY_HEADER.toLowerCase()]: String(delivery.id),
        [WEBHOOK_EVENT_HEADER.toLowerCase()]: delivery.event_types,
      },
      timeoutMs: SEND_TIMEOUT_MS,
      maxBytes: 256 * 1024,
      keepAlive: true,
      // A receiver that answers its POST with a 302 or 303 to its result (Google Apps Script) has taken
      // the delivery: its result is fetched (GET, no body) and its status counts.
      maxRedirects: 2,
    });
    status = answer.status;
    excerpt = answer.body.toString('utf8').slice(0, EXCERPT_CHARS) || null;
  } catch (failure) {
    error = failureText(failure);
  }
  const durationMs = Math.round(performance.now() - began);
  const now = deps.clock.now();
  const attempts = delivery.attempts + 1;
  const ok = status !== null && status >= 200 && status < 300;
  const isTest = delivery.event_types === 'ping';
  const next = ok || isTest ? null : nextAttemptAt(delivery, attempts, now);
  const state = ok ? 'succeeded' : next === null ? 'failed' : 'retrying';
  await saveAttempt(deps.db, delivery.id, {
    state,
    attempts,
    last_attempt_at: now.toISOString(),
    next_attempt_at: next,
    response_status: status,
    response_excerpt: excerpt,
    error: error ?? (ok ? null : `The receiver answered ${status}`),
    duration_ms: durationMs,
  });
  if (state === 'failed' && !isTest) await disableIfFailing(deps, delivery, now);
}

/**
 * A delivery given up after 24 hours: when nothing reached the endpoint in that time either, it is
 * disabled (what waits for it is given up) and the workspace's admins are mailed once.
 */
async function disableIfFailing(deps: AppDeps, delivery: DueDelivery, now: Date) {
  const since = new Date(now.getTime() - WEBHOOK_RETRY_HOURS * 3_600_000).toISOString();
  if (await succeededSince(deps.db, delivery.endpoint_id, since)) return;
  const reason = `Its deliveries failed for ${WEBHOOK_RETRY_HOURS} hours`;
  const result = await deps.db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: now.toISOString() })
    .where('id', '=', delivery.endpoint_id)
    .where('enabled', '=', true)
    .executeTakeFirst();
  // Another instance disabled it first: it has mailed.
  if (Number(result.numUpdatedRows) === 0) return;
  await failWaitingDeliveries(deps.db, delivery.endpoint_id, now.toISOString());
  const page = `${deps.config.publicUrl}/integrations?workspace=${delivery.owner_id}`;
  for (const person of await listWorkspaceAdmins(deps.db, delivery.owner_id)) {
    const locale = mailLocaleOf(person);
    await deps.mailer.send(
      composeMailFor(
        { to: person.email, locale, name: person },
        mailMessages(locale).webhookDisabled({ url: delivery.url, hours: WEBHOOK_RETRY_HOURS }),
        page,
        deps.config.publicUrl,
      ),
    );
  }
}

/** Sends the deliveries due now, a few at a time; answers how many were attempted. */
export async function sendDueDeliveries(deps: AppDeps, limit = 20, lanes = 4): Promise<number> {
  const now = deps.clock.now();
  const due = await claimDueDeliveries(
    deps.db,
    now.toISOString(),
    new Date(now.getTime() + LEASE_MS).toISOString(),
    limit,
  );
  let next = 0;
  const lane = async () => {
    while (next < due.length) await attempt(deps, due[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, due.length) }, lane));
  return due.length;
}

/** One run of the job: new scans into deliveries, then what is due sent (until nothing is due or a limit). */
export async function runWebhooks(deps: AppDeps): Promise<void> {
  await routeScansToWebhooks(deps);
  for (let i = 0; i < 10; i++) if ((await sendDueDeliveries(deps)) < 20) break;
}

/** The job on this instance: every second; finished deliveries older than a week are deleted hourly. */
export function startWebhooks(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'error'>,
  /** Whether a turn should wait now, while scans rush in (background/scan-pace.ts). */
  wait: () => boolean = () => false,
): () => void {
  const onError = (error: unknown) => log.error({ err: error }, 'webhook deliveries failed');
  const stopRuns = startPeriodic(() => (wait() ? Promise.resolve() : runWebhooks(deps)), {
    firstRunMs: 1_000,
    everyMs: 1_000,
    onError,
  });
  const stopSweep = startPeriodic(
    () =>
      deleteOldDeliveries(
        deps.db,
        new Date(deps.clock.now().getTime() - DELIVERY_LOG_DAYS * 86_400_000).toISOString(),
        new Date(deps.clock.now().getTime() - 86_400_000).toISOString(),
      ),
    { firstRunMs: 60_000, everyMs: 3_600_000, onError },
  );
  return () => {
    stopRuns();
    stopSweep();
  };
}
