import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { LogEvent } from 'kysely';
import type * as PromClient from 'prom-client';
import type { Histogram, Metric, Registry } from 'prom-client';
import { refusalCodes } from '../../src/qr/scan-outcome.js';
import type { OpsSignals } from '../app-deps.js';
import type { Config } from '../config.js';
import type { PoolStats } from '../db/create-db.js';
import type { ScanBatchReport } from '../features/scans/scan-recorder.js';
import type { ScanService } from '../features/scans/scan.service.js';
import { lazyRequire } from '../lazy-require.js';
import { securityEventNames } from '../security-log.js';
import { APP_VERSION } from '../version.js';

// Prometheus metrics: HTTP requests by route pattern, the scan writer's batches and queue, throttled
// and refused scans, security events and mails, database time, and the process (memory, heap,
// event-loop lag, GC). Every metric of the app is named qr_creator_*; the process metrics keep the
// names every Prometheus client library gives them (process_*, nodejs_*), which dashboards and alerts
// expect, less the three gauges prom-client names *_total. Each app has a registry of its own, so
// several apps in one process (the tests) never share or collide; only the process metrics, which
// describe the one process whatever the app, are collected once and shown by every registry.
// prom-client (some 50 ms to load) is loaded by the first createMetrics: a server without metrics
// never loads it, whatever imports this file.

const loadPromClient = lazyRequire<typeof PromClient>('prom-client');

/** Request durations: 1 ms to 10 s. */
export const HTTP_DURATION_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
const SCAN_BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const DB_DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/** The `route` label of a request no route matched (a 404 of the not-found handler). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The `route` label of a file of the built client (app.ts serves them through @fastify/static). */
export const STATIC_ROUTE = 'static';
/** The `route` label of the client's index.html answered for a client route (deep links, `/`). */
export const APP_PAGE_ROUTE = 'app';
/** @fastify/static's one wildcard route (`wildcard: true`), whose answers are files of the client. */
const STATIC_ROUTE_PATTERN = '/*';
/** Methods are labelled as sent when they are one of these, else as OTHER: the label set stays small. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the scan metrics read from the scan writer. */
export type ScanSource = Pick<ScanService, 'observe' | 'queueDepth'>;

/**
 * The `event` label of qr_creator_security_events_total: the security log's stable names
 * (server/security-log.ts, docs/operations.md); any other name is counted as `other`, so the label
 * set stays closed whatever a caller passes.
 */
export const SECURITY_EVENTS: ReadonlySet<string> = new Set(securityEventNames);
const MAIL_OUTCOMES: ReadonlySet<string> = new Set(['sent', 'failed', 'retried', 'given-up']);
/** Refused scans by reason; the owner's in-app test (`simulated`) is no scan anyone was refused. */
const REFUSED_REASONS = ['paused', 'not-started', 'ended', 'limit', 'password'] as const;
/** `qr_scans.refused` → the reason's label (undefined: not a refusal counted). */
const refusedLabel: (string | undefined)[] = [];
for (const reason of REFUSED_REASONS) refusedLabel[refusalCodes[reason]] = reason;
/**
 * prom-client's default metrics include three gauges named *_total (a counter's suffix): the same
 * numbers are the sums of nodejs_active_handles, _requests and _resources over their `type` label.
 */
const DROPPED_PROCESS_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export interface Metrics {
  /** This app's registry (not prom-client's global one). */
  readonly registry: Registry;
  /** The Content-Type of `text()`. */
  readonly contentType: string;
  /** Every metric in the Prometheus text format. */
  text(): Promise<string>;
  /** One answered request; `route` is the route's pattern (undefined: no route matched). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  /** Follows the scan writer's batches and queue until the returned function is called. */
  watchScans(scans: ScanSource): () => void;
  /** PostgreSQL: the pool's connections as qr_creator_db_pool_{connections,idle_connections,waiting_clients}. */
  watchPool(pool: PoolStats): void;
  /** A Kysely `log` function: each query's time into qr_creator_db_query_duration_seconds. */
  readonly observeQuery: (event: LogEvent) => void;
  /** Security events and mails, counted (buildApp puts them in the app's deps). */
  readonly signals: OpsSignals;
}

// ---------------------------------------------------------------------------------------------------
// HTTP requests: counted in plain numbers per (route, method, status), turned into Prometheus values
// only when scraped. prom-client's labelled counter and histogram build a label hash per call
// (about 0.75 µs per request for both); this costs three Map lookups and a few additions.

interface RequestSeries {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative; the last is +Inf. */
  buckets: Float64Array;
}

interface SampleValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric of its own kind for a prom-client registry: it answers `get()` as prom-client's do. */
function collectedMetric(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => SampleValue[],
  reset: () => void,
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
    reset,
  };
  // The registry only reads name, help, type and get() (and calls reset()).
  return metric as unknown as Metric;
}

function createRequestMetrics(registry: Registry) {
  const byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>();
  const all: RequestSeries[] = [];
  const bounds = HTTP_DURATION_BUCKETS;

  function seriesOf(method: string, route: string, status: number): RequestSeries {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map<string, Map<number, RequestSeries>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, RequestSeries>()));
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(bounds.length + 1),
      };
      byStatus.set(status, series);
      all.push(series);
    }
    return series;
  }

  const reset = () => {
    byRoute.clear();
    all.length = 0;
  };

  registry.registerMetric(
    collectedMetric(
      'qr_creator_http_requests_total',
      'HTTP requests answered, by method, route pattern and status.',
      'counter',
      () => all.map((s) => ({ labels: s.labels, value: s.count })),
      reset,
    ),
  );
  registry.registerMetric(
    collectedMetric(
      'qr_creator_http_request_duration_seconds',
      'Time from receiving a request to sending its answer, by method, route pattern and status.',
      'histogram',
      () =>
        all.flatMap((s) => {
          const values: SampleValue[] = [];
          let cumulative = 0;
          for (let i = 0; i <= bounds.length; i++) {
            cumulative += s.buckets[i]!;
            values.push({
              metricName: 'qr_creator_http_request_duration_seconds_bucket',
              labels: { ...s.labels, le: i < bounds.length ? bounds[i]! : '+Inf' },
              value: cumulative,
            });
          }
          values.push({
            metricName: 'qr_creator_http_request_duration_seconds_sum',
            labels: s.labels,
            value: s.sum,
          });
          values.push({
            metricName: 'qr_creator_http_request_duration_seconds_count',
            labels: s.labels,
            value: s.count,
          });
          return values;
        }),
      reset,
    ),
  );

  return (method: string, route: string | undefined, status: number, seconds: number) => {
    // Unknown methods share one entry, so a stream of invented methods cannot grow the table.
    const series = seriesOf(METHODS.has(method) ? method : 'OTHER', route ?? UNMATCHED_ROUTE, status);
    series.count += 1;
    series.sum += seconds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i += 1;
    series.buckets[i]! += 1;
  };
}

// ---------------------------------------------------------------------------------------------------
// The process: one set of collectors per process (each would otherwise start its own event-loop
// monitor and GC observer, for good), registered in every app's registry.

let processRegistry: Registry | undefined;

function processMetrics(prom: typeof PromClient): Registry {
  if (!processRegistry) {
    processRegistry = new prom.Registry();
    prom.collectDefaultMetrics({ register: processRegistry });
    for (const name of DROPPED_PROCESS_METRICS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

// ---------------------------------------------------------------------------------------------------

export function createMetrics(): Metrics {
  const prom = loadPromClient();
  const registry = prom.Registry.merge([processMetrics(prom)]);
  const registers = [registry];
  const observeRequest = createRequestMetrics(registry);

  new prom.Gauge({
    name: 'qr_creator_build_info',
    help: 'The running build: its version (package.json) and Node.js version; always 1.',
    labelNames: ['version', 'node'],
    registers,
  }).set({ version: APP_VERSION, node: process.version }, 1);

  const scansRecorded = new prom.Counter({
    name: 'qr_creator_scans_recorded_total',
    help: 'Scans committed to the database by the scan writer (throttled and refused ones included).',
    registers,
  });
  const scansFailed = new prom.Counter({
    name: 'qr_creator_scans_failed_total',
    help: 'Scans the database refused (answered with an error), after their retry on their own.',
    registers,
  });
  const scansThrottled = new prom.Counter({
    name: 'qr_creator_scans_throttled_total',
    help: 'Scans beyond SCANS_PER_CLIENT_MINUTE for their client and code: redirected, counted apart.',
    registers,
  });
  const scansRefused = new prom.Counter({
    name: 'qr_creator_scans_refused_total',
    help: 'Scans not served their destination, by reason: paused, not-started, ended, limit, password (the form).',
    labelNames: ['reason'],
    registers,
  });
  for (const reason of REFUSED_REASONS) scansRefused.inc({ reason }, 0);
  const securityEvents = new prom.Counter({
    name: 'qr_creator_security_events_total',
    help: 'Security events by their stable name (the security log); unknown names as "other".',
    labelNames: ['event'],
    registers,
  });
  for (const event of [...SECURITY_EVENTS, 'other']) securityEvents.inc({ event }, 0);
  const mails = new prom.Counter({
    name: 'qr_creator_mails_total',
    help: 'Mails by outcome: sent, failed (to be retried), retried (a later try), given-up.',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of MAIL_OUTCOMES) mails.inc({ outcome }, 0);
  const signals: OpsSignals = {
    securityEvent(event) {
      securityEvents.inc({ event: SECURITY_EVENTS.has(event) ? event : 'other' });
    },
    mail(outcome) {
      mails.inc({ outcome: MAIL_OUTCOMES.has(outcome) ? outcome : 'other' });
    },
  };

  const batchSize = new prom.Histogram({
    name: 'qr_creator_scan_batch_size',
    help: 'Scans written per transaction (group commit).',
    buckets: SCAN_BATCH_SIZE_BUCKETS,
    registers,
  });
  const batchDuration = new prom.Histogram({
    name: 'qr_creator_scan_batch_duration_seconds',
    help: 'Database time of one scan batch: its transaction (raw rows and rollups), retries included.',
    buckets: DB_DURATION_BUCKETS,
    registers,
  });
  let scanSource: ScanSource | undefined;
  new prom.Gauge({
    name: 'qr_creator_scan_queue_depth',
    help: 'Scans accepted and not yet committed: queued, or in the batch being written.',
    registers,
    collect() {
      this.set(scanSource?.queueDepth() ?? 0);
    },
  });
  // Throttled and refused scans are counted here, from the committed batch, after its scans are
  // answered: the redirect itself does no more than before.
  const refusedCounts = new Array<number>(refusedLabel.length).fill(0);
  const onBatch = (report: ScanBatchReport) => {
    if (report.stored > 0) scansRecorded.inc(report.stored);
    if (report.size > report.stored) scansFailed.inc(report.size - report.stored);
    batchSize.observe(report.size);
    batchDuration.observe(report.seconds);
    let throttled = 0;
    let refused = 0;
    for (const row of report.rows) {
      if (row.throttled) throttled += 1;
      else if (row.refused && refusedLabel[row.refused] !== undefined) {
        refusedCounts[row.refused]! += 1;
        refused += 1;
      }
    }
    if (throttled > 0) scansThrottled.inc(throttled);
    if (refused === 0) return;
    for (let code = 0; code < refusedCounts.length; code++) {
      const reason = refusedLabel[code];
      if (reason !== undefined && refusedCounts[code]! > 0) scansRefused.inc({ reason }, refusedCounts[code]);
      refusedCounts[code] = 0;
    }
  };

  let queryDuration: Histogram | undefined;
  let watchingPool = false;

  return {
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    observeRequest,
    signals,
    watchScans(scans) {
      scanSource = scans;
      const stop = scans.observe({ onBatch });
      return () => {
        stop();
        if (scanSource === scans) scanSource = undefined;
      };
    },
    watchPool(pool) {
      if (watchingPool) throw new Error('The metrics already watch a pool');
      watchingPool = true;
      const gauge = (name: string, help: string, read: () => number) =>
        new prom.Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read());
          },
        });
      gauge(
        'qr_creator_db_pool_connections',
        'PostgreSQL connections open in the pool.',
        () => pool.totalCount,
      );
      gauge(
        'qr_creator_db_pool_idle_connections',
        'PostgreSQL connections open and idle.',
        () => pool.idleCount,
      );
      gauge(
        'qr_creator_db_pool_waiting_clients',
        'Queries waiting for a free PostgreSQL connection.',
        () => pool.waitingCount,
      );
    },
    observeQuery: (event) => {
      // Created on first use: without a Kysely `log` hook there is nothing to show.
      queryDuration ??= new prom.Histogram({
        name: 'qr_creator_db_query_duration_seconds',
        help: 'Time of each query run through Kysely (errors included).',
        buckets: DB_DURATION_BUCKETS,
        registers,
      });
      queryDuration.observe(event.queryDurationMillis / 1000);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// GET /metrics on the app's own port: only with METRICS_TOKEN, and only for its Bearer.

/** Requests answered with the client's page by the not-found handler (rare: looked up only there). */
const appPages = new WeakSet<FastifyRequest>();

/** Labels this request `route="app"`: the client's index.html answered for a client route. */
export function countAsAppPage(req: FastifyRequest): void {
  appPages.add(req);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether `header` is `Bearer <token>` for the token `expected` is the digest of; constant time. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  // Digests have one length whatever was sent, so the comparison never depends on it.
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * GET /metrics, and the numbers behind it. With `metrics` (main.ts passes the ones it shares with the
 * METRICS_PORT server) or METRICS_TOKEN (then metrics of this app's own), every answered request is
 * recorded (method, route pattern, status, time) and the scan writer followed. /metrics answers only
 * the Bearer of METRICS_TOKEN (401 otherwise) and, without METRICS_TOKEN, 404 like an unknown path.
 * Without either, only that 404 is added: no hook, and prom-client is never loaded.
 *
 * Call it in buildApp before `ready()`; the hook covers the routes of every plugin, registered before
 * or after it. Returns the metrics in use, if any.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'metricsToken'>; scans: ScanSource },
  given?: Metrics,
): Metrics | undefined {
  const token = deps.config.metricsToken;
  const metrics = given ?? (token ? createMetrics() : undefined);

  if (metrics) {
    // A callback hook, no promise per request; routeOptions.url is the pattern (/r/:slug), never the
    // URL, so ids, slugs, tokens and query strings never become labels.
    app.addHook('onResponse', (req, reply, done) => {
      const pattern = req.routeOptions.url;
      const route =
        pattern === undefined
          ? appPages.has(req)
            ? APP_PAGE_ROUTE
            : undefined
          : pattern === STATIC_ROUTE_PATTERN
            ? STATIC_ROUTE
            : pattern;
      metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    const stopWatchingScans = metrics.watchScans(deps.scans);
    app.addHook('onClose', (_instance, done) => {
      stopWatchingScans();
      done();
    });
  }

  const expected = token ? digest(token) : null;
  app.get('/metrics', { exposeHeadRoute: false }, async (req, reply) => {
    if (!metrics || !expected) return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    if (!bearerMatches(req.headers.authorization, expected)) {
      return reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send({ message: 'A valid metrics token is required', code: 'UNAUTHORIZED' });
    }
    const body = await metrics.text();
    return reply.header('Content-Type', metrics.contentType).header('Cache-Control', 'no-store').send(body);
  });
  return metrics;
}

// ---------------------------------------------------------------------------------------------------
// METRICS_PORT: /metrics on a port of its own, without a token (bind it where only Prometheus reaches).

export interface MetricsServer {
  /** The port listened on (the one given, or the one chosen for port 0). */
  port: number;
  /** Stops listening and ends open connections (a scraper's keep-alive). */
  close: () => Promise<void>;
}

export async function startMetricsServer(
  port: number,
  host: string,
  metrics: Metrics,
  logger: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    metrics.text().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'metrics could not be collected');
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics failed\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error }, 'metrics server error'));
  const listening = (server.address() as AddressInfo).port;
  logger.info({ port: listening, host }, 'metrics listening (GET /metrics, no token)');

  return {
    port: listening,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
