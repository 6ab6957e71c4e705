/**
 * A user as the admin pages show them (AdminUser): the account, its plan, its number of codes and its
 * pending upgrade request. In billing, not admin, because the plan changes and upgrade decisions answer
 * with it; the admin pages read it from here.
 */
import {
  adminMessages,
  type AdminUser,
  type PaidTier,
  type UpgradeRequest,
} from '../../../src/admin/admin.schema.js';
import { toIso, type Db } from '../../db/database.js';
import { appError } from '../../errors.js';
import { toUser } from '../users/users.mapper.js';
import { findUserWithCount, type UserWithCount } from '../users/users.repository.js';
import { NO_LOCAL_PASSWORD } from '../auth/sso-sign-in.js';
import { providersOf } from '../auth/sso-identities.repository.js';
import { pendingRequestsOf } from './billing.repository.js';

type RequestRow = Awaited<ReturnType<typeof pendingRequestsOf>>[number];

export function toUpgradeRequest(r: RequestRow): UpgradeRequest {
  return {
    id: r.id,
    userId: r.user_id,
    tier: r.tier as PaidTier,
    status: r.status as UpgradeRequest['status'],
    createdAt: toIso(r.created_at),
    decidedAt: toIso(r.decided_at),
  };
}

/** How a person signs in: a local password (none for one made at a company sign-in) and each provider. */
export function signInMethodsOf(row: { password: string }, providers: string[] = []): string[] {
  return [...(row.password === NO_LOCAL_PASSWORD ? [] : ['local']), ...new Set(providers)];
}

export function toAdminUser(
  row: UserWithCount,
  request: RequestRow | undefined,
  providers: string[] = [],
): AdminUser {
  return {
    ...toUser(row),
    qrCodeCount: Number(row.qr_code_count),
    twoFactorEnabled: Boolean(row.totp_enabled),
    signInMethods: signInMethodsOf(row, providers),
    upgradeRequest: request ? toUpgradeRequest(request) : null,
  };
}

/** One user as the admin pages show them; another id is a 404. */
export async function getAdminUser(db: Db, id: number): Promise<AdminUser> {
  const row = await findUserWithCount(db, id);
  if (!row) throw appError('NOT_FOUND', adminMessages.userNotFound);
  const [request] = await pendingRequestsOf(db, [id]);
  const providers = await providersOf(db, [id]);
  return toAdminUser(row, request, providers.get(id));
}
