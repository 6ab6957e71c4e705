import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { createTeam } from '../workspaces/workspaces.service.js';
import { runForwardingTurn, type ForwardingTurnOptions } from './forwarding.service.js';
import { startAnalyticsStandIn, type AnalyticsStandIn } from './stand-ins.test-helpers.js';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ADDRESS = '203.0.113.77';

let matomo: AnalyticsStandIn;
let plausible: AnalyticsStandIn;
let ga4: AnalyticsStandIn;
const config: Partial<Config> = { scansPerClientMinute: 0 };

beforeAll(async () => {
  [matomo, plausible, ga4] = await Promise.all([
    startAnalyticsStandIn('matomo'),
    startAnalyticsStandIn('plausible'),
    startAnalyticsStandIn('ga4'),
  ]);
  config.outbound = { allowedHosts: ['127.0.0.1'] };
  config.ga4CollectUrl = `${ga4.url}/mp/collect`;
});

afterAll(async () => {
  await Promise.all([matomo.close(), plausible.close(), ga4.close()]);
});

/** Tries at once (no minute-long pauses) and short time-outs: the turn is the one under test. */
const quick: Partial<ForwardingTurnOptions> = { retryDelaysMs: [0, 0], timeoutMs: 400 };

let serial = 0;
/** A domain of its own per test: the stand-ins are shared by both databases' runs. */
const domainOf = () => `site-${++serial}.example`;

describeEachDb('forwarding scans to web analytics', (getDb) => {
  const t = useTestApp(getDb, { config });

  const put = (cookie: string, body: unknown, workspace?: number) =>
    call(t().app, 'PUT', '/api/analytics-forwarding', {
      cookie,
      json: body,
      ...(workspace ? { headers: { 'x-workspace': String(workspace) } } : {}),
    });
  const get = (cookie: string, workspace?: number) =>
    call(t().app, 'GET', '/api/analytics-forwarding', {
      cookie,
      ...(workspace ? { headers: { 'x-workspace': String(workspace) } } : {}),
    });
  const scan = (slug: string | null, userAgent = PHONE, remoteAddress = ADDRESS) =>
    call(t().app, 'GET', `/r/${slug}`, { headers: { 'user-agent': userAgent }, remoteAddress });
  const turn = (app: TestApp = t(), options: Partial<ForwardingTurnOptions> = quick) =>
    runForwardingTurn(app.deps, options);

  it('a user forwards scans to a Plausible stand-in', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const domain = domainOf();
    const res = await put(cookie, { provider: 'plausible', url: plausible.url, domain, address: 'masked' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      settings: { provider: 'plausible', url: plausible.url, domain, enabled: true, address: 'masked' },
    });
    // The feed starts at the newest scan the first time it turns.
    await turn();
    const menu = await insertQrRow(t().db, { userId: user.id, name: 'Autumn menu', isDynamic: true });
    const paused = await insertQrRow(t().db, { userId: user.id, name: 'Old flyer', isDynamic: true });
    await t()
      .db.updateTable('qr_codes')
      .set({ redirect_options: JSON.stringify({ paused: true }) })
      .where('id', '=', paused.id)
      .execute();
    expect((await scan(menu.slug)).statusCode).toBe(302);
    await scan(menu.slug, BOT);
    await scan(paused.slug);

    const result = await turn();
    expect(result).toMatchObject({ handed: 3, sent: 2, failed: 0 });
    const mine = plausible.requests.filter((r) => (r.json as { domain?: string }).domain === domain);
    expect(mine).toHaveLength(2);
    for (const r of mine) expect(r.problems).toEqual([]);
    const [served, refused] = mine;
    const link = `${t().config.publicUrl}/r/${menu.slug}`;
    expect(served!.json).toEqual({
      name: 'pageview',
      url: `${link}?utm_source=qr&utm_medium=qr&utm_campaign=Autumn+menu`,
      domain,
      props: { qr_code: 'Autumn menu', device: 'Mobile', outcome: 'default' },
    });
    expect(served!.headers['user-agent']).toBe(PHONE);
    expect(served!.headers['x-forwarded-for']).toBe('203.0.113.0');
    expect(served!.headers.cookie).toBeUndefined();
    expect(refused!.json).toMatchObject({
      name: 'QR scan refused',
      props: { qr_code: 'Old flyer', outcome: 'paused' },
    });

    const settings = (await get(cookie)).json<{ settings: Record<string, unknown> }>().settings;
    expect(settings).toMatchObject({ sentCount: 2, failedCount: 0, lastError: null });
    expect(settings.lastSuccessAt).toEqual(expect.any(String));
    // Nothing is sent twice.
    expect(await turn()).toMatchObject({ handed: 0 });
    expect(plausible.requests.filter((r) => (r.json as { domain?: string }).domain === domain)).toHaveLength(
      2,
    );
  });

  it('sends Matomo bulk tracking requests, with the address and time only where token_auth allows', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const { user: bob, cookie: bobCookie } = await signedInUser(t(), 'bob');
    const siteA = 1000 + ++serial;
    const siteB = 1000 + ++serial;
    await put(cookie, {
      provider: 'matomo',
      url: matomo.url,
      siteId: siteA,
      tokenAuth: 'tok-a',
      address: 'full',
    });
    await put(bobCookie, {
      provider: 'matomo',
      url: `${matomo.url}/matomo.php`,
      siteId: siteB,
      address: 'full',
    });
    await turn();
    const a = await insertQrRow(t().db, { userId: user.id, name: 'Menu', isDynamic: true });
    const b = await insertQrRow(t().db, { userId: bob.id, name: 'Poster', isDynamic: true });
    const before = Math.floor(Date.now() / 1000);
    await scan(a.slug);
    await scan(b.slug);
    await turn();

    const bodies = matomo.requests.map((r) => ({
      r,
      json: r.json as { requests: string[]; token_auth?: string },
    }));
    const queryOf = (site: number) => {
      const found = bodies.find(({ json }) => json.requests.some((q) => q.includes(`idsite=${site}&`)));
      expect(found).toBeDefined();
      expect(found!.r.problems).toEqual([]);
      expect(found!.r.path).toBe('/matomo.php');
      return { json: found!.json, q: new URLSearchParams(found!.json.requests[0]!.slice(1)) };
    };
    const withToken = queryOf(siteA);
    expect(withToken.json.token_auth).toBe('tok-a');
    expect(Object.fromEntries(withToken.q)).toMatchObject({
      idsite: String(siteA),
      rec: '1',
      apiv: '1',
      url: `${t().config.publicUrl}/r/${a.slug}?utm_source=qr&utm_medium=qr&utm_campaign=Menu`,
      action_name: 'QR scan / Menu',
      _rcn: 'Menu',
      _rck: 'qr',
      ua: PHONE,
      cip: ADDRESS,
      send_image: '0',
    });
    expect(withToken.q.get('_id')).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(withToken.q.get('cdt'))).toBeGreaterThanOrEqual(before - 1);
    const withoutToken = queryOf(siteB);
    expect(withoutToken.json.token_auth).toBeUndefined();
    expect(withoutToken.q.has('cip')).toBe(false);
    expect(withoutToken.q.get('_rcn')).toBe('Poster');
  });

  it('sends GA4 Measurement Protocol requests of at most 25 events, with a daily client_id and no secret answered', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const measurementId = `G-TEST${++serial}`;
    const res = await put(cookie, {
      provider: 'ga4',
      measurementId,
      apiSecret: 'very-secret-value',
      address: 'none',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('very-secret-value');
    expect(res.json()).toMatchObject({ settings: { provider: 'ga4', measurementId, hasApiSecret: true } });
    // Saved again without the secret: it is kept.
    const again = await put(cookie, { provider: 'ga4', measurementId, address: 'none' });
    expect(again.json()).toMatchObject({ settings: { hasApiSecret: true } });
    expect((await get(cookie)).body).not.toContain('very-secret-value');

    await turn();
    const code = await insertQrRow(t().db, { userId: user.id, name: 'Table card', isDynamic: true });
    for (let i = 0; i < 27; i++) await scan(code.slug);
    expect(await turn()).toMatchObject({ sent: 27, failed: 0 });
    const mine = ga4.requests.filter((r) => r.query.get('measurement_id') === measurementId);
    expect(mine.map((r) => (r.json as { events: unknown[] }).events.length)).toEqual([25, 2]);
    for (const r of mine) {
      expect(r.problems).toEqual([]);
      expect(r.query.get('api_secret')).toBe('very-secret-value');
    }
    const body = mine[0]!.json as Record<string, unknown> & {
      events: { name: string; timestamp_micros: number; params: Record<string, unknown> }[];
    };
    expect(body.client_id).toMatch(/^\d+\.\d+$/);
    expect(body.ip_override).toBeUndefined();
    expect(body.device).toEqual({ category: 'mobile' });
    expect(body.events[0]).toMatchObject({
      name: 'page_view',
      params: {
        page_location: `${t().config.publicUrl}/r/${code.slug}?utm_source=qr&utm_medium=qr&utm_campaign=Table+card`,
        page_title: 'Table card',
        campaign: 'Table card',
        source: 'qr',
        medium: 'qr',
        qr_device: 'Mobile',
        qr_outcome: 'default',
      },
    });
    expect(Math.abs(body.events[0]!.timestamp_micros / 1000 - Date.now())).toBeLessThan(60_000);
    // The same visitor the next day is another client_id.
    t().clock.advance(86_400_000);
    await scan(code.slug);
    await turn();
    const later = ga4.requests.filter((r) => r.query.get('measurement_id') === measurementId).at(-1)!;
    expect((later.json as { client_id: string }).client_id).not.toBe(body.client_id);
  });

  it("sends a code's link as printed: on its short domain when it has one", async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const { cookie: admin } = await signedInUser(t(), 'root', { isAdmin: true });
    const added = await call(t().app, 'POST', '/api/admin/domains', {
      cookie: admin,
      json: { hostname: 'go.forward.test', allWorkspaces: true },
    });
    expect(added.statusCode, added.body).toBe(201);
    const domain = domainOf();
    expect((await put(cookie, { provider: 'plausible', url: plausible.url, domain })).statusCode).toBe(200);
    await turn();
    const code = await insertQrRow(t().db, { userId: user.id, name: 'Menu', isDynamic: true });
    const made = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie,
      json: { domainId: added.json<{ id: number }>().id },
    });
    expect(made.statusCode, made.body).toBe(200);
    expect((await scan(code.slug)).statusCode).toBe(302);
    expect(await turn()).toMatchObject({ sent: 1 });
    const [sent] = plausible.requests.filter((r) => (r.json as { domain?: string }).domain === domain);
    // The scheme is PUBLIC_URL's (http in the tests).
    const scheme = new URL(t().config.publicUrl).protocol;
    expect((sent!.json as { url: string }).url).toBe(
      `${scheme}//go.forward.test/${code.slug}?utm_source=qr&utm_medium=qr&utm_campaign=Menu`,
    );
  });

  it("keeps forwarding other workspaces while one's provider fails or hangs, and reports it in the settings", async () => {
    const { user: ada, cookie: adaCookie } = await signedInUser(t(), 'ada');
    const { user: bob, cookie: bobCookie } = await signedInUser(t(), 'bob');
    const { user: cara, cookie: caraCookie } = await signedInUser(t(), 'cara');
    const failing = domainOf();
    const hanging = domainOf();
    const healthy = domainOf();
    await put(adaCookie, { provider: 'plausible', url: plausible.url, domain: failing });
    await put(bobCookie, { provider: 'plausible', url: plausible.url, domain: hanging });
    await put(caraCookie, { provider: 'plausible', url: plausible.url, domain: healthy });
    plausible.respond = (req) => {
      const domain = (req.json as { domain?: string }).domain;
      if (domain === failing) return { status: 500, body: 'Internal error' };
      if (domain === hanging) return { status: 202, body: 'ok', delayMs: 2_000 };
      return { status: 202, body: 'ok' };
    };
    try {
      await turn();
      for (const owner of [ada, bob, cara]) {
        const code = await insertQrRow(t().db, { userId: owner.id, isDynamic: true });
        await scan(code.slug);
        await scan(code.slug);
      }
      const started = Date.now();
      const result = await turn();
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(result).toMatchObject({ handed: 6, sent: 2, failed: 4 });
    } finally {
      plausible.respond = null;
    }
    const to = (domain: string) =>
      plausible.requests.filter((r) => (r.json as { domain?: string }).domain === domain);
    expect(to(healthy)).toHaveLength(2);
    // Three tries of the first scan, then the provider is taken to be down for this turn.
    expect(to(failing)).toHaveLength(3);
    expect(to(hanging)).toHaveLength(3);
    expect((await get(adaCookie)).json()).toMatchObject({
      settings: {
        sentCount: 0,
        failedCount: 2,
        lastSuccessAt: null,
        lastError: { message: 'Internal error', httpStatus: 500 },
      },
    });
    expect((await get(bobCookie)).json()).toMatchObject({
      settings: { failedCount: 2, lastError: { message: 'No answer in time', httpStatus: null } },
    });
    expect((await get(caraCookie)).json()).toMatchObject({ settings: { sentCount: 2, lastError: null } });
  });

  it('sends a test event and answers what the provider said', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const test = () => call(t().app, 'POST', '/api/analytics-forwarding/test', { cookie });
    expectRestError(await test(), 404);
    const domain = domainOf();
    await put(cookie, { provider: 'plausible', url: plausible.url, domain });
    const res = await test();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, httpStatus: 202, message: 'ok' });
    const sent = plausible.requests.filter((r) => (r.json as { domain?: string }).domain === domain);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.problems).toEqual([]);
    expect(sent[0]!.headers['x-forwarded-for']).toBeUndefined();

    plausible.respond = () => ({ status: 400, body: '{"errors":{"domain":["is invalid"]}}' });
    try {
      expect((await test()).json()).toEqual({
        ok: false,
        httpStatus: 400,
        message: '{"errors":{"domain":["is invalid"]}}',
      });
    } finally {
      plausible.respond = null;
    }
    const after = (await get(cookie)).json<{ settings: { lastError: unknown; lastSuccessAt: unknown } }>();
    expect(after.settings.lastError).toMatchObject({ httpStatus: 400 });
    expect(after.settings.lastSuccessAt).toEqual(expect.any(String) as unknown);
    const removed = await call(t().app, 'DELETE', '/api/analytics-forwarding', { cookie });
    expect(removed.json()).toEqual({ success: true, message: 'Forwarding to web analytics removed' });
    expect((await get(cookie)).json()).toEqual({ settings: null });
    // Both changes are in the workspace's activity feed, without any secret.
    const activity = await t()
      .db.selectFrom('workspace_activity')
      .select(['action', 'target_label'])
      .where('workspace_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(activity.map((a) => [a.action, a.target_label])).toEqual([
      ['forwarding.updated', 'Plausible'],
      ['forwarding.removed', 'Plausible'],
    ]);
  });

  it("lets only a workspace's admins read and change it; another workspace's is out of reach", async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob, cookie: viewer } = await signedInUser(t(), 'bob');
    const { user: cara, cookie: editor } = await signedInUser(t(), 'cara');
    const { user: dan, cookie: admin } = await signedInUser(t(), 'dan');
    const { cookie: eve } = await signedInUser(t(), 'eve');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(ada),
      'Marketing',
    );
    const now = new Date().toISOString();
    await insertMember(t().db, team.id, bob.id, 'viewer', now);
    await insertMember(t().db, team.id, cara.id, 'editor', now);
    await insertMember(t().db, team.id, dan.id, 'admin', now);
    const body = { provider: 'ga4', measurementId: 'G-TEAM1234', apiSecret: 'team-secret' };
    expectRestError(await put(viewer, body, team.id), 403);
    expectRestError(await put(editor, body, team.id), 403);
    expectRestError(await get(viewer, team.id), 403);
    expectRestError(await get(editor, team.id), 403);
    expect((await put(admin, body, team.id)).statusCode).toBe(200);
    expect((await get(admin, team.id)).json()).toMatchObject({ settings: { measurementId: 'G-TEAM1234' } });
    expectRestError(await get(eve, team.id), 404);
    expectRestError(await put(eve, body, team.id), 404);
    // Eve's own workspace has none: the team's is not hers.
    expect((await get(eve)).json()).toEqual({ settings: null });
    expect((await get(admin, team.id)).body).not.toContain('team-secret');
  });

  it('refuses settings that are incomplete', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    expectRestError(await put(cookie, { provider: 'ga4', measurementId: 'G-ABCD1234' }), 400);
    expectRestError(await put(cookie, { provider: 'ga4', measurementId: 'UA-1', apiSecret: 'x' }), 400);
    expectRestError(await put(cookie, { provider: 'matomo', url: 'ftp://x', siteId: 1 }), 400);
    expectRestError(await put(cookie, { provider: 'plausible' }), 400);
    expectRestError(await put(cookie, { provider: 'other' }), 400);
  });
});
