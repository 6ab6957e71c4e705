import { randomBytes } from 'node:crypto';
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
