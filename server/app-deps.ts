import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Mailer } from './features/mail/mailer.js';
import type { ScanService } from './features/scans/scan.service.js';

/**
 * Operational events counted by the metrics (when they are on): called where the event happens. A
 * security event is also logged at `warn` and audited by whoever calls this (server/security-log.ts).
 */
export interface OpsSignals {
  /** A security event by its stable name (`login.failed`, `account.locked`, `token.refused`, …). */
  securityEvent(event: string): void;
  /** A mail's fate: sent, failed (will be retried), retried (a later try), or given up. */
  mail(outcome: 'sent' | 'failed' | 'retried' | 'given-up'): void;
}

/** Everything a request needs from the outside world; tests pass their own. */
export interface AppDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  clock: Clock;
  /** Counters for operational events; absent without metrics (and in most tests). */
  signals?: OpsSignals;
}

/** What buildApp adds at start-up: services with state of their own (the scan writer's queue). */
export interface RuntimeDeps extends AppDeps {
  scans: ScanService;
}

/**
 * A request as services see it: the deps, the request's logger, and where it comes from. Services take
 * this (or SessionDeps), never the tRPC Context: the tRPC and REST contexts both extend it.
 */
export interface RequestDeps extends RuntimeDeps {
  log: FastifyBaseLogger;
  ip: string;
  userAgent: string | null;
  /** The request's Accept-Language header (the language a new account's mails are written in). */
  acceptLanguage?: string | null;
}

export interface CookieOptions {
  httpOnly: boolean;
  sameSite: 'lax';
  /** '/' for the session; a narrower path for a cookie of one link (a shared dashboard's password). */
  path: string;
  secure: boolean;
  maxAge?: number;
}

/** The slice of the HTTP layer that sessions need; the request's context provides it. */
export interface SessionCookies {
  read(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  clear(name: string, options: CookieOptions): void;
}

/** A request with its session: what sign-in, sign-out, two-factor and the account's sessions read. */
export interface SessionDeps extends RequestDeps {
  /** Hash of the current session token, when signed in (null for a bearer token's request). */
  sessionId: string | null;
  cookies: SessionCookies;
}
