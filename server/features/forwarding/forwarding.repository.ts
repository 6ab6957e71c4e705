import type { ColumnType, Selectable } from 'kysely';
import type { Db, NullableTimestamp, Timestamp } from '../../db/database.js';

/**
 * Forwarding scans to web analytics: one row per workspace that forwards (migrations/
 * 2026-12-09T1100-analytics-forwarding.ts). Every SQL statement of the feature is here.
 */

declare module '../../db/database.js' {
  interface Database {
    analytics_forwarding: AnalyticsForwardingTable;
  }
}

export interface AnalyticsForwardingTable {
  owner_id: number;
  provider: string;
  /** The provider's public fields as JSON (url, siteId, domain, measurementId). */
  settings: string;
  /** Matomo's token_auth or GA4's api_secret; never answered. */
  secret: string | null;
  enabled: ColumnType<boolean | number, boolean | undefined, boolean>;
  address: string;
  /** Keys the daily visitor ids (GA4 client_id, Matomo _id): never sent, never answered. */
  hash_salt: string;
  last_success_at: NullableTimestamp;
  last_error_message: string | null;
  last_error_status: number | null;
  last_error_at: NullableTimestamp;
  /** PostgreSQL bigint reads back as text. */
  sent_count: ColumnType<number | string, number | undefined, number | string>;
  failed_count: ColumnType<number | string, number | undefined, number | string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ForwardingRow = Selectable<AnalyticsForwardingTable>;

export function findForwarding(db: Db, ownerId: number): Promise<ForwardingRow | undefined> {
  return db.selectFrom('analytics_forwarding').selectAll().where('owner_id', '=', ownerId).executeTakeFirst();
}

/** The enabled rows among `ownerIds` (the workspaces of the scans a turn hands on). */
/** Whether any workspace forwards its scans now (none: the feed moves on without reading a scan). */
export async function anyForwardingEnabled(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('analytics_forwarding')
    .select('owner_id')
    .where('enabled', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listEnabledForwarding(db: Db, ownerIds: readonly number[]): Promise<ForwardingRow[]> {
  if (ownerIds.length === 0) return [];
  return db
    .selectFrom('analytics_forwarding')
    .selectAll()
    .where('owner_id', 'in', ownerIds)
    .where('enabled', '=', true)
    .execute();
}

export interface ForwardingValues {
  provider: string;
  settings: string;
  secret: string | null;
  enabled: boolean;
  address: string;
}

/**
 * Stores a workspace's settings: a new row with its salt, or the row changed (its last error cleared,
 * since it was about the settings before; the counts and the salt kept).
 */
export async function saveForwarding(
  db: Db,
  ownerId: number,
  values: ForwardingValues,
  salt: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('analytics_forwarding')
    .values({ owner_id: ownerId, ...values, hash_salt: salt, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('owner_id').doUpdateSet({
        ...values,
        last_error_message: null,
        last_error_status: null,
        last_error_at: null,
        updated_at: now,
      }),
    )
    .execute();
}

export async function deleteForwarding(db: Db, ownerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('analytics_forwarding')
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Scans the provider took (`sent`), and those given up on (`failed`) with the last error, if any. */
export async function recordDelivery(
  db: Db,
  ownerId: number,
  outcome: {
    sent: number;
    failed: number;
    at: string;
    error: { message: string; httpStatus: number | null } | null;
  },
): Promise<void> {
  await db
    .updateTable('analytics_forwarding')
    .set((eb) => ({
      sent_count: eb('sent_count', '+', outcome.sent),
      failed_count: eb('failed_count', '+', outcome.failed),
      ...(outcome.sent > 0 ? { last_success_at: outcome.at } : {}),
      ...(outcome.error
        ? {
            last_error_message: outcome.error.message.slice(0, 500),
            last_error_status: outcome.error.httpStatus,
            last_error_at: outcome.at,
          }
        : {}),
    }))
    .where('owner_id', '=', ownerId)
    .execute();
}

export async function markSuccess(db: Db, ownerId: number, at: string): Promise<void> {
  await db
    .updateTable('analytics_forwarding')
    .set({ last_success_at: at })
    .where('owner_id', '=', ownerId)
    .execute();
}
