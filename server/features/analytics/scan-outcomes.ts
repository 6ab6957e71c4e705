import { z } from 'zod';
import {
  qrCodeAnalyticsSchema,
  scanHistoryRowSchema,
  type QrCodeAnalytics,
} from '../../../src/analytics/analytics.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import {
  outcomeOfStored,
  scanOutcomeSchema,
  type OutcomeCount,
  type ScanOutcome,
  type ScanOutcomes,
} from '../../../src/qr/scan-outcome.js';
import type { AppDeps } from '../../app-deps.js';
import { getQrCode } from '../qr/qr.service.js';
import { retentionCutoff } from '../scans/scan-retention.js';
import { countScanOutcomesOfCode, countServedScansOfCode } from './analytics.repository.js';

/**
 * What each scan of a code led to (src/qr/scan-outcome.ts), for its details page: a Destination in every
 * row of the scan history, and the scans per outcome (rule N, default, password form, refused by pause,
 * schedule or limit) with how much of its scan limit is used.
 */

/** A scan history row with its outcome. */
export const scanHistoryRowWithOutcomeSchema = scanHistoryRowSchema.extend({ outcome: scanOutcomeSchema });
export type ScanHistoryRowWithOutcome = z.infer<typeof scanHistoryRowWithOutcomeSchema>;
export const qrCodeAnalyticsWithOutcomesSchema = qrCodeAnalyticsSchema.extend({
  scans: z
    .array(scanHistoryRowWithOutcomeSchema)
    .meta({ description: 'One page of the scan history, newest first, each scan with where it went.' }),
});
export type QrCodeAnalyticsWithOutcomes = Omit<QrCodeAnalytics, 'scans'> & {
  scans: (QrCodeAnalytics['scans'][number] & { outcome: ScanOutcome })[];
};

/** Outcomes in the order the page lists them: rules by number, the default, then the rest. */
const order: Record<ScanOutcome['kind'], number> = {
  rule: 0,
  default: 1,
  unknown: 2,
  password: 3,
  paused: 4,
  'not-started': 5,
  ended: 6,
  limit: 7,
  simulated: 8,
};

/** One code's scans per outcome and its served scans; 404 unless the caller owns it. */
export async function getQrCodeOutcomes(
  deps: AppDeps,
  user: User,
  id: number,
  options: { excludeBots: boolean },
): Promise<ScanOutcomes> {
  await getQrCode(deps, user, id);
  const from = retentionCutoff(deps.config.scanRetentionDays, deps.clock.now().getTime());
  const [rows, servedScans] = await Promise.all([
    countScanOutcomesOfCode(deps.db, id, {
      fromMs: from ? from.getTime() : null,
      excludeBots: options.excludeBots,
    }),
    countServedScansOfCode(deps.db, id),
  ]);
  const byKey = new Map<string, OutcomeCount>();
  for (const row of rows) {
    const outcome = outcomeOfStored(row.refused, row.rule);
    const key = `${outcome.kind}:${outcome.rule ?? ''}`;
    const known = byKey.get(key);
    if (known) known.count += row.n;
    else byKey.set(key, { ...outcome, count: row.n });
  }
  const outcomes = [...byKey.values()].sort(
    (a, b) => order[a.kind] - order[b.kind] || (a.rule ?? 0) - (b.rule ?? 0),
  );
  return { outcomes, from: from ? from.toISOString() : null, servedScans };
}
