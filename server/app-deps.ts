import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Mailer } from './features/mail/mailer.js';
import type { ScanService } from './features/scans/scan.service.js';

/** Everything a request needs from the outside world; tests pass their own. */
export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  clock: Clock;
}

/** What buildApp adds at start-up: services with state of their own (the scan writer's queue). */
export interface RuntimeDeps extends AppDeps {
  scans: ScanService;
}

/** A request as services see it: the deps, the request's logger, and where it comes from. */
export interface RequestDeps extends RuntimeDeps {
  log: FastifyBaseLogger;
  ip: string;
  userAgent: string | null;
}
