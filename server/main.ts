import { callerCwd, takeConfigOption, UsageError } from './ops/cli.js';

// The only file that reads the environment and listens. `node dist/server.mjs` (and the single
// executable) serves the app; with a command (`node dist/server.mjs backup`) it runs the command line
// instead (server/ops/cli-commands.ts) and exits with its code. Everything else is imported when it is
// needed, so that a command loads neither the web server nor its packages.
async function main(argv: string[]) {
  let args: string[];
  try {
    const taken = takeConfigOption(argv, callerCwd());
    args = taken.args;
    // Read by loadConfig, wherever it runs: the server's start or a command's.
    if (taken.configFile) process.env.CONFIG_FILE = taken.configFile;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (args.length > 0) {
    const { runCli } = await import('./ops/cli-commands.js');
    process.exit(await runCli(args));
  }
  await serve();
}

async function serve() {
  const [
    { default: pino },
    { buildApp },
    { systemClock },
    { ConfigError, loadConfig, trustProxyWarning },
    { createDb },
    { readMigrationState },
    { createMailer },
    { bootstrap },
    { underStartupLock },
    { privateDir },
    { createMetrics, startMetricsServer },
    { APP_VERSION },
    { NewerDatabaseError, databaseLabel, upgradeDatabase },
    { shutdownSummary },
  ] = await Promise.all([
    import('pino'),
    import('./app.js'),
    import('./clock.js'),
    import('./config.js'),
    import('./db/create-db.js'),
    import('./db/migrate.js'),
    import('./features/mail/mailer.js'),
    import('./features/seed/seed.js'),
    import('./db/startup-lock.js'),
    import('./private-files.js'),
    import('./ops/metrics.js'),
    import('./version.js'),
    import('./ops/upgrade.js'),
    import('./ops/shutdown.js'),
  ]);
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
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | undefined;
  const handle = createDb(config.databaseUrl, metrics ? { log: metrics.observeQuery } : {});
  if (metrics && handle.pool) metrics.watchPool(handle.pool);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    // The first line of every start: which build, on which Node, on which database, how far migrated.
    const state = await readMigrationState(handle.db).catch((error: unknown) => {
      logger.info(
        { version: APP_VERSION, node: process.version, database: databaseLabel(config.databaseUrl) },
        `QR Creator ${APP_VERSION} starting`,
      );
      throw error;
    });
    logger.info(
      {
        version: APP_VERSION,
        node: process.version,
        database: databaseLabel(config.databaseUrl),
        migrations: {
          applied: state.applied.length + state.unknown.length,
          pending: state.pending.length,
          last: state.last,
        },
      },
      `QR Creator ${APP_VERSION} starting`,
    );
    for (const warning of configWarnings) logger.warn(warning);
    const proxyWarning = trustProxyWarning(config);
    if (proxyWarning) logger.warn(proxyWarning);
    // Refuses a database a newer build upgraded, and copies a SQLite database before migrating it.
    const { applied } = await upgradeDatabase(handle, {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      now: () => systemClock.now(),
      state,
      note: (message, fields) => logger.info(fields ?? {}, message),
    });
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
    process.stderr.write(
      error instanceof NewerDatabaseError ? `${message}\n` : `QR Creator failed to start: ${message}\n`,
    );
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

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
