import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import type { Db } from '../../db/database.js';
import { startPeriodic } from '../../periodic.js';
import { DAY_MS } from './rollup-model.js';
import { deleteScansById, findScanIdsBefore } from './scans.repository.js';

/** Rows per delete: small enough that a scan waiting to be written never waits long. */
const BATCH = 2_000;
const HOUR_MS = 60 * 60_000;

/** The oldest time a raw scan is kept, with SCAN_RETENTION_DAYS; null: kept forever. */
export function retentionCutoff(retentionDays: number | undefined, nowMs: number): Date | null {
  return retentionDays === undefined ? null : new Date(nowMs - retentionDays * DAY_MS);
}

/**
 * Deletes raw scans older than `before`, a small batch at a time with a pause between. Each batch's ids
 * are found by a read (readers never block the scan writer; in id order, so the oldest rows — the
 * first ids — are found without reading the rest), then deleted by id: the write lock is held for
 * milliseconds at a time. Rollups are not touched, so every chart and total keeps the old scans.
 * Answers how many were deleted.
 */
export async function deleteScansBefore(db: Db, before: Date, pauseMs = 20): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await findScanIdsBefore(db, before.getTime(), BATCH)).map((r) => r.id);
    if (ids.length > 0) {
      const result = await deleteScansById(db, ids);
      deleted += Number(result.numDeletedRows);
    }
    if (ids.length < BATCH) return deleted;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** With SCAN_RETENTION_DAYS: deletes older raw scans a minute after start and then every hour. */
export function startScanRetention(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
  firstRunMs = 60_000,
): () => void {
  const days = deps.config.scanRetentionDays;
  if (days === undefined) return () => undefined;
  const sweep = async () => {
    const deleted = await deleteScansBefore(deps.db, retentionCutoff(days, deps.clock.now().getTime())!);
    if (deleted > 0) log.info({ deleted, retentionDays: days }, 'old raw scans deleted');
  };
  return startPeriodic(sweep, {
    firstRunMs,
    everyMs: HOUR_MS,
    onError: (error) => log.error({ err: error }, 'deleting old raw scans failed'),
  });
}
