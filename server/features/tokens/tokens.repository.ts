import { sql } from 'kysely';
import { containsPattern, offsetOf } from '../../../src/api/paging.js';
import type { TokenListQuery, TokenSortKey } from '../../../src/auth/token-list.schema.js';
import type { Db } from '../../db/database.js';

/** A workspace's tokens, only `userId`'s when given (older tokens have no workspace: their maker's own). */
export function listTokensOf(db: Db, workspaceId: number, userId?: number) {
  let query = db
    .selectFrom('api_tokens')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('workspace_id', '=', workspaceId),
        eb.and([eb('workspace_id', 'is', null), eb('user_id', '=', workspaceId)]),
      ]),
    );
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.orderBy('id', 'desc').execute();
}

const tokenSortColumns: Record<TokenSortKey, ReturnType<typeof sql>> = {
  created: sql`created_at`,
  name: sql`lower(name)`,
  lastUsed: sql`last_used_at`,
  expires: sql`expires_at`,
};

/** The workspace's tokens a list query keeps (as listTokensOf, plus search and scope), for the page and its count. */
function filteredTokensOf(db: Db, workspaceId: number, userId: number | undefined, query: TokenListQuery) {
  let q = db
    .selectFrom('api_tokens')
    .where((eb) =>
      eb.or([
        eb('workspace_id', '=', workspaceId),
        eb.and([eb('workspace_id', 'is', null), eb('user_id', '=', workspaceId)]),
      ]),
    );
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  if (query.search) q = q.where(sql<boolean>`lower(name) like ${containsPattern(query.search)} escape '\\'`);
  if (query.scope) q = q.where('scope', '=', query.scope);
  return q;
}

/** One page of a workspace's tokens, searched, filtered, sorted and cut by the database. */
export async function listTokenPageOf(
  db: Db,
  workspaceId: number,
  userId: number | undefined,
  query: TokenListQuery,
) {
  const count = await filteredTokensOf(db, workspaceId, userId, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const direction = sql.raw(query.order === 'asc' ? 'asc' : 'desc');
  const rows = await filteredTokensOf(db, workspaceId, userId, query)
    .selectAll()
    // Never used or never expiring: last in both orders (the databases disagree on where nulls go).
    .orderBy(sql`${tokenSortColumns[query.sort]} ${direction} nulls last`)
    .orderBy('id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

export function insertToken(
  db: Db,
  row: {
    user_id: number;
    workspace_id: number;
    name: string;
    token_hash: string;
    prefix: string;
    scope: string;
    created_at: string;
    expires_at: string | null;
  },
) {
  return db.insertInto('api_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deletes one token of a workspace (only `userId`'s when given); answers what it was (undefined when
 * there is no such token).
 */
export function deleteTokenOf(db: Db, workspaceId: number, id: number, userId?: number) {
  let query = db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('workspace_id', '=', workspaceId),
        eb.and([eb('workspace_id', 'is', null), eb('user_id', '=', workspaceId)]),
      ]),
    );
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.returning(['id', 'prefix', 'scope']).executeTakeFirst();
}

export function findTokenByHash(db: Db, hash: string) {
  return db.selectFrom('api_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function touchToken(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Counts one request of the token in this minute; answers the minute's count (all instances together). */
export async function countTokenRequest(db: Db, tokenId: number, minute: number): Promise<number> {
  const row = await db
    .insertInto('api_token_usage')
    .values({ token_id: tokenId, minute, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['token_id', 'minute'])
        .doUpdateSet((eb) => ({ count: eb('api_token_usage.count', '+', 1) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Drops the counts of minutes that no longer matter. */
export async function forgetOldUsage(db: Db, tokenId: number, beforeMinute: number): Promise<void> {
  await db
    .deleteFrom('api_token_usage')
    .where('token_id', '=', tokenId)
    .where('minute', '<', beforeMinute)
    .execute();
}
