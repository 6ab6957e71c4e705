import fs from 'node:fs';
import { isIPv4 } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps, RuntimeDeps } from './app-deps.js';
import { closeSpreadsheetReaders } from './features/qr/bulk-parse.js';
import { withMailLog } from './features/mail/mailer.js';
import { startMailRetrier, withMailQueue } from './features/mail/mail-queue.service.js';
import { registerOidcRoutes } from './features/auth/oidc.js';
import { startSsoRecheck } from './features/auth/sso-recheck.js';
import { registerRedirectRoutes } from './features/redirect/redirect.routes.js';
import { startScanService, type ScanService } from './features/scans/scan.service.js';
import { sendRestError } from './rest/rest-errors.js';
import { startNotificationJobs } from './features/notifications/notifications.service.js';
import { startDestinationChecks } from './features/destination-checks/destination-checks.service.js';
import { startWebhooks, WEBHOOK_FEED } from './features/webhooks/webhooks.service.js';
import { countStoredScans, newScanCounter, scanRushGate } from './background/scan-pace.js';
import { ensureFeed } from './features/scan-feed/scan-feed.js';
import { startBackgroundThread } from './background/background-thread.js';
import { sqliteConnectionOf } from './db/create-db.js';
import { FEED_NAME as FORWARDING_FEED, startForwarding } from './features/forwarding/forwarding.service.js';
import { startScanCheckSweeper } from './features/qr/scan-verdicts.js';
import { startUploadSweep } from './features/uploads/uploads.service.js';
import { startScanRetention } from './features/scans/scan-retention.js';
import { startIdempotencySweep } from './features/idempotency/idempotency.js';
import { startVisitorSweep } from './features/scans/unique-scanners.js';
import { countAsAppPage, createMetrics, registerMetrics, type Metrics } from './ops/metrics.js';
import { lazyRequestLogger, registerRequestLog } from './ops/request-log.js';
import { trackShutdown } from './ops/shutdown.js';
import { registerApiDocs } from './rest/api-docs.js';
import { restPlugin } from './rest/rest-plugin.js';
import { appRouter, type AppRouter } from './trpc/app-router.js';
import { createContext } from './trpc/context.js';
import { startPeriodic } from './periodic.js';
import { shortDomainOf, shortDomainRewrite } from './features/domains/short-domain-host.js';
import { hostOf, REFRESH_MS, reloadShortDomains } from './features/domains/short-domains.registry.js';

// One level below the root both as source (server/app.ts) and as the bundle (dist/server.mjs).
export const defaultClientDir = fileURLToPath(new URL('../dist/client', import.meta.url));

export interface BuildAppOptions extends AppDeps {
  /** Checks the database (readiness); defaults to a trivial query through Kysely. */
  ping?: () => Promise<void>;
  /** A pino logger; by default one at the configured level. */
  logger?: FastifyBaseLogger;
  /** The built client; when its index.html is missing only the API is served. */
  clientDir?: string;
  /** The scan writer; by default one with the offline location database. */
  scans?: ScanService;
  /** Prometheus metrics shared with the METRICS_PORT server; by default, with METRICS_TOKEN, the app's own. */
  metrics?: Metrics;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Paths that can only be files of the built client: everything under /assets/, and any path whose last
 * segment has an extension (no client route has one). When no such file exists they answer 404, not the
 * client's page: a stale chunk after an upgrade then fails as a missing file, not as HTML parsed as
 * JavaScript.
 */
const FILE_PATH = /^\/assets\/|\.[A-Za-z0-9]{1,10}$/;

const runtimeDeps = new WeakMap<FastifyInstance, RuntimeDeps>();

/** The deps an app built by buildApp gives its requests (signals and the logging mailer included). */
export function runtimeDepsOf(app: FastifyInstance): RuntimeDeps {
  const deps = runtimeDeps.get(app);
  if (!deps) throw new Error('Not an app built by buildApp');
  return deps;
}

/** A Referer's origin; 'null' (foreign to every origin) when it is no absolute URL. */
function originOf(referer: string): string {
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** The host (with its port) of an origin or URL; '' when it is none. */
function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

/** `TRUST_PROXY`: "true", a hop count, or a comma-separated list of addresses/CIDRs. */
function trustProxyOption(
  value: string | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (!value) return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return (_address, hop) => hop < Number(value);
  const list = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  // Plain IPv4 addresses (the usual "127.0.0.1"): one set lookup per hop. The list form parses every
  // address it is asked about with ipaddr.js, on every request, each scan included. Its IPv4-mapped
  // IPv6 spelling is the same peer, as the list form has it.
  if (list.every((v) => isIPv4(v))) {
    const trusted = new Set(list);
    return (address) =>
      trusted.has(address) || (address.startsWith('::ffff:') && trusted.has(address.slice(7)));
  }
  return list;
}

/** The whole HTTP application, without listening: tests inject into it, main.ts listens. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { ping, logger, clientDir = defaultClientDir, scans, metrics: shared, ...given } = options;
  // Prometheus: the ones shared with METRICS_PORT, else with METRICS_TOKEN the app's own, else none.
  const metrics = shared ?? (given.config.metricsToken ? createMetrics() : undefined);
  const signals = given.signals ?? metrics?.signals;
  const counted = { ...given, ...(signals ? { signals } : {}) };
  // Every mail is written to the mail log that /admin shows; one that fails is queued and tried again.
  const appDeps: AppDeps = {
    ...counted,
    mailer: withMailQueue(
      withMailLog(given.mailer, given.db, given.config.smtpUrl ? 'smtp' : 'outbox', () => given.clock.now()),
      { ...counted, log: () => app.log },
    ),
  };
  const deps: RuntimeDeps = { ...appDeps, scans: scans ?? (await startScanService(appDeps)) };
  // Short domains (go.example.com/<slug>): read now and kept fresh; a request's Host picks its domain.
  const shortDomains = await reloadShortDomains(deps.db);
  const shutdown = trackShutdown();
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: { level: deps.config.logLevel } }),
    // Each request's logger is made when it first writes a line (most never do).
    childLoggerFactory: lazyRequestLogger,
    trustProxy: trustProxyOption(deps.config.trustProxy),
    routerOptions: { maxParamLength: 5000 },
    rewriteUrl: shortDomainRewrite(shortDomains, hostOf(new URL(deps.config.publicUrl).host)),
    bodyLimit: 1024 * 1024,
    // No line per request (registerRequestLog writes ours), nor per request refused while closing.
    logController: shutdown.logController,
  });
  runtimeDeps.set(app, deps);
  shutdown.register(app);
  registerRequestLog(app, deps.config);
  // Prometheus: requests by route pattern, the scan writer, the process; GET /metrics for METRICS_TOKEN.
  registerMetrics(app, deps, metrics);

  // Every error outside tRPC, including Fastify's own (bad JSON, media type, size), takes one shape.
  // Set before any route: Fastify captures the handler when a route is added.
  app.setErrorHandler((error, req, reply) => sendRestError(error, req, reply));

  // Only JSON bodies (and, for uploads, multipart): no form-encoded or text/plain CSRF vectors.
  app.removeContentTypeParser('text/plain');

  const publicOrigin = new URL(deps.config.publicUrl).origin;
  // Callback-style hooks: they run on every request, including each scan, so no promise per call.
  app.addHook('onRequest', (req, reply, done) => {
    if (SAFE_METHODS.has(req.method)) return done();
    // A token call without cookies carries no ambient credential a foreign page could ride on.
    if (req.headers.authorization?.startsWith('Bearer ') && !req.headers.cookie) return done();
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const ownOrigin = `${req.protocol}://${req.headers.host ?? ''}`;
    // A short domain's password form, posted from its own page: behind a proxy ending TLS without
    // TRUST_PROXY, the request's protocol is not the page's, so its host decides.
    const domain = shortDomainOf(req);
    const foreign = (o: string) =>
      o !== publicOrigin && o !== ownOrigin && !(domain && hostOf(originHost(o)) === domain.hostname);
    const foreignOrigin = origin !== undefined && foreign(origin);
    // A browser that sends neither header still names the page it posts from: with cookies along, a
    // foreign Referer is a foreign page. No Referer at all (curl, scripts) is let through as before.
    const referer = req.headers.referer;
    const foreignReferer =
      origin === undefined &&
      site === undefined &&
      req.headers.cookie !== undefined &&
      referer !== undefined &&
      foreign(originOf(referer));
    if (foreignOrigin || foreignReferer || (origin === undefined && site === 'cross-site')) {
      void reply.status(403).send({ message: 'Cross-origin request refused', code: 'CROSS_SITE_REFUSED' });
      return;
    }
    done();
  });

  app.addHook('onSend', (_req, reply, payload, done) => {
    void reply.header('X-Content-Type-Options', 'nosniff');
    if (!reply.hasHeader('Referrer-Policy'))
      void reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !reply.hasHeader('Content-Security-Policy')) {
      void reply.header('X-Frame-Options', 'DENY');
      void reply.header(
        'Content-Security-Policy',
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https: http:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'",
      );
    }
    done(null, payload);
  });

  await app.register(fastifyCookie);

  // tRPC takes JSON only: its adapter would also parse multipart and form bodies, a way for a foreign
  // page's form to reach a procedure without the JSON content type a cross-origin form cannot send.
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'POST' || !req.url.startsWith('/trpc/')) return done();
    const type = req.headers['content-type'] ?? '';
    if (/^application\/json\s*(;|$)/i.test(type)) return done();
    void reply.status(415).send({
      message: 'Request body must be JSON (Content-Type: application/json)',
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => createContext(deps, req, res),
      onError: ({ error, path: procedure }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error, procedure }, 'tRPC error');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  await app.register(restPlugin(deps));
  registerApiDocs(app);
  registerRedirectRoutes(app, deps);
  // Sign-in with the company's accounts (SSO_CONFIG): the OpenID Connect round trip, and sessions
  // checked again with their provider so that someone removed from the directory is signed out.
  if (deps.config.sso) {
    if (deps.config.sso.oidc.length > 0) registerOidcRoutes(app, deps);
    const stopSsoRecheck = startSsoRecheck(deps, app.log);
    app.addHook('onClose', () => stopSsoRecheck());
  }
  // Domains another instance added, changed or removed: seen here within REFRESH_MS.
  const stopDomainRefresh = startPeriodic(() => reloadShortDomains(deps.db), {
    firstRunMs: REFRESH_MS,
    everyMs: REFRESH_MS,
    onError: (error) => app.log.warn({ err: error }, 'Short domains could not be read again'),
  });
  app.addHook('onClose', () => stopDomainRefresh());
  // Queued scans are committed before the database closes.
  app.addHook('onClose', () => deps.scans.close());
  // The spreadsheet readers' worker threads (POST /api/qr-codes/bulk/parse) end with the app.
  app.addHook('onClose', () => closeSpreadsheetReaders());
  // The scan mails of Settings → Notifications (digests, thresholds), sent apart from any request.
  const stopNotifications = startNotificationJobs(deps, app.log);
  app.addHook('onClose', () => stopNotifications());
  if (deps.config.backgroundSweeps) {
    // Mails whose first attempt failed are tried again until sent or given up.
    const stopMailRetrier = startMailRetrier(deps, app.log);
    app.addHook('onClose', () => stopMailRetrier());
    // Logos no code has used for a day are deleted, so abandoned designs do not fill the disk.
    const stopUploadSweep = startUploadSweep(deps, app.log);
    app.addHook('onClose', () => stopUploadSweep());
    const stopScanRetention = startScanRetention(deps, app.log);
    app.addHook('onClose', () => stopScanRetention());
    // Finished days' visitor salts and sets are deleted, so no stored value links a scanner across days.
    const stopVisitorSweep = startVisitorSweep(deps, app.log);
    app.addHook('onClose', () => stopVisitorSweep());
    // Idempotency keys (and the answers they replay) are kept 24 hours.
    const stopIdempotencySweep = startIdempotencySweep(deps, app.log);
    app.addHook('onClose', () => stopIdempotencySweep());
  }
  // Webhook deliveries (scans and events into signed POSTs, retried for a day; every instance takes part) and
  // scans forwarded to web analytics: for a SQLite file on a thread of their own at the lowest CPU priority,
  // so that redirects never give up CPU to them (background/background-thread.ts).
  const connection = sqliteConnectionOf(deps.db);
  const ownThread = deps.config.backgroundSweeps && connection !== undefined && !connection.memory;
  // Either way their turns wait while scans rush in (background/scan-pace.ts). Their places in the scans are
  // made now, before the app answers a scan: a consumer first made later starts at the newest scan, and a
  // scan stored before its first turn (a turn waits up to 10 s in a rush) would be taken for history.
  const scansStored = newScanCounter();
  if (deps.config.backgroundSweeps) {
    await ensureFeed(deps.db, WEBHOOK_FEED);
    if (deps.config.analyticsForwarding) await ensureFeed(deps.db, FORWARDING_FEED);
    const stopCounting = countStoredScans(deps.scans, scansStored);
    app.addHook('onClose', () => stopCounting());
  }
  if (ownThread) {
    const stopBackground = startBackgroundThread(deps.config, app.log, scansStored);
    app.addHook('onClose', () => stopBackground());
  } else if (deps.config.backgroundSweeps) {
    const stopWebhooks = startWebhooks(deps, app.log, scanRushGate(scansStored));
    app.addHook('onClose', () => stopWebhooks());
  }
  // Codes' destinations are checked at most once a day each; those failing twice are marked and mailed.
  if (deps.config.backgroundSweeps && deps.config.destinationChecks) {
    const stopDestinationChecks = startDestinationChecks(deps, app.log);
    app.addHook('onClose', () => stopDestinationChecks());
  }
  // Scans of workspaces that forward them to web analytics are sent a moment after they are stored.
  if (!ownThread && deps.config.backgroundSweeps && deps.config.analyticsForwarding) {
    const stopForwarding = startForwarding(deps, app.log, scanRushGate(scansStored));
    app.addHook('onClose', () => stopForwarding());
  }
  // Codes without a scan-safety verdict yet (older codes, bulk imports) are checked in the background.
  if (deps.config.backgroundScanChecks) {
    const stopScanChecks = startScanCheckSweeper(deps, app.log);
    app.addHook('onClose', () => stopScanChecks());
  }

  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await (ping ?? (() => deps.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute()))();
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', message: 'Database is not answering' });
    }
  });

  const indexHtml = path.join(clientDir, 'index.html');
  const hasClient = fs.existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      // One route for every file rather than a GET and a HEAD route per file of the build (650 routes
      // held 4 MiB of heap from start-up); a path that is no file falls through to the handler below.
      wildcard: true,
      index: false,
      // A folder (/, /assets/) is no file either: the client's page, not a 403.
      allowedPath: (pathname) => !pathname.endsWith('/'),
      // The build writes .br and .gz beside each asset: sent by Accept-Encoding, with Vary.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite's hashed assets never change; index.html must always be fresh.
        void reply.header(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url;
    const pathname = url.split('?', 1)[0] ?? '';
    if (
      url.startsWith('/api') ||
      url.startsWith('/trpc') ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      !hasClient
    ) {
      return reply.status(404).send({ message: `Not found: ${req.method} ${pathname}`, code: 'NOT_FOUND' });
    }
    // A file of the client that is not there (a chunk of an older build): a short 404, not the page.
    if (FILE_PATH.test(pathname)) {
      return reply
        .status(404)
        .header('Content-Type', 'text/plain; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(`Not found: ${pathname}\n`);
    }
    // Deep links: the client router decides, and shows 'Page Not Found' for unknown routes. The pages
    // of mailed links carry a token in their address until they load: no Referer may take it along.
    if (/^\/(reset-password|verify-email)(\?|$)/.test(url))
      void reply.header('Referrer-Policy', 'no-referrer');
    // A shared dashboard's address is its capability: never indexed, never sent along as a Referer.
    if (url.startsWith('/share/'))
      void reply.header('X-Robots-Tag', 'noindex').header('Referrer-Policy', 'no-referrer');
    countAsAppPage(req);
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  return app;
}
