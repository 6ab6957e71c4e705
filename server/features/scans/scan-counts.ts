import type SQLite from 'better-sqlite3';
import { prepareServedScansRead } from './scans.repository.js';

/**
 * # A code's served scans, for its scan limit and "after N scans" rules
 *
 * What is counted: scans of the code by people that were served — every stored scan (throttled ones are
 * not stored) less bots (link previews, crawlers) and less scans refused by the code's own options
 * (paused, not started, ended, over the limit: refused-scans.ts), and less the owner's simulated scans
 * (the in-app scan test: in the analytics, but never a place under a limit).
 *
 * Where it comes from, without a database read per redirect beyond the code's own lookup:
 * - PostgreSQL: the same single statement that looks the code up adds this sum as a subquery (both
 *   tables are keyed by code first), only for codes whose options need it (`servedScansSql` of
 *   scans.repository.ts).
 * - SQLite: the count is kept in this process's memory, read once per code from the same sum when its
 *   short link first needs it, and incremented by the scan service (scan.service.ts) as each served scan
 *   is accepted — synchronously, before the request yields, so two scans arriving together cannot both
 *   take the last place under a limit. (One process owns a SQLite file: operations.md.)
 *
 * On PostgreSQL several instances each read the committed count, so scans answered at the same moment
 * by different instances may pass a limit by as many as were in flight.
 */

const COUNTS_MAX = 100_000;

export interface ServedScanCounts {
  /** The code's served scans: remembered, or read now (and remembered). */
  get(codeId: number): number;
  /** One more served scan of the code (ignored while not remembered: the next read sees it committed). */
  add(codeId: number): void;
  /** The code is gone (its rows too). */
  forget(codeId: number): void;
}

const counters = new WeakMap<SQLite.Database, ServedScanCounts>();

/** SQLite: the connection's in-memory counts (one per connection, shared by the redirect and the scans). */
export function servedScanCounts(connection: SQLite.Database): ServedScanCounts {
  const known = counters.get(connection);
  if (known) return known;
  const read = prepareServedScansRead(connection);
  const counts = new Map<number, number>();
  const counter: ServedScanCounts = {
    get(codeId) {
      const hit = counts.get(codeId);
      if (hit !== undefined) return hit;
      const count = Number(read.get(codeId, codeId));
      // A count read inside an open transaction may yet change by a rollback: used, not kept.
      if (!connection.inTransaction) {
        if (counts.size >= COUNTS_MAX) counts.clear();
        counts.set(codeId, count);
      }
      return count;
    },
    add(codeId) {
      const hit = counts.get(codeId);
      if (hit !== undefined) counts.set(codeId, hit + 1);
    },
    forget(codeId) {
      counts.delete(codeId);
    },
  };
  counters.set(connection, counter);
  return counter;
}

/** SQLite: the connection's counts if any short link asked for them yet; otherwise nothing to update. */
export function existingServedScanCounts(connection: SQLite.Database): ServedScanCounts | undefined {
  return counters.get(connection);
}
