import { spawnSync } from 'node:child_process';
import { smartRedirectSchema } from '../../src/qr/smart-redirect.js';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { Kysely, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeDepsOf } from '../app.js';
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
import { APP_VERSION } from '../version.js';
import { createMetrics, registerMetrics, SECURITY_EVENTS, startMetricsServer } from './metrics.js';

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

async function scrapeText(t: TestApp): Promise<string> {
  const res = await call(t.app, 'GET', '/metrics', { headers: bearer(TOKEN) });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

async function scrape(t: TestApp): Promise<Sample[]> {
  return parseSamples(await scrapeText(t));
}

/**
 * What breaks the naming conventions (prometheus.io/docs/practices/naming, and what `promtool check
 * metrics` lints) in a scrape: every metric ours (qr_creator_) or the process's (process_, nodejs_),
 * HELP and TYPE for each, counters and only counters ending in _total, times in seconds and sizes in
 * bytes, every sample of a declared metric.
 */
function conventionProblems(text: string): string[] {
  const problems: string[] = [];
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    const help = /^# HELP (\S+) \S/.exec(line);
    if (help) helps.add(help[1]!);
  }
  for (const [name, type] of types) {
    const problem = (what: string) => problems.push(`${name} (${type}): ${what}`);
    if (!/^(qr_creator|process|nodejs)_[a-z0-9_]+$/.test(name))
      problem('not qr_creator_, process_ or nodejs_');
    if (!helps.has(name)) problem('no HELP');
    if (!['counter', 'gauge', 'histogram'].includes(type)) problem('neither counter, gauge nor histogram');
    if (type === 'counter' && !name.endsWith('_total')) problem('a counter must end in _total');
    if (type !== 'counter' && name.endsWith('_total')) problem('only a counter may end in _total');
    if (/_(bucket|sum|count)$/.test(name)) problem('a histogram suffix on a metric');
    if (/(milli|micro|nano)seconds|_ms$|_minutes|_hours|kilobytes|megabytes/.test(name))
      problem('not in base units');
    if (/duration|latency|_lag|_time_|_time$|_cpu_/.test(name) && !/_seconds(_total)?$/.test(name))
      problem('a time not in _seconds');
    if (/memory|heap/.test(name) && !name.endsWith('_bytes')) problem('a size not in _bytes');
  }
  for (const sample of parseSamples(text)) {
    const family = types.has(sample.name) ? sample.name : sample.name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(family)) problems.push(`${sample.name}: a sample without TYPE`);
  }
  return problems;
}

const promtool = spawnSync('promtool', ['--version']).status === 0;

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
      expect(res.body).not.toMatch(/process_|qr_creator_/);
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
      expect(res.body).not.toMatch(/process_|qr_creator_/);
    }
  });

  it('answers the Prometheus text format, process metrics included, to the Bearer of METRICS_TOKEN', async () => {
    const t = await open();
    const res = await call(t.app, 'GET', '/metrics', { headers: bearer(TOKEN) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const [name, type] of [
      ['qr_creator_http_requests_total', 'counter'],
      ['qr_creator_http_request_duration_seconds', 'histogram'],
      ['qr_creator_scans_recorded_total', 'counter'],
      ['qr_creator_scan_queue_depth', 'gauge'],
      ['qr_creator_scan_batch_size', 'histogram'],
      ['qr_creator_scan_batch_duration_seconds', 'histogram'],
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
    expect(valueOf(samples, 'qr_creator_scan_queue_depth')).toBe(0);
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
    const requests = samples.filter((s) => s.name === 'qr_creator_http_requests_total');
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
    expect(valueOf(samples, 'qr_creator_http_requests_total', { method: 'GET', route, status: '200' })).toBe(
      2,
    );
    expect(valueOf(samples, 'qr_creator_http_requests_total', { method: 'GET', route, status: '404' })).toBe(
      1,
    );
    expect(valueOf(samples, 'qr_creator_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    // In the labels only: a sample's value (a memory size, a CPU time) may hold any digits.
    const labels = res.body
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .map((line) => /\{.*\}/.exec(line)?.[0] ?? '')
      .join('\n');
    expect(labels).not.toMatch(/secret-in-query|987654|4711|no-such-path|definitely/);
    expect(res.body).not.toContain(`/api/qr-codes/${code.id}"`);

    // The histogram agrees with the counter, its buckets are cumulative and end in +Inf.
    const ok = { method: 'GET', route, status: '200' };
    expect(valueOf(samples, 'qr_creator_http_request_duration_seconds_count', ok)).toBe(2);
    expect(valueOf(samples, 'qr_creator_http_request_duration_seconds_sum', ok)).toBeGreaterThan(0);
    const buckets = samples.filter(
      (s) =>
        s.name === 'qr_creator_http_request_duration_seconds_bucket' &&
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
    expect(valueOf(again, 'qr_creator_http_requests_total', { route: '/metrics', status: '200' })).toBe(1);
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
    expect(valueOf(samples, 'qr_creator_scans_recorded_total')).toBe(8);
    expect(valueOf(samples, 'qr_creator_scans_failed_total')).toBe(0);
    expect(valueOf(samples, 'qr_creator_scan_queue_depth')).toBe(0);
    expect(valueOf(samples, 'qr_creator_scan_batch_size_sum')).toBe(8);
    const batches = valueOf(samples, 'qr_creator_scan_batch_size_count');
    // Three one-scan batches, then the burst in one to five.
    expect(batches).toBeGreaterThanOrEqual(4);
    expect(batches).toBeLessThanOrEqual(8);
    expect(valueOf(samples, 'qr_creator_scan_batch_duration_seconds_count')).toBe(batches);
    expect(
      valueOf(samples, 'qr_creator_http_requests_total', { method: 'GET', route: '/r/:slug', status: '302' }),
    ).toBe(8);
    expect(
      valueOf(samples, 'qr_creator_http_requests_total', { method: 'GET', route: '/r/:slug', status: '404' }),
    ).toBe(1);
    expect(
      valueOf(samples, 'qr_creator_http_requests_total', {
        method: 'HEAD',
        route: '/r/:slug',
        status: '302',
      }),
    ).toBe(1);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes(slug)))).toBe(false);
  });

  it('names every metric by the conventions, counts the build, and passes promtool when it is installed', async () => {
    const t = await open();
    const owner = await insertTestUser(t.db, { username: 'named' });
    const code = await insertQrRow(t.db, { userId: owner.id, isDynamic: true });
    expect((await call(t.app, 'GET', `/r/${code.slug!}`)).statusCode).toBe(302);
    expect((await call(t.app, 'GET', '/nowhere')).statusCode).toBe(404);
    const appText = await scrapeText(t);
    // The metrics only PostgreSQL and a Kysely log hook add, on metrics of their own.
    const more = createMetrics();
    more.watchPool({ totalCount: 1, idleCount: 1, waitingCount: 0 });
    more.observeQuery({ queryDurationMillis: 2 } as Parameters<typeof more.observeQuery>[0]);
    const moreText = await more.text();

    for (const text of [appText, moreText]) expect(conventionProblems(text)).toEqual([]);
    for (const name of [
      'qr_creator_http_requests_total',
      'qr_creator_build_info',
      'qr_creator_scans_throttled_total',
      'qr_creator_scans_refused_total',
      'qr_creator_security_events_total',
      'qr_creator_mails_total',
      'process_resident_memory_bytes',
      'nodejs_active_handles',
    ])
      expect(appText).toContain(`# TYPE ${name} `);
    for (const name of ['qr_creator_db_pool_connections', 'qr_creator_db_query_duration_seconds'])
      expect(moreText).toContain(`# TYPE ${name} `);
    // Gauges named like counters (prom-client's defaults) are left out; their labelled twins stay.
    expect(appText).not.toMatch(/^nodejs_active_(handles|requests|resources)_total/m);
    expect(appText).not.toMatch(/^(http|db|qr)_(?!creator)/m);

    const samples = parseSamples(appText);
    const build = samples.filter((s) => s.name === 'qr_creator_build_info');
    expect(build).toEqual([
      { name: 'qr_creator_build_info', labels: { version: APP_VERSION, node: process.version }, value: 1 },
    ]);

    if (!promtool) {
      console.info(
        'promtool is not installed: `promtool check metrics` skipped (apt-get install prometheus)',
      );
      return;
    }
    for (const text of [appText, moreText]) {
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
      expect(lint.status).toBe(0);
    }
  });

  it('counts throttled scans, and refused ones by reason (the owner’s test scan is none)', async () => {
    const t = await open({ metricsToken: TOKEN, scansPerClientMinute: 2 });
    const { user, cookie } = await signedInUser(t, 'refusals');
    const [plain, paused, locked] = await Promise.all(
      [1, 2, 3].map(() => insertQrRow(t.db, { userId: user.id, isDynamic: true })),
    );
    const set = (id: number, changes: { redirect_options?: string; password_hash?: string }) =>
      t.db.updateTable('qr_codes').set(changes).where('id', '=', id).execute();
    await set(paused!.id, { redirect_options: JSON.stringify(smartRedirectSchema.parse({ paused: true })) });
    // Any hash: a scanner without the code's cookie gets the form before a password is ever checked.
    await set(locked!.id, { password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g' });
    for (let i = 0; i < 5; i++) expect((await call(t.app, 'GET', `/r/${plain!.slug!}`)).statusCode).toBe(302);
    expect((await call(t.app, 'GET', `/r/${paused!.slug!}`)).statusCode).toBe(200);
    const form = await call(t.app, 'GET', `/r/${locked!.slug!}`);
    expect(form.body).toMatch(/type="password"/);
    const test = await call(t.app, 'GET', `/api/qr-codes/${paused!.id}/scan`, { cookie });
    expect(test.statusCode, test.body).toBe(200);

    const samples = await scrape(t);
    expect(valueOf(samples, 'qr_creator_scans_throttled_total')).toBe(3);
    const refused = samples.filter((s) => s.name === 'qr_creator_scans_refused_total');
    expect(Object.fromEntries(refused.map((s) => [s.labels.reason, s.value]))).toEqual({
      paused: 1,
      'not-started': 0,
      ended: 0,
      limit: 0,
      password: 1,
    });
    expect(valueOf(samples, 'qr_creator_scans_recorded_total')).toBe(8);
  });

  it('counts security events and mails through the app’s deps, unknown names as "other"', async () => {
    const t = await open();
    const { signals } = runtimeDepsOf(t.app);
    expect(signals).toBeDefined();
    signals!.securityEvent('login.failed');
    signals!.securityEvent('login.failed');
    signals!.securityEvent('account.locked');
    signals!.securityEvent('made.up <script>');
    signals!.mail('failed');
    signals!.mail('retried');
    signals!.mail('sent');
    signals!.mail('bounced' as 'sent');
    // And from where they happen: a wrong password at sign-in, a forged API token.
    await insertTestUser(t.db, { username: 'mallory' });
    const bad = await call(t.app, 'POST', '/api/login', {
      json: { username: 'mallory', password: 'not-the-password' },
    });
    expect(bad.statusCode).toBe(401);
    const forged = await call(t.app, 'GET', '/api/qr-codes', {
      headers: { authorization: 'Bearer qrc_forged-token-forged-token-forged' },
    });
    expect(forged.statusCode).toBe(401);

    const samples = await scrape(t);
    const events = samples.filter((s) => s.name === 'qr_creator_security_events_total');
    // Every known name from the start (at 0, so rate() works from the first event), and nothing else.
    expect(events.map((s) => s.labels.event).sort()).toEqual([...SECURITY_EVENTS, 'other'].sort());
    const event = (name: string) => valueOf(samples, 'qr_creator_security_events_total', { event: name });
    expect([event('login.failed'), event('account.locked'), event('other'), event('token.refused')]).toEqual([
      3, 1, 1, 1,
    ]);
    const mail = (outcome: string) => valueOf(samples, 'qr_creator_mails_total', { outcome });
    expect([mail('sent'), mail('failed'), mail('retried'), mail('given-up'), mail('other')]).toEqual([
      1, 1, 1, 0, 1,
    ]);

    // Without metrics there is nothing to count with.
    const bare = await metricsTestApp(getDb(), {});
    try {
      expect(runtimeDepsOf(bare.app).signals).toBeUndefined();
    } finally {
      await bare.close();
    }
  });

  it('keeps each app’s numbers in its own registry', async () => {
    const first = await open();
    const second = await metricsTestApp(getDb(), { metricsToken: TOKEN });
    try {
      await call(first.app, 'GET', '/healthz');
      await call(first.app, 'GET', '/healthz');
      await call(second.app, 'GET', '/healthz');
      const route = { route: '/healthz', status: '200' };
      expect(valueOf(await scrape(first), 'qr_creator_http_requests_total', route)).toBe(2);
      expect(valueOf(await scrape(second), 'qr_creator_http_requests_total', route)).toBe(1);
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
      expect(valueOf(queued, 'qr_creator_scan_queue_depth')).toBe(3);
      const results = await Promise.allSettled(pending);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(recorder.queueDepth()).toBe(0);
      const samples = parseSamples(await metrics.text());
      expect(valueOf(samples, 'qr_creator_scans_recorded_total')).toBe(2);
      expect(valueOf(samples, 'qr_creator_scans_failed_total')).toBe(1);
      expect(valueOf(samples, 'qr_creator_scan_batch_size_count')).toBe(1);
      expect(valueOf(samples, 'qr_creator_scan_batch_size_sum')).toBe(3);
      expect(valueOf(samples, 'qr_creator_scan_queue_depth')).toBe(0);
    } finally {
      stop();
      await recorder.close();
    }
    // Once stopped, the metrics hear no more of it.
    const after = createScanRecorder(db);
    const unobserved = createMetrics();
    unobserved.watchScans(after)();
    await after.record(row(code.id, 4));
    expect(valueOf(parseSamples(await unobserved.text()), 'qr_creator_scans_recorded_total')).toBe(0);
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
      const labels = samples.filter((s) => s.name === 'qr_creator_http_requests_total').map((s) => s.labels);
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
  it('a Kysely `log` hook feeds qr_creator_db_query_duration_seconds', async () => {
    const metrics = createMetrics();
    expect(await metrics.text()).not.toContain('qr_creator_db_query_duration_seconds');
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
    expect(valueOf(samples, 'qr_creator_db_query_duration_seconds_count')).toBe(2);
  });

  const pgUrl = testDatabaseUrl();
  (pgUrl ? it : it.skip)(
    `PostgreSQL: qr_creator_db_pool_connections, _idle_connections and _waiting_clients follow the pg pool${pgUrl ? '' : ' (skipped: TEST_DATABASE_URL not set)'}`,
    async () => {
      const pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
      const metrics = createMetrics();
      metrics.watchPool(pool);
      const gauges = async () => {
        const samples = parseSamples(await metrics.text());
        return [
          'qr_creator_db_pool_connections',
          'qr_creator_db_pool_idle_connections',
          'qr_creator_db_pool_waiting_clients',
        ].map((n) => valueOf(samples, n));
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
      expect(body).toContain('# TYPE qr_creator_http_requests_total counter');
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
