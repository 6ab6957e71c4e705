import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StripeConfig } from '../../config.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

/**
 * Stripe offline: the official client talks to a small local server standing in for the Stripe endpoints
 * we call, and webhook events are signed with the library's own test-header helper.
 */
interface Seen {
  method: string;
  path: string;
  body: string;
}

const PERIOD_END = Math.floor(Date.UTC(2030, 0, 31) / 1000);
const stand = { seen: [] as Seen[], server: undefined as http.Server | undefined, url: '' };

function subscription(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    object: 'subscription',
    status: 'active',
    customer: 'cus_42',
    cancel_at_period_end: false,
    cancel_at: null,
    ended_at: null,
    metadata: {},
    items: {
      object: 'list',
      data: [{ id: 'si_1', current_period_end: PERIOD_END, price: { id: 'price_premium' } }],
    },
    ...overrides,
  };
}

beforeAll(async () => {
  stand.server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      stand.seen.push({ method: req.method ?? '', path: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      const path = req.url ?? '';
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        res.end(
          JSON.stringify({
            id: 'cs_1',
            object: 'checkout.session',
            url: 'https://checkout.stripe.test/pay/cs_1',
          }),
        );
      } else if (path.startsWith('/v1/subscriptions/')) {
        const id = path.split('/')[3]!.split('?')[0]!;
        res.end(JSON.stringify(subscription(id, req.method === 'DELETE' ? { status: 'canceled' } : {})));
      } else {
        res.statusCode = 404;
        res.end(
          JSON.stringify({
            error: { message: `no stand-in for ${req.method} ${path}`, type: 'invalid_request_error' },
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => stand.server!.listen(0, '127.0.0.1', resolve));
  stand.url = `http://127.0.0.1:${(stand.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => stand.server?.close(resolve));
});

const stripeConfig = (): StripeConfig => ({
  secretKey: 'sk_test_offline',
  webhookSecret: 'whsec_offline_secret',
  prices: { pro: 'price_pro', premium: 'price_premium' },
  apiUrl: stand.url,
});

const signer = new Stripe('sk_test_offline');

function post(t: TestApp, event: Record<string, unknown>, secret = 'whsec_offline_secret') {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  return call(t.app, 'POST', '/api/stripe/webhook', {
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

function event(
  id: string,
  type: string,
  object: Record<string, unknown>,
  created = Math.floor(Date.now() / 1000),
) {
  return { id, object: 'event', type, created, data: { object } };
}

async function planOf(t: TestApp, id: number) {
  return t.db
    .selectFrom('users')
    .select([
      'subscription_tier',
      'subscription_status',
      'subscription_end_date',
      'stripe_customer_id',
      'stripe_subscription_id',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describeEachDb('Stripe checkout and webhook', (getDb) => {
  // A getter: the stand-in's port is known only once beforeAll ran.
  const t = useTestApp(getDb, {
    get config() {
      return { stripe: stripeConfig() };
    },
  });

  it('starts a Checkout session for the chosen tier and answers its payment page', async () => {
    stand.seen = [];
    const { user, cookie } = await signedInUser(t(), 'ada');
    const res = await call(t().app, 'POST', '/api/billing/checkout', { cookie, json: { tier: 'premium' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: 'https://checkout.stripe.test/pay/cs_1' });
    const sent = new URLSearchParams(stand.seen[0]!.body);
    expect(sent.get('mode')).toBe('subscription');
    expect(sent.get('line_items[0][price]')).toBe('price_premium');
    expect(sent.get('client_reference_id')).toBe(String(user.id));
    expect(sent.get('success_url')).toBe(`${t().config.publicUrl}/upgrade?checkout=success`);
    const status = await call(t().app, 'GET', '/api/billing/status', { cookie });
    expect(status.json()).toMatchObject({ payments: 'stripe', tier: 'free' });
    const request = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie,
      json: { tier: 'pro' },
    });
    expect(expectRestError(request, 400).message).toMatch(/Stripe/);
  });

  it('sets the plan from a signed checkout.session.completed, once, even when the event is replayed', async () => {
    const { user } = await signedInUser(t(), 'ada');
    const completed = event('evt_checkout_1', 'checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      client_reference_id: String(user.id),
      customer: 'cus_42',
      subscription: 'sub_42',
      metadata: { userId: String(user.id), tier: 'premium' },
    });
    const first = await post(t(), completed);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await planOf(t(), user.id)).toMatchObject({
      subscription_tier: 'premium',
      subscription_status: 'active',
      stripe_customer_id: 'cus_42',
      stripe_subscription_id: 'sub_42',
    });
    expect(new Date(String((await planOf(t(), user.id)).subscription_end_date)).getTime()).toBe(
      PERIOD_END * 1000,
    );

    // An admin moves the user meanwhile; the replayed event must not undo it.
    await t().db.updateTable('users').set({ subscription_tier: 'pro' }).where('id', '=', user.id).execute();
    const again = await post(t(), completed);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect((await planOf(t(), user.id)).subscription_tier).toBe('pro');
  });

  it('follows cancellations and renewals from Stripe', async () => {
    const { user } = await signedInUser(t(), 'ada');
    await t()
      .db.updateTable('users')
      .set({ subscription_tier: 'premium', subscription_status: 'active', stripe_subscription_id: 'sub_7' })
      .where('id', '=', user.id)
      .execute();
    const atPeriodEnd = await post(
      t(),
      event(
        'evt_upd_1',
        'customer.subscription.updated',
        subscription('sub_7', { cancel_at_period_end: true }),
      ),
    );
    expect(atPeriodEnd.statusCode).toBe(200);
    expect(await planOf(t(), user.id)).toMatchObject({
      subscription_tier: 'premium',
      subscription_status: 'canceled',
    });
    const renewed = subscription('sub_7', {
      items: {
        object: 'list',
        data: [{ id: 'si_1', current_period_end: PERIOD_END + 86_400 * 30, price: { id: 'price_pro' } }],
      },
    });
    await post(t(), event('evt_upd_2', 'customer.subscription.updated', renewed));
    const plan = await planOf(t(), user.id);
    expect(plan).toMatchObject({ subscription_tier: 'pro', subscription_status: 'active' });
    expect(new Date(String(plan.subscription_end_date)).getTime()).toBe((PERIOD_END + 86_400 * 30) * 1000);
    await post(
      t(),
      event(
        'evt_del_1',
        'customer.subscription.deleted',
        subscription('sub_7', { status: 'canceled', ended_at: PERIOD_END }),
      ),
    );
    expect(await planOf(t(), user.id)).toMatchObject({
      subscription_tier: 'free',
      subscription_status: 'canceled',
    });
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { user } = await signedInUser(t(), 'ada');
    const forged = event('evt_forged', 'checkout.session.completed', {
      id: 'cs_9',
      object: 'checkout.session',
      client_reference_id: String(user.id),
      subscription: 'sub_9',
    });
    const res = await post(t(), forged, 'whsec_someone_else');
    expect(expectRestError(res, 400).message).toBe('Invalid Stripe signature');
    const unsigned = await call(t().app, 'POST', '/api/stripe/webhook', { json: forged });
    expect(expectRestError(unsigned, 400).message).toBe('Invalid Stripe signature');
    expect((await planOf(t(), user.id)).subscription_tier).toBe('free');
    expect(await t().db.selectFrom('stripe_events').select('id').execute()).toEqual([]);
  });

  it('cancels at Stripe too when an admin cancels a Stripe subscription', async () => {
    stand.seen = [];
    const { cookie } = await signedInUser(t(), 'root', { isAdmin: true });
    const { user } = await signedInUser(t(), 'ada', { subscriptionTier: 'pro' });
    await t()
      .db.updateTable('users')
      .set({ stripe_subscription_id: 'sub_5' })
      .where('id', '=', user.id)
      .execute();
    const res = await call(t().app, 'POST', `/api/admin/users/${user.id}/subscription/cancel`, {
      cookie,
      json: { immediate: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(stand.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/subscriptions/sub_5']);
    expect(new URLSearchParams(stand.seen[0]!.body).get('cancel_at_period_end')).toBe('true');
  });
});

/** Stripe's `created` of the events below, Unix seconds: T, T + 1, … */
const T = Math.floor(Date.UTC(2026, 10, 27, 9) / 1000);

describeEachDb('Stripe events out of order change nothing', (getDb) => {
  const t = useTestApp(getDb, {
    get config() {
      return { stripe: stripeConfig() };
    },
  });

  /** A Premium user paying through the Stripe subscription `subscriptionId`. */
  async function subscriber(username: string, subscriptionId: string) {
    const { user, cookie } = await signedInUser(t(), username, { subscriptionTier: 'premium' });
    await t()
      .db.updateTable('users')
      .set({ stripe_subscription_id: subscriptionId, stripe_customer_id: 'cus_42' })
      .where('id', '=', user.id)
      .execute();
    return { user, cookie };
  }

  /** The plan as the user sees it on GET /api/billing/status. */
  async function statusOf(cookie: string) {
    const res = await call(t().app, 'GET', '/api/billing/status', { cookie });
    expect(res.statusCode, res.body).toBe(200);
    const { tier, effectiveTier, status } = res.json<{
      tier: string;
      effectiveTier: string;
      status: string;
    }>();
    return { tier, effectiveTier, status };
  }

  async function send(e: Record<string, unknown>) {
    const res = await post(t(), e);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ received: boolean; duplicate: boolean }>();
  }

  const updated = (id: string, subscriptionId: string, created: number, overrides = {}) =>
    event(id, 'customer.subscription.updated', subscription(subscriptionId, overrides), created);
  const deleted = (id: string, subscriptionId: string, created: number) =>
    event(
      id,
      'customer.subscription.deleted',
      subscription(subscriptionId, { status: 'canceled', ended_at: created }),
      created,
    );
  const completed = (id: string, userId: number, subscriptionId: string, created: number) =>
    event(
      id,
      'checkout.session.completed',
      {
        id: `cs_${id}`,
        object: 'checkout.session',
        client_reference_id: String(userId),
        customer: 'cus_42',
        subscription: subscriptionId,
        metadata: { userId: String(userId), tier: 'premium' },
      },
      created,
    );

  const free = { tier: 'free', effectiveTier: 'free', status: 'canceled' };
  const premium = { tier: 'premium', effectiveTier: 'premium', status: 'active' };

  it('an updated older than an applied deleted leaves the user on free', async () => {
    const { cookie } = await subscriber('ada', 'sub_1');
    await send(deleted('evt_del', 'sub_1', T + 10));
    expect(await statusOf(cookie)).toEqual(free);
    // Acknowledged (Stripe must stop retrying it), not a replay, and it changes nothing.
    expect(await send(updated('evt_upd', 'sub_1', T))).toEqual({ received: true, duplicate: false });
    expect(await statusOf(cookie)).toEqual(free);
    // Its replay is a duplicate like any other.
    expect(await send(updated('evt_upd', 'sub_1', T))).toEqual({ received: true, duplicate: true });
    expect(await statusOf(cookie)).toEqual(free);
  });

  it('both orders of an updated and a newer deleted end on free', async () => {
    const inOrder = await subscriber('ada', 'sub_a');
    await send(updated('evt_a_upd', 'sub_a', T));
    expect(await statusOf(inOrder.cookie)).toEqual(premium);
    await send(deleted('evt_a_del', 'sub_a', T + 10));

    const reversed = await subscriber('bob', 'sub_b');
    await send(deleted('evt_b_del', 'sub_b', T + 10));
    await send(updated('evt_b_upd', 'sub_b', T));

    expect(await statusOf(inOrder.cookie)).toEqual(free);
    expect(await statusOf(reversed.cookie)).toEqual(free);
  });

  it('an updated newer than the deletion is applied: a re-subscription Stripe sends later', async () => {
    const { cookie } = await subscriber('ada', 'sub_1');
    await send(deleted('evt_del', 'sub_1', T));
    expect(await statusOf(cookie)).toEqual(free);
    await send(updated('evt_upd', 'sub_1', T + 60));
    expect(await statusOf(cookie)).toEqual(premium);
  });

  it('in the same second a deletion wins over an update, in either order', async () => {
    const inOrder = await subscriber('ada', 'sub_a');
    await send(updated('evt_a_upd', 'sub_a', T));
    await send(deleted('evt_a_del', 'sub_a', T));
    const reversed = await subscriber('bob', 'sub_b');
    await send(deleted('evt_b_del', 'sub_b', T));
    await send(updated('evt_b_upd', 'sub_b', T));
    expect(await statusOf(inOrder.cookie)).toEqual(free);
    expect(await statusOf(reversed.cookie)).toEqual(free);
  });

  it('two updates of the same second apply in the order they arrive', async () => {
    const { cookie } = await subscriber('ada', 'sub_1');
    await send(updated('evt_upd_1', 'sub_1', T, { cancel_at_period_end: true }));
    expect(await statusOf(cookie)).toEqual({ ...premium, status: 'canceled' });
    await send(updated('evt_upd_2', 'sub_1', T));
    expect(await statusOf(cookie)).toEqual(premium);
  });

  it('a checkout.session.completed older than the deletion of its subscription does not bring it back', async () => {
    // Stripe's stand-in still answers the subscription as active: only the order keeps the user on free.
    const late = await signedInUser(t(), 'ada');
    await send(deleted('evt_a_del', 'sub_a', T + 10));
    await send(completed('evt_a_done', late.user.id, 'sub_a', T));
    expect(await statusOf(late.cookie)).toEqual({ ...free, status: null });

    const inOrder = await signedInUser(t(), 'bob');
    await send(completed('evt_b_done', inOrder.user.id, 'sub_b', T));
    expect(await statusOf(inOrder.cookie)).toEqual(premium);
    await send(deleted('evt_b_del', 'sub_b', T + 10));
    expect(await statusOf(inOrder.cookie)).toEqual(free);
  });

  it("a late deletion of a user's former subscription leaves their new one alone", async () => {
    const { user, cookie } = await subscriber('ada', 'sub_old');
    await send(completed('evt_new_done', user.id, 'sub_new', T + 10));
    expect(await statusOf(cookie)).toEqual(premium);
    const old = subscription('sub_old', {
      status: 'canceled',
      ended_at: T,
      metadata: { userId: String(user.id) },
    });
    await send(event('evt_old_del', 'customer.subscription.deleted', old, T));
    expect(await statusOf(cookie)).toEqual(premium);
    expect((await planOf(t(), user.id)).stripe_subscription_id).toBe('sub_new');
  });
});

describeEachDb('upgrade without Stripe', (getDb) => {
  const t = useTestApp(getDb);

  it('stores a request, tells the admins, and an approval upgrades the user and tells them', async () => {
    const { cookie: adminCookie } = await signedInUser(t(), 'root', { isAdmin: true });
    await t()
      .db.updateTable('users')
      .set({ email: 'root@example.com' })
      .where('username', '=', 'root')
      .execute();
    const { user, cookie } = await signedInUser(t(), 'ada');
    await t().db.updateTable('users').set({ email: 'ada@example.com' }).where('id', '=', user.id).execute();

    expect(
      expectRestError(
        await call(t().app, 'POST', '/api/billing/checkout', { cookie, json: { tier: 'pro' } }),
        400,
      ).message,
    ).toMatch(/Stripe/);
    const res = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie,
      json: { tier: 'pro' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const requestId = res.json<{ request: { id: number } }>().request.id;
    const twice = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie,
      json: { tier: 'premium' },
    });
    expect(expectRestError(twice, 409).message).toBe('An upgrade request is already waiting for an admin');

    const listed = await call(t().app, 'GET', '/api/admin/subscriptions?filter=requests', {
      cookie: adminCookie,
    });
    expect(listed.json()).toMatchObject([
      { username: 'ada', upgradeRequest: { id: requestId, tier: 'pro', status: 'pending' } },
    ]);

    const approve = await call(t().app, 'POST', `/api/admin/upgrade-requests/${requestId}`, {
      cookie: adminCookie,
      json: { approve: true, duration: 60 },
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const status = await call(t().app, 'GET', '/api/billing/status', { cookie });
    expect(status.json()).toMatchObject({
      tier: 'pro',
      effectiveTier: 'pro',
      maxCount: 100,
      pendingRequest: null,
      payments: 'request',
    });
    const decidedAgain = await call(t().app, 'POST', `/api/admin/upgrade-requests/${requestId}`, {
      cookie: adminCookie,
      json: { approve: false },
    });
    expect(expectRestError(decidedAgain, 409).message).toBe('This request was already decided');

    // Mail goes out in the background: wait for both.
    let subjects: string[] = [];
    for (let i = 0; i < 50 && subjects.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      subjects = (
        await t().db.selectFrom('mail_log').select(['recipient', 'subject']).orderBy('id').execute()
      ).map((m) => `${m.recipient}: ${m.subject}`);
    }
    expect(subjects.sort()).toEqual([
      'ada@example.com: You are on Pro now',
      'root@example.com: Upgrade request from Inserted User (ada): Pro',
    ]);
  });

  it('a declined request leaves the plan as it was', async () => {
    const { cookie: adminCookie } = await signedInUser(t(), 'root', { isAdmin: true });
    const { cookie } = await signedInUser(t(), 'ada');
    const res = await call(t().app, 'POST', '/api/billing/upgrade-request', {
      cookie,
      json: { tier: 'premium' },
    });
    const requestId = res.json<{ request: { id: number } }>().request.id;
    const decline = await call(t().app, 'POST', `/api/admin/upgrade-requests/${requestId}`, {
      cookie: adminCookie,
      json: { approve: false },
    });
    expect(decline.json()).toMatchObject({
      message: 'Request of ada declined',
      user: { subscriptionTier: 'free' },
    });
    expect((await call(t().app, 'GET', '/api/billing/status', { cookie })).json()).toMatchObject({
      tier: 'free',
      pendingRequest: null,
    });
    // The user is told; the mail goes out in the background, so wait for it.
    await expect
      .poll(async () =>
        (await t().db.selectFrom('mail_log').select('subject').execute()).map((m) => m.subject),
      )
      .toContain('Your request for Premium was declined');
  });
});
