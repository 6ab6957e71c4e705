import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { ScanToStore } from '../features/scans/rollup-model.js';
import { createScanRecorder } from '../features/scans/scan-recorder.js';
import { insertQrRow, insertTestUser } from '../test/fixtures.js';
import {
  call,
  createTestApp,
  expectRestError,
  signedInUser,
  type Response,
  type TestApp,
} from '../test/test-app.js';
import { describeEachDb, testDatabaseUrl, type TestDb } from '../test/test-db.js';
import { createMetrics, registerMetrics, startMetricsServer } from './metrics.js';

const TOKEN = 'a-long-metrics-token-123';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The real app, with metrics on when the config says so (buildApp registers them). */
function metricsTestApp(testDb: TestDb, overrides: Partial<Config> = {}): Promise<TestApp> {
  return createTestApp(testDb, { config: overrides });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text answer (comment lines left out). */
function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[key!] = value!;
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await call(t.app, 'GET', '/metrics', { headers: bearer(TOKEN) });
  expect(res.statusCode, res.body).toBe(200);
  return parseSamples(res.body);
}

describeEachDb('Prometheus metrics', (getDb) => {
  let current: TestApp | undefined;
  afterEach(async () => {
    const t = current;
    current = undefined;
    await t?.close();
  });
  const open = async (config: Partial<Config> = { metricsToken: TOKEN }) =>
    (current = await metricsTestApp(getDb(), config));

  it('GET /metrics is a 404 like an unknown path while METRICS_TOKEN is unset, whatever is sent', async () => {
    const t = await open({});
    for (const headers of [{}, bearer(TOKEN)]) {
      const res = await call(t.app, 'GET', '/metrics', { headers });
      expect(expectRestError(res, 404, 'NOT_FOUND').message).toMatch(/^Not found/);
      expect(res.body).not.toMatch(/process_|http_requests/);
    }
  });

  it('refuses a missing, malformed or wrong token with 401, without metrics', async () => {
    const t = await open();
    const refused: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: TOKEN },
      { authorization: 'Bearer' },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      bearer('x'),
      bearer(`${TOKEN}x`),
      bearer(TOKEN.slice(0, -1)),
      bearer(TOKEN.toUpperCase()),
      { authorization: `Bearer ${TOKEN} extra` },
    ];
    for (const headers of refused) {
      const res: Response = await call(t.app, 'GET', '/metrics', { headers });
      expectRestError(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toMatch(/process_|http_requests/);
    }
  });

  it('answers the Prometheus text format, process metrics included, to the Bearer of METRICS_TOKEN', async () => {
    const t = await open();
    const res = await call(t.app, 'GET', '/metrics', { headers: bearer(TOKEN) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const [name, type] of [
      ['http_requests_total', 'counter'],
      ['http_request_duration_seconds', 'histogram'],
      ['qr_scans_recorded_total', 'counter'],
      ['qr_scan_queue_depth', 'gauge'],
      ['qr_scan_batch_size', 'histogram'],
      ['qr_scan_batch_duration_seconds', 'histogram'],
      ['process_resident_memory_bytes', 'gauge'],
      ['nodejs_heap_size_used_bytes', 'gauge'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
      ['nodejs_gc_duration_seconds', 'histogram'],
    ]) {
      expect(res.body).toContain(`# HELP ${name} `);
      expect(res.body).toContain(`# TYPE ${name} ${type}\n`);
    }
    const samples = parseSamples(res.body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(valueOf(samples, 'qr_scan_queue_depth')).toBe(0);
    // The scheme is case-insensitive (RFC 9110); the token is not.
    const lower = await call(t.app, 'GET', '/metrics', { headers: { authorization: `bearer ${TOKEN}` } });
    expect(lower.statusCode).toBe(200);
  });

  it('counts requests by method, route pattern and status: never an id, a query or an unknown path', async () => {
    const t = await open();
    const { user, cookie } = await signedInUser(t, 'metrics');
    const code = await insertQrRow(t.db, { userId: user.id, name: 'Counted' });
    const get = (url: string) => call(t.app, 'GET', url, { cookie });
    expect((await get(`/api/qr-codes/${code.id}`)).statusCode).toBe(200);
    expect((await get(`/api/qr-codes/${code.id}?token=secret-in-query`)).statusCode).toBe(200);
    expect((await get('/api/qr-codes/987654')).statusCode).toBe(404);
    expect((await get('/api/no-such-path/4711')).statusCode).toBe(404);
    expect((await get('/definitely/not/here?x=1')).statusCode).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/qr-codes/${code.id}`)).statusCode).toBe(401);

    const res = await call(t.app, 'GET', '/metrics', { headers: bearer(TOKEN) });
    const samples = parseSamples(res.body);
    const requests = samples.filter((s) => s.name === 'http_requests_total');
    expect(requests).toHaveLength(4);
    expect(requests.map((s) => s.labels)).toEqual(
      expect.arrayContaining([
        { method: 'GET', route: '/api/qr-codes/:id', status: '200' },
        { method: 'DELETE', route: '/api/qr-codes/:id', status: '401' },
        { method: 'GET', route: '/api/qr-codes/:id', status: '404' },
        { method: 'GET', route: 'unmatched', status: '404' },
      ]),
    );
    const route = '/api/qr-codes/:id';
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(valueOf(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    expect(res.body).not.toMatch(/secret-in-query|987654|4711|no-such-path|definitely/);
    expect(res.body).not.toContain(`/api/qr-codes/${code.id}"`);

    // The histogram agrees with the counter, its buckets are cumulative and end in +Inf.
    const ok = { method: 'GET', route, status: '200' };
    expect(valueOf(samples, 'http_request_duration_seconds_count', ok)).toBe(2);
    expect(valueOf(samples, 'http_request_duration_seconds_sum', ok)).toBeGreaterThan(0);
    const buckets = samples.filter(
      (s) =>
        s.name === 'http_request_duration_seconds_bucket' &&
        s.labels.route === route &&
        s.labels.status === '200',
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '+Inf',
    ]);
    expect(buckets.at(-1)!.value).toBe(2);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);

    // Scrapes count like any route; each sees the ones before it.
    const again = await scrape(t);
    expect(valueOf(again, 'http_requests_total', { route: '/metrics', status: '200' })).toBe(1);
  });

  it('counts scans of a short link once they are committed, and the batches that wrote them', async () => {
    const t = await open();
    const owner = await insertTestUser(t.db, { username: 'scanned' });
    const code = await insertQrRow(t.db, { userId: owner.id, isDynamic: true });
    const slug = code.slug!;
    for (let i = 0; i < 3; i++) expect((await call(t.app, 'GET', `/r/${slug}`)).statusCode).toBe(302);
    const burst = await Promise.all(Array.from({ length: 5 }, () => call(t.app, 'GET', `/r/${slug}`)));
    expect(burst.map((r) => r.statusCode)).toEqual([302, 302, 302, 302, 302]);
    // Not scans: a HEAD, and a slug that leads nowhere.
    expect((await call(t.app, 'HEAD', `/r/${slug}`)).statusCode).toBe(302);
    expect((await call(t.app, 'GET', '/r/nosuchslug')).statusCode).toBe(404);

    const samples = await scrape(t);
    expect(valueOf(samples, 'qr_scans_recorded_total')).toBe(8);
    expect(valueOf(samples, 'qr_scans_failed_total')).toBe(0);
    expect(valueOf(samples, 'qr_scan_queue_depth')).toBe(0);
    expect(valueOf(samples, 'qr_scan_batch_size_sum')).toBe(8);
    const batches = valueOf(samples, 'qr_scan_batch_size_count');
    // Three one-scan batches, then the burst in one to five.
    expect(batches).toBeGreaterThanOrEqual(4);
    expect(batches).toBeLessThanOrEqual(8);
    expect(valueOf(samples, 'qr_scan_batch_duration_seconds_count')).toBe(batches);
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/r/:slug', status: '302' })).toBe(
      8,
    );
    expect(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/r/:slug', status: '404' })).toBe(
      1,
    );
    expect(
      valueOf(samples, 'http_requests_total', { method: 'HEAD', route: '/r/:slug', status: '302' }),
    ).toBe(1);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes(slug)))).toBe(false);
  });

  it('keeps each app’s numbers in its own registry', async () => {
    const first = await open();
    const second = await metricsTestApp(getDb(), { metricsToken: TOKEN });
    try {
      await call(first.app, 'GET', '/healthz');
      await call(first.app, 'GET', '/healthz');
      await call(second.app, 'GET', '/healthz');
      const route = { route: '/healthz', status: '200' };
      expect(valueOf(await scrape(first), 'http_requests_total', route)).toBe(2);
      expect(valueOf(await scrape(second), 'http_requests_total', route)).toBe(1);
      expect(valueOf(await scrape(second), 'process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('the scan writer reports each batch: scans stored and refused, and the queue while it waits', async () => {
    const { db } = getDb();
    const owner = await insertTestUser(db, { username: 'batches' });
    const code = await insertQrRow(db, { userId: owner.id, isDynamic: true });
    const row = (qrCodeId: number, i: number): ScanToStore => ({
      owner_id: owner.id,
      qr_code_id: qrCodeId,
      timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, 0, i)).toISOString(),
      user_agent: `test #${i}`,
      ip_address: '203.0.113.7',
      referrer: null,
      location: 'Unknown',
      device: 'Desktop',
    });
    const recorder = createScanRecorder(db);
    const metrics = createMetrics();
    const stop = metrics.watchScans(recorder);
    try {
      // Queued in one turn of the event loop: one batch, in which a row for a missing code fails.
      const pending = [row(code.id, 1), row(987_654, 2), row(code.id, 3)].map((r) => recorder.record(r));
      expect(recorder.queueDepth()).toBe(3);
      const queued = parseSamples(await metrics.text());
      expect(valueOf(queued, 'qr_scan_queue_depth')).toBe(3);
      const results = await Promise.allSettled(pending);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(recorder.queueDepth()).toBe(0);
      const samples = parseSamples(await metrics.text());
      expect(valueOf(samples, 'qr_scans_recorded_total')).toBe(2);
      expect(valueOf(samples, 'qr_scans_failed_total')).toBe(1);
      expect(valueOf(samples, 'qr_scan_batch_size_count')).toBe(1);
      expect(valueOf(samples, 'qr_scan_batch_size_sum')).toBe(3);
      expect(valueOf(samples, 'qr_scan_queue_depth')).toBe(0);
    } finally {
      stop();
      await recorder.close();
    }
    // Once stopped, the metrics hear no more of it.
    const after = createScanRecorder(db);
    const unobserved = createMetrics();
    unobserved.watchScans(after)();
    await after.record(row(code.id, 4));
    expect(valueOf(parseSamples(await unobserved.text()), 'qr_scans_recorded_total')).toBe(0);
    await after.close();
  });
});

describe('registerMetrics on any Fastify app', () => {
  const noScans = { observe: () => () => undefined, queueDepth: () => 0 };

  it('with metrics given but no METRICS_TOKEN (METRICS_PORT alone): records every route, /metrics is a 404', async () => {
    const app = Fastify();
    // Routes of a plugin registered before the metrics, and of one after, are both recorded.
    await app.register((before, _options, done) => {
      before.get('/before/:id', () => ({ ok: true }));
      done();
    });
    const metrics = createMetrics();
    expect(registerMetrics(app, { config: { metricsToken: undefined }, scans: noScans }, metrics)).toBe(
      metrics,
    );
    await app.register((after, _options, done) => {
      after.post('/after/:slug', () => ({ ok: true }));
      done();
    });
    try {
      expect((await app.inject({ url: '/before/41' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/after/abc?q=1' })).statusCode).toBe(200);
      // A method no route has (light-my-request's type lists only the common ones).
      const propfind = await app.inject({ method: 'PROPFIND' as 'GET', url: '/before/41' });
      expect(propfind.statusCode).toBe(404);
      const res = await app.inject({ url: '/metrics', headers: bearer(TOKEN) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
      const samples = parseSamples(await metrics.text());
      const labels = samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels);
      expect(labels).toEqual(
        expect.arrayContaining([
          { method: 'GET', route: '/before/:id', status: '200' },
          { method: 'POST', route: '/after/:slug', status: '200' },
          { method: 'OTHER', route: 'unmatched', status: '404' },
          { method: 'GET', route: '/metrics', status: '404' },
        ]),
      );
      expect(labels).toHaveLength(4);
    } finally {
      await app.close();
    }
  });

  it('without metrics or METRICS_TOKEN adds only the 404: no hook, nothing recorded', async () => {
    const app = Fastify();
    expect(registerMetrics(app, { config: { metricsToken: undefined }, scans: noScans })).toBeUndefined();
    try {
      const res = await app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });
});

describe('database time', () => {
  it('a Kysely `log` hook feeds db_query_duration_seconds', async () => {
    const metrics = createMetrics();
    expect(await metrics.text()).not.toContain('db_query_duration_seconds');
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
      log: metrics.observeQuery,
    });
    try {
      await sql`select 1`.execute(db);
      await sql`select 2`.execute(db);
    } finally {
      await db.destroy();
    }
    const samples = parseSamples(await metrics.text());
    expect(valueOf(samples, 'db_query_duration_seconds_count')).toBe(2);
  });

  const pgUrl = testDatabaseUrl();
  (pgUrl ? it : it.skip)(
    `PostgreSQL: db_pool_total, db_pool_idle and db_pool_waiting follow the pg pool${pgUrl ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`,
    async () => {
      const pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
      const metrics = createMetrics();
      metrics.watchPool(pool);
      const gauges = async () => {
        const samples = parseSamples(await metrics.text());
        return ['db_pool_total', 'db_pool_idle', 'db_pool_waiting'].map((n) => valueOf(samples, n));
      };
      try {
        expect(await gauges()).toEqual([0, 0, 0]);
        const a = await pool.connect();
        const b = await pool.connect();
        const waiting = pool.query('select 1');
        expect(await gauges()).toEqual([2, 0, 1]);
        a.release();
        await waiting;
        b.release();
        expect(await gauges()).toEqual([2, 2, 0]);
      } finally {
        await pool.end();
      }
    },
  );
});

describe('startMetricsServer (METRICS_PORT)', () => {
  it('serves GET /metrics without a token on a port of its own, nothing else, and closes', async () => {
    const metrics = createMetrics();
    const server = await startMetricsServer(0, '127.0.0.1', metrics, pino({ level: 'silent' }));
    const base = `http://127.0.0.1:${server.port}`;
    try {
      expect(server.port).toBeGreaterThan(0);
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(metrics.contentType);
      const body = await res.text();
      expect(body).toContain('# TYPE process_resident_memory_bytes gauge');
      expect(body).toContain('# TYPE http_requests_total counter');
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
      const post = await fetch(`${base}/metrics`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
    } finally {
      await server.close();
    }
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });
});
