import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Dialect } from './db/create-db.js';
import type { Mailer } from './features/mail/mailer.js';
import type { ScanService } from './features/scans/scan.service.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Everything a request needs from the outside world; tests pass their own. */
export interface AppDeps {
  db: Db;
  dialect: Dialect;
  config: Config;
  mailer: Mailer;
  clock: Clock;
}

/** What buildApp adds at start-up: services with state of their own (the scan writer's queue). */
export interface RuntimeDeps extends AppDeps {
  scans: ScanService;
}
