import type { FastifyReply } from 'fastify';
import {
  createTokenInput,
  TOKEN_RATE_PER_MINUTE,
  tokenMessages,
  type ApiToken,
  type TokenScope,
} from '../../../src/auth/api-token.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { TokenListQuery } from '../../../src/auth/token-list.schema.js';
import type { Page } from '../../../src/api/paging.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { appError, parseInput, refuse } from '../../errors.js';
import { securityEvent, type SecurityDeps } from '../../security-log.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { DAY_MS } from '../scans/rollup-model.js';
import { toUser } from '../users/users.mapper.js';
import { findUserById } from '../users/users.repository.js';
import {
  countTokenRequest,
  deleteTokenOf,
  findTokenByHash,
  forgetOldUsage,
  insertToken,
  listTokenPageOf,
  listTokensOf,
  touchToken,
} from './tokens.repository.js';

const TOKEN_PREFIX = 'qrc_';

type TokenRow = Awaited<ReturnType<typeof listTokensOf>>[number];

function toApiToken(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as TokenScope,
    prefix: row.prefix,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIso(row.last_used_at),
    expiresAt: toIso(row.expires_at),
  };
}

/**
 * The tokens of a workspace: in one's own, one's own tokens; in a team (its admins manage them), every
 * member's token for that team.
 */
export async function listTokens(deps: AppDeps, user: User, workspaceId = user.id): Promise<ApiToken[]> {
  return (await listTokensOf(deps.db, workspaceId, workspaceId === user.id ? user.id : undefined)).map(
    toApiToken,
  );
}

/** One page of a workspace's tokens for a list query (GET /api/user/tokens), with the same rule as listTokens. */
export async function listTokenPage(
  deps: AppDeps,
  user: User,
  workspaceId: number,
  query: TokenListQuery,
): Promise<Page<ApiToken>> {
  const mine = workspaceId === user.id ? user.id : undefined;
  const { rows, total } = await listTokenPageOf(deps.db, workspaceId, mine, query);
  return { items: rows.map(toApiToken), total, page: query.page, pageSize: query.pageSize };
}

/** A new token: its value is answered once and never again (only its hash is kept). */
export async function createToken(
  deps: SecurityDeps,
  user: User,
  raw: unknown,
  /** The workspace the token acts on (default: the maker's own). */
  workspaceId = user.id,
  /** Made on the host (`qr-creator create-token`) rather than in the app: the security log says so. */
  onHost = false,
): Promise<{ token: string; apiToken: ApiToken }> {
  const input = parseInput(createTokenInput, raw);
  if (input.scope === 'admin' && !user.isAdmin) throw refuse('ADMIN_REQUIRED', tokenMessages.adminScope);
  const token = `${TOKEN_PREFIX}${newToken()}`;
  const now = deps.clock.now();
  const row = await insertToken(deps.db, {
    user_id: user.id,
    workspace_id: workspaceId,
    name: input.name,
    token_hash: hashToken(token),
    prefix: `${token.slice(0, TOKEN_PREFIX.length + 6)}…`,
    scope: input.scope,
    created_at: now.toISOString(),
    expires_at: input.expiresInDays
      ? new Date(now.getTime() + input.expiresInDays * DAY_MS).toISOString()
      : null,
  });
  await securityEvent(deps, 'token.created', {
    user,
    message: onHost
      ? `API token ${row.prefix} (${row.scope}) created for ${user.username} on the command line`
      : `API token ${row.prefix} (${row.scope}) created by ${user.username}`,
    details: {
      tokenId: row.id,
      prefix: row.prefix,
      scope: row.scope,
      expiresAt: toIso(row.expires_at),
      ...(onHost ? { via: 'command line', workspaceId } : {}),
    },
  });
  return { token, apiToken: toApiToken(row) };
}

/**
 * A token for a user, made on the host without a request (`qr-creator create-token`, for scripts and
 * CI): the app's rules (an admin scope for admins only), the same row and the same security event.
 */
export function createTokenOnHost(
  deps: SecurityDeps,
  user: User,
  raw: unknown,
  workspaceId = user.id,
): Promise<{ token: string; apiToken: ApiToken }> {
  return createToken(deps, user, raw, workspaceId, true);
}

export async function revokeToken(
  deps: AppDeps & SecurityDeps,
  user: User,
  id: number,
  workspaceId = user.id,
): Promise<{ success: true; message: string }> {
  const row = await deleteTokenOf(deps.db, workspaceId, id, workspaceId === user.id ? user.id : undefined);
  if (!row) throw appError('NOT_FOUND', tokenMessages.notFound);
  await securityEvent(deps, 'token.revoked', {
    user,
    message: `API token ${row.prefix} (${row.scope}) revoked by ${user.username}`,
    details: { tokenId: row.id, prefix: row.prefix, scope: row.scope },
  });
  return { success: true, message: 'Token revoked' };
}

/**
 * `Authorization: Bearer <token>` → the token's value ('' when malformed); undefined for no header or
 * another scheme (a proxy's Basic auth in front of the app must not turn every call into a token call).
 */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

/**
 * The user and scope behind a bearer token, counting the request against the token's rate limit
 * (`RATE` a minute, shared by every instance through the database) and saying so in RateLimit-* headers.
 * An unknown, revoked or expired token is a 401; over the limit a 429 with Retry-After.
 */
export async function authenticateToken(
  deps: AppDeps & SecurityDeps & { route: string },
  value: string,
  reply: FastifyReply,
): Promise<{ user: User; tokenId: number; scope: TokenScope; prefix: string; workspaceId: number }> {
  const row = value.length <= 200 ? await findTokenByHash(deps.db, hashToken(value)) : undefined;
  const now = deps.clock.now();
  const user = row ? await findUserById(deps.db, row.user_id) : undefined;
  if (!row || !user || (row.expires_at && new Date(toIso(row.expires_at)).getTime() <= now.getTime())) {
    // An unknown token is named by nothing of its own: what was sent may be a real token mistyped.
    const expired = row && user ? row : undefined;
    await securityEvent(deps, 'token.refused', {
      user: expired ? user : null,
      message: expired
        ? `expired API token ${expired.prefix} refused`
        : 'unknown or revoked API token refused',
      details: {
        reason: expired ? 'expired' : 'unknown',
        route: deps.route,
        ...(expired ? { tokenId: expired.id, prefix: expired.prefix } : {}),
      },
    });
    throw refuse('TOKEN_INVALID', tokenMessages.invalid);
  }
  const minute = Math.floor(now.getTime() / 60_000);
  const count = await countTokenRequest(deps.db, row.id, minute);
  if (count === 1) {
    // First request of the minute: the last-use time and the old counts, once a minute at most.
    await touchToken(deps.db, row.id, now.toISOString());
    await forgetOldUsage(deps.db, row.id, minute - 1);
  }
  const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now.getTime()) / 1000));
  void reply.header('RateLimit-Limit', String(TOKEN_RATE_PER_MINUTE));
  void reply.header('RateLimit-Remaining', String(Math.max(0, TOKEN_RATE_PER_MINUTE - count)));
  void reply.header('RateLimit-Reset', String(resetSeconds));
  if (count > TOKEN_RATE_PER_MINUTE) {
    throw appError(
      'TOO_MANY_REQUESTS',
      `Too many requests with this token. Please try again in ${resetSeconds} seconds.`,
      {
        retryAfterSeconds: resetSeconds,
      },
    );
  }
  return {
    user: toUser(user),
    tokenId: row.id,
    scope: row.scope as TokenScope,
    prefix: row.prefix,
    workspaceId: row.workspace_id ?? row.user_id,
  };
}
