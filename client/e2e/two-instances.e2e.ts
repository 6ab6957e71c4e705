import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl } from '../../server/test/test-db';
import { makePng } from '../../server/test/upload-fixtures';
import { startServer, type RunningServer } from './harness';

/**
 * Two real server processes on one PostgreSQL database, started at the same moment, as two instances
 * behind a balancer: whatever one does, the other sees. Not a browser test, but it needs the built
 * server (this project's global setup builds it).
 */

const testUrl = process.env.TEST_DATABASE_URL?.trim();
const PUBLIC_URL = 'http://qr.test';
const DAY = 86_400_000;
const QUARTER = 15 * 60_000;

interface Instance {
  server: RunningServer;
  url: string;
}

/** One call to an instance, as a browser of PUBLIC_URL would send it (Origin for the CSRF check). */
async function api(
  instance: Instance,
  method: string,
  path: string,
  options: { cookie?: string; json?: unknown; body?: FormData; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { origin: PUBLIC_URL, ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${instance.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
  });
}

function sessionCookieOf(res: Response): string {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('qr_session='));
  if (!cookie) throw new Error(`no session cookie (status ${res.status})`);
  return cookie;
}

/** A scan from its own phone: each has its own user agent, so none is throttled as a loop. */
let phones = 0;
function scanFrom(instance: Instance, slug: string) {
  phones += 1;
  return fetch(`${instance.url}/r/${slug}`, {
    redirect: 'manual',
    headers: {
      'user-agent': `Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E${phones} Safari/604.1`,
    },
  });
}

describe.skipIf(!testUrl)('two instances on one PostgreSQL database', () => {
  const name = `qr_two_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let db: pg.Client;
  let a: Instance;
  let b: Instance;
  let demo: string;
  let receiver: Receiver | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: testUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = databaseUrl(testUrl!, name);
    // SEED_DEMO=true: PUBLIC_URL is not a local address, so no demo account would be made otherwise.
    const env = {
      DATABASE_URL: url,
      PUBLIC_URL,
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'admin-password-1',
      FREE_PLAN_LIMIT: '10',
      // The webhook test's receiver listens on 127.0.0.1 (loopback is refused otherwise).
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    };
    // At the same moment, on an empty database: both migrate (under the lock) and seed.
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    const [first, second] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    if (first) a = { server: first, url: first.url };
    if (second) b = { server: second, url: second.url };
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const login = await api(a, 'POST', '/api/login', { json: { username: 'demo', password: 'demo123' } });
    expect(login.status).toBe(200);
    demo = sessionCookieOf(login);
  });

  afterAll(async () => {
    const codes = await Promise.all([a?.server.stop(), b?.server.stop()]);
    await receiver?.close();
    await db?.end();
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
    expect(codes).toEqual([0, 0]);
  });

  it('both started without an error and migrated once, with one admin and one demo account', async () => {
    for (const instance of [a, b]) {
      expect(instance.server.logs.join('\n')).not.toMatch(/"level":(50|60)/);
      expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);
    }
    const users = await db.query<{ username: string }>('select username from users order by username');
    expect(users.rows.map((r) => r.username)).toEqual(['admin', 'demo']);
    const migrations = await db.query<{ n: string }>(
      'select count(*) as n from kysely_migration group by name having count(*) > 1',
    );
    expect(migrations.rows).toEqual([]);
  });

  it('a session made on one instance works on the other, and signing out on the other ends it', async () => {
    const login = await api(b, 'POST', '/api/login', { json: { username: 'demo', password: 'demo123' } });
    const cookie = sessionCookieOf(login);
    const onA = await api(a, 'GET', '/api/qr-codes', { cookie });
    expect(onA.status).toBe(200);
    expect(((await onA.json()) as unknown[]).length).toBe(2);
    expect((await api(a, 'POST', '/api/logout', { cookie })).status).toBeLessThan(300);
    expect((await api(b, 'GET', '/api/qr-codes', { cookie })).status).toBe(401);
  });

  it('a logo uploaded through one instance is served by the other', async () => {
    const form = new FormData();
    const png = makePng(4, 4);
    form.append('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    const uploaded = await api(a, 'POST', '/api/upload/logo', { cookie: demo, body: form });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    const served = await api(b, 'GET', new URL(url, PUBLIC_URL).pathname, { cookie: demo });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('login throttling counts the attempts made on both instances', async () => {
    const registered = await api(a, 'POST', '/api/register', {
      json: { username: 'grace', password: 'right-password', name: 'Grace', email: 'grace@example.com' },
    });
    expect(registered.status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const wrong = await api(i % 2 ? b : a, 'POST', '/api/login', {
        json: { username: 'grace', password: `wrong-${i}` },
      });
      expect(wrong.status).toBe(401);
    }
    for (const instance of [a, b]) {
      const locked = await api(instance, 'POST', '/api/login', {
        json: { username: 'grace', password: 'right-password' },
      });
      expect(locked.status).toBe(429);
    }
  });

  it('scans sent alternately to both are all stored once, and the rollups equal a GROUP BY of the raw rows', async () => {
    const created = await api(a, 'POST', '/api/qr-codes', {
      cookie: demo,
      json: { name: 'Alternating', type: 'url', content: 'https://example.com/a', isDynamic: true },
    });
    expect(created.status).toBe(201);
    const code = (await created.json()) as { id: number; shortUrl: string };
    const slug = code.shortUrl.split('/r/')[1]!;
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => scanFrom(i % 2 ? b : a, slug)));
    expect(answers.map((r) => r.status)).toEqual(Array(200).fill(302));
    const raw = await db.query<{ n: string }>('select count(*) as n from qr_scans where qr_code_id = $1', [
      code.id,
    ]);
    expect(Number(raw.rows[0]!.n)).toBe(200);
    await expectRollupsMatchRawScans(db);
  });

  it('editing a code on one instance changes the very next redirect on the other', async () => {
    const created = await api(a, 'POST', '/api/qr-codes', {
      cookie: demo,
      json: { name: 'Moving', type: 'url', content: 'https://example.com/before', isDynamic: true },
    });
    expect(created.status).toBe(201);
    const code = (await created.json()) as { id: number; shortUrl: string };
    const slug = code.shortUrl.split('/r/')[1]!;
    // B has looked the code up (and may hold it in a cache) before A changes it.
    expect((await scanFrom(b, slug)).headers.get('location')).toBe('https://example.com/before');
    const edited = await api(a, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie: demo,
      json: { content: 'https://example.com/after' },
    });
    expect(edited.status).toBe(200);
    expect((await scanFrom(b, slug)).headers.get('location')).toBe('https://example.com/after');
  });

  it('deleting a code on one while the other records its scans leaves consistent counts', async () => {
    const created = await api(a, 'POST', '/api/qr-codes', {
      cookie: demo,
      json: { name: 'Going', type: 'url', content: 'https://example.com/going', isDynamic: true },
    });
    expect(created.status).toBe(201);
    const code = (await created.json()) as { id: number; shortUrl: string };
    const slug = code.shortUrl.split('/r/')[1]!;
    const scans = Array.from({ length: 150 }, () => scanFrom(b, slug));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const deleted = await api(a, 'DELETE', `/api/qr-codes/${code.id}`, { cookie: demo });
    expect(deleted.status).toBe(200);
    // Each scan was either recorded before the deletion (302) or found no code (404): nothing else.
    const statuses = (await Promise.all(scans)).map((r) => r.status);
    expect(statuses.filter((s) => s !== 302 && s !== 404)).toEqual([]);
    const left = await db.query<{ n: string }>('select count(*) as n from qr_scans where qr_code_id = $1', [
      code.id,
    ]);
    expect(Number(left.rows[0]!.n)).toBe(0);
    await expectRollupsMatchRawScans(db);
  });

  it('webhooks deliver every scan exactly once with two instances', { timeout: 180_000 }, async () => {
    receiver = await startReceiver();
    const added = await api(a, 'POST', '/api/webhooks', {
      cookie: demo,
      json: { url: `${receiver.url}/hook`, events: ['scan'], description: 'Two instances' },
    });
    expect(added.status).toBe(201);
    const webhook = (await added.json()) as { id: number; secret: string };
    expect(webhook.secret).toMatch(/^whsec_/);
    const created = await api(a, 'POST', '/api/qr-codes', {
      cookie: demo,
      json: { name: 'Hooked', type: 'url', content: 'https://example.com/hooked', isDynamic: true },
    });
    expect(created.status).toBe(201);
    const code = (await created.json()) as { id: number; shortUrl: string };
    const slug = code.shortUrl.split('/r/')[1]!;

    const eventsOf = (r: Received) => (JSON.parse(r.body) as { events: ScanEvent[] }).events;
    const received = () => new Set(receiver!.requests.flatMap((r) => eventsOf(r).map((e) => e.id)));
    const scansOfCode = async () =>
      (await db.query<{ id: string }>('select id from qr_scans where qr_code_id = $1', [code.id])).rows.map(
        (r) => `scan_${r.id}`,
      );

    // A first scan, delivered before the rest: the feed of scans may first wait out a gap left by the
    // earlier tests (ids of a deleted code's scans: 15 s, GAP_WAIT_MS), which would hold every scan
    // below back into one delivery.
    expect((await scanFrom(b, slug)).status).toBe(302);
    const [first] = await scansOfCode();
    await expect.poll(() => received().has(first!), { timeout: 60_000, interval: 250 }).toBe(true);

    // 60 scans in four bursts of 15, each burst split between the instances and sent at once. The bursts
    // are a moment apart (the job runs every second on each instance), so that the scans are handed on in
    // several runs, as several deliveries for both instances to race for, not one delivery of all 60.
    const statuses: number[] = [];
    for (let burst = 0; burst < 4; burst++) {
      if (burst > 0) await new Promise((resolve) => setTimeout(resolve, 700));
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => scanFrom(i % 2 ? b : a, slug)));
      statuses.push(...answers.map((r) => r.status));
    }
    expect(statuses).toEqual(Array(60).fill(302));
    const expected = (await scansOfCode()).sort();
    expect(expected).toHaveLength(61);
    const owner = await db.query<{ user_id: number }>('select user_id from qr_codes where id = $1', [
      code.id,
    ]);
    const workspaceId = Number(owner.rows[0]!.user_id);

    await expect
      .poll(() => expected.filter((id) => !received().has(id)), { timeout: 90_000, interval: 250 })
      .toEqual([]);
    // All in: a few more runs of both instances' jobs, for a repeat to show.
    await new Promise((resolve) => setTimeout(resolve, 4_000));

    const requests = receiver.requests;
    for (const r of requests) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/hook');
      expect(r.headers['qr-creator-event']).toBe('scan');
      expect(signatureVerifies(webhook.secret, r.headers['qr-creator-signature'], r.body, r.at), r.body).toBe(
        true,
      );
      for (const event of eventsOf(r)) {
        expect(event).toMatchObject({
          type: 'scan',
          workspace: { id: workspaceId },
          data: { code: { id: code.id } },
        });
        expect(event.id).toBe(`scan_${event.data.scan.id}`);
      }
    }
    // Every scan of the code once (the first and the 60): across all requests, no event id twice, none missing.
    expect(requests.flatMap((r) => eventsOf(r).map((e) => e.id)).sort()).toEqual(expected);
    const deliveryIds = requests.map((r) => Number(r.headers['qr-creator-delivery']));
    expect(deliveryIds.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect(deliveryIds.filter((id, i) => deliveryIds.indexOf(id) !== i)).toEqual([]);

    // The log, read through the other instance, lists each delivery once, sent once and taken.
    const logged: { id: number; state: string; attempts: number; events: number; eventTypes: string[] }[] =
      [];
    let before: number | null = null;
    do {
      const query: string = `?limit=100${before === null ? '' : `&before=${before}`}`;
      const page = await api(b, 'GET', `/api/webhooks/${webhook.id}/deliveries${query}`, { cookie: demo });
      expect(page.status).toBe(200);
      const body = (await page.json()) as { items: typeof logged; next: number | null };
      logged.push(...body.items);
      before = body.next;
    } while (before !== null);
    expect(logged.map((d) => d.id).sort((x, y) => x - y)).toEqual([...deliveryIds].sort((x, y) => x - y));
    for (const d of logged)
      expect(d).toMatchObject({ state: 'succeeded', attempts: 1, eventTypes: ['scan'] });
    expect(logged.reduce((n, d) => n + d.events, 0)).toBe(61);
    for (const instance of [a, b]) {
      expect(instance.server.logs.join('\n')).not.toContain('webhook deliveries failed');
    }
  });
});

/** Every code's and user's rollup totals per day and quarter hour against the raw scans. */
async function expectRollupsMatchRawScans(db: pg.Client) {
  const raw = await db.query<{ qr_code_id: number; user_id: number; ms: string }>(
    `select s.qr_code_id, c.user_id, s.at as ms
       from qr_scans s join qr_codes c on c.id = s.qr_code_id`,
  );
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const expected = { codeDays: new Map(), codeQuarters: new Map(), userQuarters: new Map() } as Record<
    string,
    Map<string, number>
  >;
  for (const r of raw.rows) {
    const ms = Number(r.ms);
    count(expected.codeDays!, `${r.qr_code_id}:${Math.floor(ms / DAY)}`);
    count(expected.codeQuarters!, `${r.qr_code_id}:${Math.floor(ms / QUARTER)}`);
    count(expected.userQuarters!, `${r.user_id}:${Math.floor(ms / QUARTER)}`);
  }
  const total = 'mobile + tablet + desktop + bot + unknown';
  const actual = async (sqlText: string) =>
    new Map(
      (await db.query<{ k: string; n: string }>(sqlText)).rows
        .filter((r) => Number(r.n) !== 0)
        .map((r) => [r.k, Number(r.n)]),
    );
  expect(await actual(`select qr_code_id || ':' || day as k, ${total} as n from scan_code_days`)).toEqual(
    expected.codeDays,
  );
  expect(
    await actual(`select qr_code_id || ':' || bucket as k, ${total} as n from scan_code_quarters`),
  ).toEqual(expected.codeQuarters);
  expect(await actual(`select user_id || ':' || bucket as k, ${total} as n from scan_user_quarters`)).toEqual(
    expected.userQuarters,
  );
}

interface ScanEvent {
  id: string;
  type: string;
  workspace: { id: number };
  data: { code: { id: number }; scan: { id: number } };
}

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it came, in ms since the epoch. */
  at: number;
}

interface Receiver {
  url: string;
  requests: Received[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that keeps every request and answers 200. */
async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * What a receiver checks (docs/integrations.md): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with
 * the secret, its timestamp within five minutes of when it came.
 */
function signatureVerifies(secret: string, header: string | string[] | undefined, body: string, at: number) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(typeof header === 'string' ? header : '');
  if (!match) return false;
  if (Math.abs(at / 1000 - Number(match[1])) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}
