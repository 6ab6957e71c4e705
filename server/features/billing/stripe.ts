import type Stripe from 'stripe';
import { lazyRequire } from '../../lazy-require.js';
import type { PaidTier } from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AppDeps, RequestDeps } from '../../app-deps.js';
import type { StripeConfig } from '../../config.js';
import { toIso, type Db, type UserUpdate } from '../../db/database.js';
import { appError } from '../../errors.js';
import { securityEvent } from '../../security-log.js';
import {
  findUserById,
  findUserIdByStripeSubscription,
  updateUserColumns,
} from '../users/users.repository.js';
import {
  claimSubscriptionEvent,
  recordStripeEvent,
  type SubscriptionEventOrder,
  wasStripeEventApplied,
} from './billing.repository.js';

/**
 * Payments through Stripe, when STRIPE_SECRET_KEY is set: a Checkout session per upgrade, and a signed
 * webhook that sets the user's plan from Stripe's own events (checkout completed, subscription updated or
 * deleted). Each event is applied once: its id is stored with the change, in one transaction. Stripe
 * does not deliver in order, so events about a subscription apply only when newer than the last one
 * applied to it (`orderOf`): a late, older `updated` never brings back a deleted subscription.
 */

const loadStripe = lazyRequire<typeof Stripe>('stripe');
const clients = new WeakMap<StripeConfig, Stripe>();

function stripeOf(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    const api = config.apiUrl ? new URL(config.apiUrl) : undefined;
    const StripeClient = loadStripe();
    client = new StripeClient(config.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      ...(api
        ? {
            host: api.hostname,
            port: api.port || (api.protocol === 'https:' ? 443 : 80),
            protocol: api.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
    clients.set(config, client);
  }
  return client;
}

function stripeConfig(deps: Pick<AppDeps, 'config'>): StripeConfig {
  if (!deps.config.stripe)
    throw appError('BAD_REQUEST', 'Payments through Stripe are not set up on this server');
  return deps.config.stripe;
}

/** Stripe's failures in words a user can act on (a 502: the fault is upstream). */
function upstream(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  throw appError('BAD_GATEWAY', `Stripe refused the request: ${message}`);
}

/** A Checkout session for Pro or Premium; the answer's url is Stripe's payment page. */
export async function createCheckout(deps: AppDeps, user: User, tier: PaidTier): Promise<{ url: string }> {
  const config = stripeConfig(deps);
  const row = await findUserById(deps.db, user.id);
  const base = deps.config.publicUrl;
  try {
    const session = await stripeOf(config).checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: config.prices[tier], quantity: 1 }],
      success_url: `${base}/upgrade?checkout=success`,
      cancel_url: `${base}/upgrade?checkout=canceled`,
      client_reference_id: String(user.id),
      ...(row?.stripe_customer_id
        ? { customer: row.stripe_customer_id }
        : user.email
          ? { customer_email: user.email }
          : {}),
      metadata: { userId: String(user.id), tier },
      subscription_data: { metadata: { userId: String(user.id), tier } },
    });
    if (!session.url) throw new Error('no payment page in the answer');
    return { url: session.url };
  } catch (error) {
    return upstream(error);
  }
}

/** Cancels the user's Stripe subscription (now, or at period end), if they have one and Stripe is on. */
export async function cancelStripeSubscription(
  deps: AppDeps,
  userId: number,
  immediate: boolean,
): Promise<void> {
  if (!deps.config.stripe) return;
  const row = await findUserById(deps.db, userId);
  const id = row?.stripe_subscription_id;
  if (!id) return;
  try {
    const stripe = stripeOf(deps.config.stripe);
    if (immediate) await stripe.subscriptions.cancel(id);
    else await stripe.subscriptions.update(id, { cancel_at_period_end: true });
  } catch (error) {
    upstream(error);
  }
}

function tierOf(config: StripeConfig, subscription: Stripe.Subscription): PaidTier | undefined {
  const price = subscription.items.data[0]?.price.id;
  if (price === config.prices.pro) return 'pro';
  if (price === config.prices.premium) return 'premium';
  const tier = subscription.metadata?.tier;
  return tier === 'pro' || tier === 'premium' ? tier : undefined;
}

function periodEndOf(subscription: Stripe.Subscription): string | null {
  const end = subscription.items.data[0]?.current_period_end;
  return end ? new Date(end * 1000).toISOString() : null;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** The plan a Stripe subscription gives, as user columns. */
function planOf(config: StripeConfig, subscription: Stripe.Subscription): UserUpdate {
  const live =
    subscription.status === 'active' ||
    subscription.status === 'trialing' ||
    subscription.status === 'past_due';
  const tier = tierOf(config, subscription);
  if (!live || !tier) {
    return {
      subscription_tier: 'free',
      subscription_status: 'canceled',
      subscription_end_date: periodEndOf(subscription),
    };
  }
  return {
    subscription_tier: tier,
    // Canceled at period end: the tier holds until the end date, as an admin's cancellation does.
    subscription_status: subscription.cancel_at_period_end || subscription.cancel_at ? 'canceled' : 'active',
    subscription_end_date: periodEndOf(subscription),
    stripe_subscription_id: subscription.id,
    stripe_customer_id: idOf(subscription.customer),
  };
}

/** The user an event is about and the change it makes, or nothing for an event we do not act on. */
async function changeOf(
  deps: AppDeps,
  config: StripeConfig,
  event: Stripe.Event,
): Promise<{ userId: number; set: UserUpdate } | undefined> {
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    const userId = Number(session.client_reference_id ?? session.metadata?.userId);
    const subscriptionId = idOf(session.subscription);
    if (!Number.isInteger(userId) || !subscriptionId) return undefined;
    const subscription = await stripeOf(config).subscriptions.retrieve(subscriptionId);
    return { userId, set: planOf(config, subscription) };
  }
  if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  ) {
    const subscription = event.data.object;
    const userId =
      (await findUserIdByStripeSubscription(deps.db, subscription.id)) ??
      Number(subscription.metadata?.userId);
    if (!Number.isInteger(userId)) return undefined;
    if (event.type === 'customer.subscription.deleted') {
      return {
        userId,
        set: {
          subscription_tier: 'free',
          subscription_status: 'canceled',
          subscription_end_date: new Date((subscription.ended_at ?? event.created) * 1000).toISOString(),
        },
      };
    }
    return { userId, set: planOf(config, subscription) };
  }
  return undefined;
}

/**
 * Among events of the same second, the later step of a subscription's life wins: its creation (or the
 * checkout that made it), then an update, then its deletion, so a deletion is never undone by an update
 * of its own second. Events of the same second and rank apply in the order they arrive: Stripe gives
 * nothing finer to order them by, and dropping the second of two same-second updates would lose a real
 * change as surely as applying a stale one.
 */
const ranks: Partial<Record<Stripe.Event.Type, number>> = {
  'checkout.session.completed': 0,
  'customer.subscription.created': 0,
  'customer.subscription.updated': 1,
  'customer.subscription.deleted': 2,
};

/** The subscription an event is about and its place in that subscription's order; undefined for others. */
function orderOf(event: Stripe.Event): SubscriptionEventOrder | undefined {
  const rank = ranks[event.type];
  let subscriptionId: string | null = null;
  if (event.type === 'checkout.session.completed') subscriptionId = idOf(event.data.object.subscription);
  else if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  )
    subscriptionId = event.data.object.id;
  if (rank === undefined || !subscriptionId) return undefined;
  return { subscriptionId, eventId: event.id, type: event.type, created: event.created, rank };
}

/**
 * A change that takes the plan away, about a subscription the user has since left for another (a late
 * deletion of the old one after a new checkout): it is not that subscription's plan any more.
 */
async function isAboutFormerSubscription(
  db: Db,
  change: { userId: number; set: UserUpdate },
  subscriptionId: string,
): Promise<boolean> {
  if (change.set.subscription_tier !== 'free') return false;
  const current = (await findUserById(db, change.userId))?.stripe_subscription_id;
  return !!current && current !== subscriptionId;
}

/**
 * POST /api/stripe/webhook. The signature is checked on the exact bytes received (400 if it does not
 * match); an event already applied, or older than the last one applied to its subscription, is
 * acknowledged and changes nothing.
 */
export async function handleStripeWebhook(
  deps: RequestDeps,
  raw: Buffer,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean }> {
  const config = stripeConfig(deps);
  let event: Stripe.Event;
  try {
    event = stripeOf(config).webhooks.constructEvent(raw, signature ?? '', config.webhookSecret);
  } catch {
    throw appError('BAD_REQUEST', 'Invalid Stripe signature');
  }
  if (await wasStripeEventApplied(deps.db, event.id)) return { received: true, duplicate: true };
  const change = await changeOf(deps, config, event).catch(upstream);
  const order = orderOf(event);
  const at = deps.clock.now().toISOString();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    if (!(await recordStripeEvent(trx, event.id, event.type, at))) return 'duplicate';
    // Older than what this subscription already shows: acknowledged (Stripe stops sending it), no change.
    if (order && !(await claimSubscriptionEvent(trx, order, at))) return 'stale';
    if (!change) return 'ignored';
    if (order && (await isAboutFormerSubscription(trx, change, order.subscriptionId))) return 'stale';
    await updateUserColumns(trx, change.userId, change.set);
    return 'applied';
  });
  if (outcome === 'applied' && change) await logStripePlanChange(deps, event, change);
  return { received: true, duplicate: outcome === 'duplicate' };
}

/** A plan Stripe changed: `plan.changed`, audited with the user as its actor (they paid or stopped). */
async function logStripePlanChange(
  deps: RequestDeps,
  event: Stripe.Event,
  change: { userId: number; set: UserUpdate },
): Promise<void> {
  const user = await findUserById(deps.db, change.userId);
  if (!user) return;
  await securityEvent(deps, 'plan.changed', {
    user,
    message: `plan of ${user.username} set to ${user.subscription_tier} (${user.subscription_status ?? 'no status'}) by Stripe (${event.type})`,
    details: {
      action: `stripe.${event.type}`,
      tier: user.subscription_tier,
      status: user.subscription_status,
      endDate: user.subscription_end_date === null ? null : toIso(user.subscription_end_date),
      stripeEvent: event.id,
    },
  });
}
