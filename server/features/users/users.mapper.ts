import { subscriptionTiers, type SubscriptionTier, type User } from '../../../src/auth/auth.schema.js';
import { toIso, type UserRow } from '../../db/database.js';

function tierOf(value: string): SubscriptionTier {
  return (subscriptionTiers as readonly string[]).includes(value) ? (value as SubscriptionTier) : 'free';
}

/** The only way a user row leaves the server: hash, tokens and payment ids stay behind. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    profilePicture: row.profile_picture,
    isAdmin: Boolean(row.is_admin),
    emailVerified: Boolean(row.email_verified),
    subscriptionTier: tierOf(row.subscription_tier),
    subscriptionStatus: row.subscription_status,
    subscriptionEndDate: toIso(row.subscription_end_date),
    hasUnlimitedAccess: Boolean(row.has_unlimited_access),
    createdAt: toIso(row.created_at),
  };
}
