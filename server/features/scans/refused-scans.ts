import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { categoryOf, DAY_MS, timeOf, type ScanToStore } from './rollup-model.js';
import { refusalCodes } from '../../../src/qr/scan-outcome.js';
import { addRefusedScans, prepareRefusedUpsert } from './scans.repository.js';

export { refusalCodes, type RefusalReason } from '../../../src/qr/scan-outcome.js';

/**
 * Scans refused by a code's smart-redirect options (paused, not started, ended, over its scan limit:
 * server/features/redirect/smart-redirect.ts) are stored and rolled up like any other scan — the owner
 * sees the demand — with their reason in `qr_scans.refused`, and are also counted here per code and
 * UTC day (`refused_scans`: scans, of which bots), so that a code's served scans are its rollups'
 * total less these (scan-counts.ts).
 *
 * The owner's in-app scan test (GET /api/qr-codes/{id}/scan) is flagged `simulated`: it is in the
 * analytics like any scan, counted here (in `scans` and `simulated`) so that it never takes a place under
 * a scan limit, and left out of the scans "turned away". A simulated scan by a bot is not counted here
 * at all: bots never count towards a limit anyway.
 *
 * A scan that got the short link's password form (code 6) is stored and rolled up likewise — someone
 * scanned — and counted here (in `scans` and `password_forms`) so that it never takes a place under a
 * scan limit and is not among the scans turned away; a bot's is not counted here, like a bot's test.
 * The codes are shared with the details page (src/qr/scan-outcome.ts).
 */

interface RefusedRow {
  qr_code_id: number;
  day: number;
  scans: number;
  bots: number;
  simulated: number;
  password_forms: number;
}

/** A batch's refused scans summed per code and UTC day, in key order (so writers lock rows alike). */
export function refusedOf(rows: readonly ScanToStore[]): RefusedRow[] {
  const out = new Map<string, RefusedRow>();
  for (const row of rows) {
    if (row.throttled || !row.refused) continue;
    const bot = categoryOf(row.device) === 'Bot';
    const simulated = row.refused === refusalCodes.simulated;
    const passwordForm = row.refused === refusalCodes.password;
    if ((simulated || passwordForm) && bot) continue;
    const day = Math.floor(timeOf(row.timestamp) / DAY_MS);
    const key = `${row.qr_code_id}:${day}`;
    let r = out.get(key);
    if (!r)
      out.set(
        key,
        (r = { qr_code_id: row.qr_code_id, day, scans: 0, bots: 0, simulated: 0, password_forms: 0 }),
      );
    r.scans += 1;
    if (bot) r.bots += 1;
    if (simulated) r.simulated += 1;
    if (passwordForm) r.password_forms += 1;
  }
  return [...out.values()].sort((a, b) => a.qr_code_id - b.qr_code_id || a.day - b.day);
}

/** SQLite: the batch's refused counts, with prepared statements (inside the caller's transaction). */
export function nativeRefusedWriter(connection: SQLite.Database): (rows: readonly ScanToStore[]) => void {
  const upsert = prepareRefusedUpsert(connection);
  return (rows) => {
    for (const r of refusedOf(rows))
      upsert.run(r.qr_code_id, r.day, r.scans, r.bots, r.simulated, r.password_forms);
  };
}

/** Any database: the batch's refused counts (inside the caller's transaction). */
export async function writeRefusedScans(trx: Kysely<Database>, rows: readonly ScanToStore[]): Promise<void> {
  const refused = refusedOf(rows);
  if (refused.length === 0) return;
  await addRefusedScans(trx, refused);
}
