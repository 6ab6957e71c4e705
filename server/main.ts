import pino from 'pino';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig, trustProxyWarning } from './config.js';
import { createDb } from './db/create-db.js';
import { migrateToLatest } from './db/migrate.js';
import { createMailer } from './features/mail/mailer.js';
import { bootstrap } from './features/seed/seed.js';
import { underStartupLock } from './db/startup-lock.js';
import { privateDir } from './private-files.js';
import { createMetrics, startMetricsServer, type MetricsServer } from './ops/metrics.js';
import { shutdownSummary } from './ops/shutdown.js';

// The only file that reads the environment and listens.
async function main() {
  let config;
  const configWarnings: string[] = [];
  try {
    config = loadConfig(process.env, { warn: (warning) => configWarnings.push(warning) });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = pino({ level: config.logLevel });
  for (const warning of configWarnings) logger.warn(warning);
  const proxyWarning = trustProxyWarning(config);
  if (proxyWarning) logger.warn(proxyWarning);
  // DATA_DIR holds password and session hashes, uploads and mails: the owner's alone.
  try {
    privateDir(config.dataDir);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `QR Creator failed to start: DATA_DIR ${config.dataDir} cannot be created: ${message}\n`,
    );
    process.exit(1);
  }
  // Shared by the app (its requests, scans) and the METRICS_PORT server; none unless asked for.
  const metrics = config.metricsToken || config.metricsPort ? createMetrics() : undefined;
  let metricsServer: MetricsServer | undefined;
  const handle = createDb(config.databaseUrl, metrics ? { log: metrics.observeQuery } : {});
  if (metrics && handle.pool) metrics.watchPool(handle.pool);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    const applied = await migrateToLatest(handle.db);
    const deps = {
      db: handle.db,
      config,
      clock: systemClock,
      mailer: createMailer(config, logger),
    };
    app = await buildApp({ ...deps, ping: handle.ping, logger, metrics });
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    const log = app.log;
    // Instances started together must not both create the first admin and the demo account.
    await underStartupLock(handle.db, () => bootstrap(deps, log));
    await app.listen({ port: config.port, host: config.host });
    if (metrics && config.metricsPort)
      metricsServer = await startMetricsServer(config.metricsPort, config.host, metrics, app.log);
  } catch (error) {
    await handle.close().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`QR Creator failed to start: ${message}\n`);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app?.log.info({ signal }, 'shutting down: finishing requests in flight');
    try {
      await metricsServer?.close();
      await app?.close();
      await handle.close();
      if (app) app.log.info({ signal, ...shutdownSummary(app) }, 'stopped');
      process.exit(0);
    } catch (error) {
      app?.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

void main();
