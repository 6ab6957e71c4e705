import { PostgresAdapter, sql, type ColumnType, type Generated, type Selectable } from 'kysely';
import type { Db, NullableTimestamp, Timestamp } from '../../db/database.js';

/** The tables of migrations/2026-12-09T1000-webhooks.ts, declared beside their statements. */
declare module '../../db/database.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointTable;
    webhook_deliveries: WebhookDeliveryTable;
  }
}

export interface WebhookEndpointTable {
  id: Generated<number>;
  owner_id: number;
  created_by: number | null;
  url: string;
  description: ColumnType<string, string | undefined, string>;
  /** A JSON array of event types. */
  events: string;
  secret: string;
  enabled: ColumnType<boolean | number, boolean | undefined, boolean>;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  /** The event types it carries, comma-separated. */
  event_types: string;
  events: number;
  /** The JSON body; '' for a delivery of scans, which names them in `scan_ids` instead. */
  payload: string;
  /** A delivery of scans: their ids as ranges (`12-40,43`), their JSON made when sent. */
  scan_ids: ColumnType<string | null, string | null | undefined, string | null>;
  state: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  next_attempt_at: NullableTimestamp;
  claimed_until: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
  duration_ms: number | null;
  redelivery_of: number | null;
}

export type EndpointRow = Selectable<WebhookEndpointTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

const isPg = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

export function listEndpointsOf(db: Db, ownerId: number) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('id')
    .execute();
}

export function findEndpointOf(db: Db, ownerId: number, id: number) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countEndpointsOf(db: Db, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function insertEndpoint(
  db: Db,
  row: {
    owner_id: number;
    created_by: number;
    url: string;
    description: string;
    events: string;
    secret: string;
    created_at: string;
  },
) {
  return db
    .insertInto('webhook_endpoints')
    .values({ ...row, updated_at: row.created_at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateEndpointOf(
  db: Db,
  ownerId: number,
  id: number,
  changes: {
    url?: string;
    description?: string;
    events?: string;
    enabled?: boolean;
    disabled_reason?: string | null;
    updated_at: string;
  },
) {
  return db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpointOf(db: Db, ownerId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The enabled endpoints of these workspaces (all of them without `ownerIds`). */
export function listEnabledEndpoints(db: Db, ownerIds?: readonly number[]) {
  let query = db
    .selectFrom('webhook_endpoints')
    .select(['id', 'owner_id', 'events', 'created_at'])
    .where('enabled', '=', true);
  if (ownerIds) {
    if (ownerIds.length === 0) return Promise.resolve([]);
    query = query.where('owner_id', 'in', ownerIds);
  }
  return query.orderBy('id').execute();
}

export function insertDeliveries(
  db: Db,
  rows: {
    endpoint_id: number;
    event_types: string;
    events: number;
    payload: string;
    scan_ids?: string | null;
    created_at: string;
    redelivery_of?: number | null;
  }[],
) {
  if (rows.length === 0) return Promise.resolve([]);
  return db
    .insertInto('webhook_deliveries')
    .values(rows.map((row) => ({ ...row, next_attempt_at: row.created_at })))
    .returning('id')
    .execute();
}

/** A delivery with what sending it needs. */
export interface DueDelivery {
  id: number;
  endpoint_id: number;
  owner_id: number;
  url: string;
  secret: string;
  payload: string;
  scan_ids: string | null;
  event_types: string;
  attempts: number;
  created_at: Date | string;
}

/**
 * Claims up to `limit` deliveries due now until `leaseUntil` (PostgreSQL skips the rows another instance's
 * claim holds; SQLite has one writer at a time), oldest first, only of enabled endpoints.
 */
export async function claimDueDeliveries(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<DueDelivery[]> {
  const lock = isPg(db) ? sql`for update of d skip locked` : sql``;
  const claimed = await sql<{ id: number }>`
    update webhook_deliveries set claimed_until = ${leaseUntil}
    where id in (
      select d.id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id
      where d.state in ('pending', 'retrying') and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until < ${now}) and e.enabled = ${true}
      order by d.next_attempt_at, d.id limit ${limit} ${lock}
    )
    returning id`.execute(db);
  const ids = claimed.rows.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return claimedDeliveries(db, ids);
}

/** Claims one delivery to send at once (a test, a redelivery): its row, or nothing while another holds it. */
export async function claimDelivery(db: Db, id: number, now: string, leaseUntil: string) {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: leaseUntil })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return (await claimedDeliveries(db, [id]))[0];
}

async function claimedDeliveries(db: Db, ids: number[]): Promise<DueDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'e.owner_id',
      'e.url',
      'e.secret',
      'd.payload',
      'd.scan_ids',
      'd.event_types',
      'd.attempts',
      'd.created_at',
    ])
    .where('d.id', 'in', ids)
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

export function saveAttempt(
  db: Db,
  id: number,
  outcome: {
    state: 'succeeded' | 'retrying' | 'failed';
    attempts: number;
    last_attempt_at: string;
    next_attempt_at: string | null;
    response_status: number | null;
    response_excerpt: string | null;
    error: string | null;
    duration_ms: number;
  },
) {
  return db
    .updateTable('webhook_deliveries')
    .set({ ...outcome, claimed_until: null })
    .where('id', '=', id)
    .execute();
}

export function listDeliveriesOf(db: Db, endpointId: number, before: number | undefined, limit: number) {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(limit);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.execute();
}

export function findDeliveryOf(db: Db, endpointId: number, id: number) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Each endpoint's newest delivery (for the list's "last delivery"). */
export async function lastDeliveriesOf(db: Db, endpointIds: readonly number[]) {
  if (endpointIds.length === 0) return new Map<number, DeliveryRow>();
  const newest = db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('endpoint_id', 'in', endpointIds)
    .groupBy('endpoint_id');
  const rows = await db.selectFrom('webhook_deliveries').selectAll().where('id', 'in', newest).execute();
  return new Map(rows.map((r) => [Number(r.endpoint_id), r]));
}

/** Whether the endpoint had a delivery succeed since `since`. */
export async function succeededSince(db: Db, endpointId: number, since: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'succeeded')
    .where('last_attempt_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deliveries still waiting on an endpoint are given up when it is disabled. */
export function failWaitingDeliveries(db: Db, endpointId: number, now: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', next_attempt_at: null, error: 'The webhook was disabled', last_attempt_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('state', 'in', ['pending', 'retrying'])
    .execute();
}

/**
 * Finished deliveries older than `before` are forgotten (the log keeps a week), and delivered scans already
 * older than `scansBefore` (a busy code makes many: a day of them is kept).
 */
export async function deleteOldDeliveries(db: Db, before: string, scansBefore: string): Promise<number> {
  const old = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', before)
    .where('state', 'in', ['succeeded', 'failed'])
    .executeTakeFirst();
  const scans = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', scansBefore)
    .where('state', '=', 'succeeded')
    .where('scan_ids', 'is not', null)
    .executeTakeFirst();
  return Number(old.numDeletedRows) + Number(scans.numDeletedRows);
}

/** Who is told an endpoint was disabled: the person of a personal workspace, a team's admins and owners. */
export async function listWorkspaceAdmins(db: Db, workspaceId: number) {
  const rows = await db
    .selectFrom('users')
    .leftJoin('workspace_members', (join) =>
      join
        .onRef('workspace_members.user_id', '=', 'users.id')
        .on('workspace_members.workspace_id', '=', workspaceId),
    )
    .select([
      'users.id',
      'users.username',
      'users.name',
      'users.email',
      'users.language',
      'users.browser_language',
    ])
    .where('users.kind', '=', 'person')
    .where((eb) =>
      eb.or([eb('users.id', '=', workspaceId), eb('workspace_members.role', 'in', ['admin', 'owner'])]),
    )
    .orderBy('users.id')
    .execute();
  return rows.filter((r): r is typeof r & { email: string } => typeof r.email === 'string' && r.email !== '');
}
