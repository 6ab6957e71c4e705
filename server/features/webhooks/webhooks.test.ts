import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  webhookPayloadSchemaOf,
  type WebhookDelivery,
  type WebhookPayload,
  type WebhookScanData,
  type WebhookWithSecret,
} from '../../../src/webhooks/webhook.schema.js';
import type { ImportPreview } from '../../../src/imports/import.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { BOUNDARY, multipartBody } from '../../test/upload-fixtures.js';
import { shlinkCsvOf } from '../imports/stand-ins.test-helpers.js';
import { readParsedOutbox } from '../../test/smtp-capture.js';
import {
  call,
  createTestApp,
  createTestClock,
  expectRestError,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { createTeam } from '../workspaces/workspaces.service.js';
import {
  decodeScanIds,
  encodeScanIds,
  feedPositionOf,
  GAP_WAIT_MS,
  nextScans,
  skipFeedToEnd,
  type FeedScan,
} from '../scan-feed/scan-feed.js';
import { verifyWebhook } from './webhook-signature.js';
import { storeInstanceSettings } from '../settings/instance-settings.js';
import { runDestinationChecks } from '../destination-checks/destination-checks.service.js';
import { routeScansToWebhooks, runWebhooks, sendDueDeliveries, WEBHOOK_FEED } from './webhooks.service.js';

/** A receiving server: each path answers the status the test sets; every request is kept. */
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
let receiver: http.Server;
let base: string;
const statuses = new Map<string, number>();
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const status = statuses.get(path) ?? 200;
      // As Google Apps Script answers a POST: a 302 to the script's output, fetched with a GET.
      if (status === 302) return res.writeHead(302, { location: `${path}/output` }).end();
      if (req.method === 'GET' && path.endsWith('/output')) return res.writeHead(200).end('ok');
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300 }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(() => {
  receiver.closeAllConnections();
  receiver.close();
});

let serial = 0;
/** A receiving path of its own per test (the server is shared by both databases' runs). */
function hook(status = 200) {
  serial += 1;
  const path = `/hook-${serial}`;
  statuses.set(path, status);
  return { path, url: `${base}${path}` };
}
const at = (path: string) => received.filter((r) => r.path === path);

describe('webhook signatures', () => {
  it('verify with the secret within five minutes, and not with another secret, body or time', () => {
    const body = '{"events":[]}';
    const now = 1_765_000_000;
    const header = `t=${now},v1=${createHmac('sha256', 'whsec_a').update(`${now}.${body}`).digest('hex')}`;
    expect(verifyWebhook('whsec_a', header, body, now + 299)).toBe(true);
    expect(verifyWebhook('whsec_a', header, body, now + 301)).toBe(false);
    expect(verifyWebhook('whsec_b', header, body, now)).toBe(false);
    expect(verifyWebhook('whsec_a', header, `${body} `, now)).toBe(false);
    expect(verifyWebhook('whsec_a', undefined, body, now)).toBe(false);
  });
});

describe('the scan feed', () => {
  it('names a delivery’s scans as ranges and reads them back', () => {
    expect(encodeScanIds([1, 2, 3, 4, 7, 9, 10])).toBe('1-4,7,9-10');
    expect(decodeScanIds('1-4,7,9-10')).toEqual([1, 2, 3, 4, 7, 9, 10]);
    expect(encodeScanIds([])).toBe('');
    expect(decodeScanIds('')).toEqual([]);
  });

  const scan = (id: number) => ({ id }) as FeedScan;
  const now = new Date('2026-12-09T10:00:00Z');
  it('hands on ids in a row, waits at a missing one, and passes it once waited for long enough', () => {
    const start = { lastId: 10, gapId: null, gapSince: null };
    const first = nextScans([scan(11), scan(12), scan(14), scan(15)], start, now);
    expect(first.scans.map((s) => s.id)).toEqual([11, 12]);
    expect(first.position).toEqual({ lastId: 12, gapId: 13, gapSince: now.toISOString() });
    // The missing id committed meanwhile: all go on.
    const filled = nextScans([scan(13), scan(14), scan(15)], first.position, new Date(now.getTime() + 50));
    expect(filled.scans.map((s) => s.id)).toEqual([13, 14, 15]);
    expect(filled.position).toEqual({ lastId: 15, gapId: null, gapSince: null });
    // Still missing a moment later: wait; past GAP_WAIT_MS: it will never come.
    const still = nextScans([scan(14)], first.position, new Date(now.getTime() + GAP_WAIT_MS - 1));
    expect(still.scans).toEqual([]);
    const given = nextScans([scan(14), scan(15)], first.position, new Date(now.getTime() + GAP_WAIT_MS));
    expect(given.scans.map((s) => s.id)).toEqual([14, 15]);
    expect(given.position).toEqual({ lastId: 15, gapId: null, gapSince: null });
  });
});

describeEachDb('webhooks', (getDb) => {
  const t = useTestApp(getDb, {
    clock: createTestClock(new Date('2026-12-09T10:00:00Z')),
    config: { outbound: { allowedHosts: ['127.0.0.1'] } },
  });

  async function addWebhook(cookie: string, body: object, headers: Record<string, string> = {}) {
    const res = await call(t().app, 'POST', '/api/webhooks', { cookie, json: body, headers });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<WebhookWithSecret>();
  }

  async function deliveries(cookie: string, id: number) {
    const res = await call(t().app, 'GET', `/api/webhooks/${id}/deliveries`, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: WebhookDelivery[] }>().items;
  }

  /** Scans through the real short link, as phones make them. */
  async function scanTimes(app: TestApp, slug: string, n: number) {
    for (let i = 0; i < n; i++) {
      const res = await app.app.inject({
        method: 'GET',
        url: `/r/${slug}`,
        headers: {
          'user-agent':
            'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
        },
      });
      expect(res.statusCode).toBe(302);
    }
  }

  it('sends the scans of the workspace signed, in one delivery, and logs it', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const target = hook();
    const webhook = await addWebhook(cookie, { url: target.url, description: 'CRM', events: ['scan'] });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    // The secret is shown once: never in the list or the webhook itself.
    const list = await call(t().app, 'GET', '/api/webhooks', { cookie });
    expect(list.body).not.toContain(webhook.secret);
    expect(list.json()).toMatchObject({
      items: [{ id: webhook.id, url: target.url, events: ['scan'], enabled: true, lastDelivery: null }],
    });

    const code = await insertQrRow(t().db, { userId: user.id, name: 'Menu', isDynamic: true });
    // Another workspace's scans never reach it.
    const { user: eve } = await signedInUser(t(), 'eve');
    const other = await insertQrRow(t().db, { userId: eve.id, isDynamic: true });
    // Interleaved, so the delivery names two ranges of ids (a gap where eve's scans are).
    await scanTimes(t(), code.slug!, 2);
    await scanTimes(t(), other.slug!, 2);
    await scanTimes(t(), code.slug!, 1);

    await runWebhooks(t().deps);
    const got = at(target.path);
    expect(got).toHaveLength(1);
    const request = got[0]!;
    expect(request.headers['content-type']).toBe('application/json');
    const now = Math.floor(t().clock.now().getTime() / 1000);
    expect(
      verifyWebhook(webhook.secret, request.headers['qr-creator-signature'] as string, request.body, now),
    ).toBe(true);
    expect(request.headers['qr-creator-event']).toBe('scan');
    const payload = JSON.parse(request.body) as WebhookPayload;
    // Exactly as the OpenAPI document's webhooks describe it.
    expect(webhookPayloadSchemaOf('scan').strict().safeParse(payload).success).toBe(true);
    expect(payload.events).toHaveLength(3);
    expect(payload.events.map((e) => (e.data as WebhookScanData).code.id)).toEqual([
      code.id,
      code.id,
      code.id,
    ]);
    const first = payload.events[0]!;
    expect(first).toMatchObject({ type: 'scan', workspace: { id: user.id } });
    expect(first.id).toMatch(/^scan_\d+$/);
    const data = first.data as WebhookScanData;
    expect(data.code).toEqual({
      id: code.id,
      name: 'Menu',
      shortUrl: `${t().config.publicUrl}/r/${code.slug}`,
      folderId: null,
    });
    expect(data.scan).toMatchObject({
      device: 'Mobile',
      bot: false,
      outcome: { kind: 'default', rule: null },
    });
    expect(new Set(payload.events.map((e) => e.id)).size).toBe(3);

    const log = await deliveries(cookie, webhook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      responseExcerpt: '{"ok":true}',
      eventTypes: ['scan'],
      events: 3,
    });
    expect(String(log[0]!.id)).toBe(request.headers['qr-creator-delivery']);
    // Nothing new: nothing sent again.
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(1);
  });

  it('retries a delivery the receiver refuses, with backoff, until it answers', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const target = hook(500);
    const webhook = await addWebhook(cookie, { url: target.url, events: ['scan'] });
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    await scanTimes(t(), code.slug!, 1);
    await runWebhooks(t().deps);
    let log = await deliveries(cookie, webhook.id);
    expect(log[0]).toMatchObject({ state: 'retrying', attempts: 1, responseStatus: 500 });
    expect(log[0]!.nextAttemptAt).toBe(new Date(t().clock.now().getTime() + 60_000).toISOString());
    // Not before its time.
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(1);
    t().clock.advance(61_000);
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(2);
    statuses.set(target.path, 204);
    t().clock.advance(301_000);
    await runWebhooks(t().deps);
    const attempts = at(target.path);
    expect(attempts).toHaveLength(3);
    // The same delivery each time, signed anew.
    expect(new Set(attempts.map((a) => a.headers['qr-creator-delivery'])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    log = await deliveries(cookie, webhook.id);
    expect(log[0]).toMatchObject({ state: 'succeeded', attempts: 3, responseStatus: 204 });
  });

  it('counts a receiver that answers 302 to its output (Google Apps Script) as delivered, once', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const target = hook(302);
    const webhook = await addWebhook(cookie, { url: target.url, events: ['scan'] });
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    await scanTimes(t(), code.slug!, 1);
    await runWebhooks(t().deps);
    // The signed POST, then a GET of the output without body or signature.
    expect(at(target.path).map((r) => r.body.length > 0)).toEqual([true]);
    const output = at(`${target.path}/output`);
    expect(output.map((r) => [r.body, r.headers['qr-creator-signature']])).toEqual([['', undefined]]);
    expect((await deliveries(cookie, webhook.id))[0]).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      responseStatus: 200,
    });
    t().clock.advance(3_600_000);
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(1);
  });

  it('gives up after 24 hours, disables the webhook and mails the admins once', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const target = hook(503);
    const webhook = await addWebhook(cookie, { url: target.url, events: ['scan'] });
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    await scanTimes(t(), code.slug!, 1);
    await runWebhooks(t().deps);
    for (let hour = 0; hour < 26; hour++) {
      t().clock.advance(3_600_000);
      await runWebhooks(t().deps);
    }
    const log = await deliveries(cookie, webhook.id);
    expect(log[0]).toMatchObject({ state: 'failed', nextAttemptAt: null });
    // 1 min, 5, 30, 1 h, 2, 4, 8 h… the attempts stay within the day.
    expect(at(target.path).length).toBeGreaterThanOrEqual(6);
    expect(at(target.path).length).toBeLessThanOrEqual(12);
    const res = await call(t().app, 'GET', `/api/webhooks/${webhook.id}`, { cookie });
    expect(res.json()).toMatchObject({
      enabled: false,
      disabledReason: 'Its deliveries failed for 24 hours',
    });
    const mails = await readParsedOutbox(t().outbox);
    expect(mails.map((m) => m.subject)).toEqual([`Webhook disabled: ${target.url}`]);
    // A disabled webhook gets nothing more, even new scans.
    const before = at(target.path).length;
    await scanTimes(t(), code.slug!, 1);
    t().clock.advance(3_600_000);
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(before);
    // Turned on again, it takes the next events.
    statuses.set(target.path, 200);
    const on = await call(t().app, 'PATCH', `/api/webhooks/${webhook.id}`, {
      cookie,
      json: { enabled: true },
    });
    expect(on.json()).toMatchObject({ enabled: true, disabledReason: null });
    await scanTimes(t(), code.slug!, 1);
    await runWebhooks(t().deps);
    expect(at(target.path)).toHaveLength(before + 1);
  });

  it('tells of codes created, changed and deleted, each once, to the webhooks taking them', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const target = hook();
    const onlyScans = hook();
    await addWebhook(cookie, { url: target.url, events: ['code.created', 'code.updated', 'code.deleted'] });
    await addWebhook(cookie, { url: onlyScans.url, events: ['scan'] });
    const created = await call(t().app, 'POST', '/api/qr-codes', {
      cookie,
      json: {
        name: 'Flyer',
        type: 'url',
        content: 'https://example.com/flyer',
        isDynamic: true,
        customization: {},
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const codeId = created.json<{ id: number }>().id;
    const edited = await call(t().app, 'PUT', `/api/qr-codes/${codeId}`, {
      cookie,
      json: { content: 'https://example.com/flyer-2' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call(t().app, 'DELETE', `/api/qr-codes/${codeId}`, { cookie })).statusCode).toBe(200);
    await runWebhooks(t().deps);
    const events = at(target.path).flatMap((r) => (JSON.parse(r.body) as WebhookPayload).events);
    expect(events.map((e) => e.type)).toEqual(['code.created', 'code.updated', 'code.deleted']);
    for (const r of at(target.path)) {
      const body = JSON.parse(r.body) as WebhookPayload;
      expect(webhookPayloadSchemaOf(body.events[0]!.type).safeParse(body).error).toBeUndefined();
    }
    expect(events[1]!.data).toMatchObject({
      code: { id: codeId, name: 'Flyer', content: 'https://example.com/flyer-2', dynamic: true },
    });
    expect(at(onlyScans.path)).toEqual([]);
  });

  it('tells of every code of a bulk creation, together', async () => {
    const { cookie } = await signedInUser(t(), 'ada', { subscriptionTier: 'premium' });
    const target = hook();
    await addWebhook(cookie, { url: target.url, events: ['code.created'] });
    const res = await call(t().app, 'POST', '/api/qr-codes/bulk', {
      cookie,
      json: {
        codes: [
          { name: 'Menu', type: 'url', content: 'https://example.com/menu', isDynamic: true },
          { name: 'Flyer', type: 'url', content: 'https://example.com/flyer' },
          { name: 'Notes', type: 'text', content: 'Hello' },
        ],
        customization: {},
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    await runWebhooks(t().deps);
    const got = at(target.path);
    expect(got).toHaveLength(1);
    const events = (JSON.parse(got[0]!.body) as WebhookPayload).events;
    expect(events.map((e) => [e.type, (e.data as { code: { name: string } }).code.name])).toEqual([
      ['code.created', 'Menu'],
      ['code.created', 'Flyer'],
      ['code.created', 'Notes'],
    ]);
  });

  it('tells of codes put in a folder, moved to a team, imported, and of a bulk creation the plan cut short', async () => {
    const { user: ada, cookie } = await signedInUser(t(), 'ada');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(ada),
      'Marketing',
    );
    const inTeam = { 'x-workspace': String(team.id) };
    const own = hook();
    const teams = hook();
    const events = ['code.created', 'code.updated', 'code.deleted', 'limit.reached'];
    await addWebhook(cookie, { url: own.url, events });
    await addWebhook(cookie, { url: teams.url, events }, inTeam);
    const eventsAt = (path: string) => at(path).flatMap((r) => (JSON.parse(r.body) as WebhookPayload).events);

    // A folder: the code's folderId changes, which webhooks are told of; the same folder again is no change.
    const code = await insertQrRow(t().db, { userId: ada.id, name: 'Poster', isDynamic: true });
    const folder = await call(t().app, 'POST', '/api/folders', { cookie, json: { name: 'Print' } });
    expect(folder.statusCode, folder.body).toBe(201);
    const folderId = folder.json<{ id: number }>().id;
    for (let i = 0; i < 2; i++) {
      const moved = await call(t().app, 'PATCH', `/api/qr-codes/${code.id}`, { cookie, json: { folderId } });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    // Into the team: it leaves ada's workspace and joins the team's.
    const toTeam = await call(t().app, 'POST', `/api/qr-codes/${code.id}/move-to-workspace`, {
      cookie,
      json: { workspaceId: team.id },
    });
    expect(toTeam.statusCode, toTeam.body).toBe(200);
    // An import into the team.
    const upload = await call(t().app, 'POST', '/api/imports/file', {
      cookie,
      headers: { ...inTeam, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipartBody([
        { field: 'file', filename: 'short-urls.csv', contentType: 'text/csv', data: shlinkCsvOf(2) },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const preview = upload.json<ImportPreview>();
    const imported = await call(t().app, 'POST', `/api/imports/${preview.id}/rows`, {
      cookie,
      headers: inTeam,
      json: { rows: preview.links.map((l) => ({ row: l.row, action: 'create' })) },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    // ada's own plan: one code left of two; a bulk creation of three makes one and is cut short.
    await storeInstanceSettings(t().db, { freePlanLimit: 2 }, t().clock.now());
    await insertQrRow(t().db, { userId: ada.id, name: 'Kept' });
    const bulk = await call(t().app, 'POST', '/api/qr-codes/bulk', {
      cookie,
      json: {
        codes: ['A', 'B', 'C'].map((name) => ({ name, type: 'text', content: name })),
        customization: {},
        allOrNothing: false,
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    expect(bulk.json<{ created: unknown[] }>().created).toHaveLength(1);

    await runWebhooks(t().deps);
    const mine = eventsAt(own.path);
    expect(mine.map((e) => e.type)).toEqual([
      'code.updated',
      'code.deleted',
      'code.created',
      'limit.reached',
    ]);
    expect(mine[0]!.data).toMatchObject({ code: { id: code.id, folderId } });
    expect(mine[1]!.data).toMatchObject({ code: { id: code.id }, movedTo: { workspaceId: team.id } });
    expect(mine[2]!.data).toMatchObject({ code: { name: 'A' } });
    expect(mine[3]!.data).toMatchObject({ limit: 'codes', maxCount: 2 });
    const theirs = eventsAt(teams.path);
    expect(theirs.map((e) => [e.type, (e.data as { code: { name: string } }).code.name])).toEqual([
      ['code.created', 'Poster'],
      ['code.created', 'Page 1'],
      ['code.created', 'Page 2'],
    ]);
    expect(theirs[0]!.data).toMatchObject({ code: { folderId: null }, movedFrom: { workspaceId: ada.id } });
    expect(theirs.every((e) => e.workspace.id === team.id)).toBe(true);
    for (const r of [...at(own.path), ...at(teams.path)]) {
      const body = JSON.parse(r.body) as WebhookPayload;
      expect(webhookPayloadSchemaOf(body.events[0]!.type).strict().safeParse(body).error).toBeUndefined();
    }
  });

  it('sends a test at once and redelivers a delivery as a new one', async () => {
    const { cookie } = await signedInUser(t(), 'ada');
    const target = hook();
    const webhook = await addWebhook(cookie, { url: target.url, events: ['scan'] });
    const test = await call(t().app, 'POST', `/api/webhooks/${webhook.id}/test`, { cookie });
    expect(test.statusCode, test.body).toBe(200);
    const ping = test.json<WebhookDelivery>();
    expect(ping).toMatchObject({ state: 'succeeded', eventTypes: ['ping'], responseStatus: 200 });
    expect(at(target.path)).toHaveLength(1);
    const again = await call(t().app, 'POST', `/api/webhooks/${webhook.id}/deliveries/${ping.id}/redeliver`, {
      cookie,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ state: 'succeeded', redeliveryOf: ping.id });
    const bodies = at(target.path).map((r) => r.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    // A test that fails is not retried.
    statuses.set(target.path, 500);
    const failed = await call(t().app, 'POST', `/api/webhooks/${webhook.id}/test`, { cookie });
    expect(failed.json()).toMatchObject({ state: 'failed', responseStatus: 500, nextAttemptAt: null });
  });

  it('is for admins of the workspace; another workspace gets 404; private addresses are refused', async () => {
    const { user: ada, cookie: adaCookie } = await signedInUser(t(), 'ada');
    const { user: bob, cookie: bobCookie } = await signedInUser(t(), 'bob');
    const { cookie: eveCookie } = await signedInUser(t(), 'eve');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(ada),
      'Marketing',
    );
    await insertMember(t().db, team.id, bob.id, 'editor', new Date().toISOString());
    const inTeam = { 'x-workspace': String(team.id) };
    const webhook = await addWebhook(adaCookie, { url: hook().url, events: ['scan'] }, inTeam);
    const editor = await call(t().app, 'POST', '/api/webhooks', {
      cookie: bobCookie,
      headers: inTeam,
      json: { url: hook().url, events: ['scan'] },
    });
    expectRestError(editor, 403);
    expectRestError(await call(t().app, 'GET', '/api/webhooks', { cookie: bobCookie, headers: inTeam }), 403);
    expectRestError(await call(t().app, 'GET', `/api/webhooks/${webhook.id}`, { cookie: eveCookie }), 404);
    expectRestError(await call(t().app, 'DELETE', `/api/webhooks/${webhook.id}`, { cookie: eveCookie }), 404);
    // ada's own workspace does not hold the team's webhook either.
    expectRestError(await call(t().app, 'GET', `/api/webhooks/${webhook.id}`, { cookie: adaCookie }), 404);

    const bad = await call(t().app, 'POST', '/api/webhooks', {
      cookie: adaCookie,
      json: { url: 'http://10.1.2.3/hook', events: ['scan'] },
    });
    expect(expectRestError(bad, 400).message).toBe('url: private and loopback addresses are not allowed');
    const noEvents = await call(t().app, 'POST', '/api/webhooks', {
      cookie: adaCookie,
      json: { url: 'https://hooks.example.com/x', events: [] },
    });
    expect(expectRestError(noEvents, 400).message).toContain('events');
    const ftp = await call(t().app, 'POST', '/api/webhooks', {
      cookie: adaCookie,
      json: { url: 'ftp://hooks.example.com/x', events: ['scan'] },
    });
    expect(expectRestError(ftp, 400).message).toContain('url');
  });

  it('tells of a destination gone down and of the plan refusing a code (once a day)', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const target = hook();
    await addWebhook(cookie, { url: target.url, events: ['destination.down', 'limit.reached'] });
    const gone = hook(404);
    await insertQrRow(t().db, { userId: user.id, name: 'Menu', isDynamic: true, content: gone.url });
    const fast = { batch: 50, hostGapMs: 0, timeoutMs: 3000, lanes: 4, leaseMs: 600_000, syncEveryMs: 0 };
    await runDestinationChecks(t().deps, fast);
    t().clock.advance(86_400_000 + 60_000);
    await runDestinationChecks(t().deps, fast);
    // The plan's limit: the free plan's codes filled, two creations refused, one event.
    await storeInstanceSettings(t().db, { freePlanLimit: 1 }, t().clock.now());
    const body = {
      name: 'One more',
      type: 'url',
      content: 'https://example.com/x',
      isDynamic: false,
      customization: {},
    };
    for (let i = 0; i < 2; i++) {
      const res = await call(t().app, 'POST', '/api/qr-codes', { cookie, json: body });
      expect(res.statusCode, res.body).toBe(403);
    }
    await runWebhooks(t().deps);
    const events = at(target.path).flatMap((r) => (JSON.parse(r.body) as WebhookPayload).events);
    expect(events.map((e) => e.type)).toEqual(['destination.down', 'limit.reached']);
    expect(events[0]!.data).toMatchObject({
      code: { name: 'Menu' },
      url: gone.url,
      label: 'Destination',
      problem: 'Opens a 404',
      httpStatus: 404,
    });
    expect(events[1]!.data).toMatchObject({ limit: 'codes', maxCount: 1 });
  });

  it('moves past scans no webhook takes without reading them', async () => {
    const { user } = await signedInUser(t(), 'ada');
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    await scanTimes(t(), code.slug!, 4);
    expect(await routeScansToWebhooks(t().deps)).toBe(0);
    const last = await t()
      .db.selectFrom('qr_scans')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    expect((await feedPositionOf(t().db, WEBHOOK_FEED))?.lastId).toBe(Number(last?.id));

    // With no scan since, a run writes nothing (no lease taken: the row keeps what was put in it).
    const claimedBy = () =>
      t()
        .db.selectFrom('scan_feed_cursors')
        .select('claimed_by')
        .where('name', '=', WEBHOOK_FEED)
        .executeTakeFirstOrThrow();
    await t().db.updateTable('scan_feed_cursors').set({ claimed_by: 'untouched' }).execute();
    expect(await routeScansToWebhooks(t().deps)).toBe(0);
    expect(await claimedBy()).toEqual({ claimed_by: 'untouched' });
    // A new scan: the next run claims the feed and moves it.
    await scanTimes(t(), code.slug!, 1);
    expect(await routeScansToWebhooks(t().deps)).toBe(0);
    expect((await claimedBy()).claimed_by).not.toBe('untouched');
    expect((await feedPositionOf(t().db, WEBHOOK_FEED))?.lastId).toBe(Number(last?.id) + 1);
  });

  it('never skips a scan stored after a webhook was added while a run found none', async () => {
    const { user, cookie } = await signedInUser(t(), 'ada');
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
    await scanTimes(t(), code.slug!, 2);
    const target = hook();
    // The run found no webhook taking scans; meanwhile one is added and a scan stored, before it moves on.
    const skipped = await skipFeedToEnd(t().db, WEBHOOK_FEED, 'racing', t().clock.now(), async () => {
      await addWebhook(cookie, { url: target.url, events: ['scan'] });
      await scanTimes(t(), code.slug!, 1);
      return true;
    });
    expect(skipped).toBe(true);
    await runWebhooks(t().deps);
    const events = at(target.path).flatMap((r) => (JSON.parse(r.body) as WebhookPayload).events);
    expect(events).toHaveLength(1);
  });
});

describeEachDb('webhooks on two instances', (getDb) => {
  it('deliver every scan exactly once when both run at the same time', async () => {
    const clock = createTestClock(new Date('2026-12-09T10:00:00Z'));
    const options = { clock, config: { outbound: { allowedHosts: ['127.0.0.1'] } } };
    const one = await createTestApp(getDb(), options);
    const two = await createTestApp(getDb(), options);
    try {
      const { user, cookie } = await signedInUser(one, 'ada');
      const target = hook();
      const res = await call(one.app, 'POST', '/api/webhooks', {
        cookie,
        json: { url: target.url, events: ['scan'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      const code = await insertQrRow(one.db, { userId: user.id, isDynamic: true });
      for (let round = 0; round < 5; round++) {
        // Scans through both instances, then both run the job at once.
        for (const app of [one, two])
          for (let i = 0; i < 4; i++)
            expect((await app.app.inject({ method: 'GET', url: `/r/${code.slug}` })).statusCode).toBe(302);
        await Promise.all([runWebhooks(one.deps), runWebhooks(two.deps), sendDueDeliveries(two.deps)]);
      }
      await Promise.all([runWebhooks(one.deps), runWebhooks(two.deps)]);
      const ids = at(target.path).flatMap((r) =>
        (JSON.parse(r.body) as WebhookPayload).events.map((e) => e.id),
      );
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      const deliveryIds = at(target.path).map((r) => r.headers['qr-creator-delivery']);
      expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
