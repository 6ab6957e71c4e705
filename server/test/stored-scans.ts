import type { DeviceCategory } from '../../src/analytics/analytics.schema.js';
import type { Db } from '../db/database.js';
import { deviceOfCode } from '../features/scans/scan-columns.js';

/** A raw scan as stored, its lean columns read back (dictionaries joined, time as ISO text). */
export interface StoredScan {
  id: number;
  qr_code_id: number;
  timestamp: string;
  ms: number;
  user_agent: string | null;
  ip_address: string | null;
  referrer: string | null;
  location: string | null;
  device: DeviceCategory;
}

/** The raw scans (of one code, when given), in the order they were stored. */
export async function storedScans(db: Db, codeId?: number): Promise<StoredScan[]> {
  let query = db
    .selectFrom('qr_scans as s')
    .leftJoin('scan_user_agents as a', 'a.id', 's.user_agent_id')
    .leftJoin('scan_referrers as r', 'r.id', 's.referrer_id')
    .leftJoin('scan_locations as l', 'l.id', 's.location_id')
    .select([
      's.id',
      's.qr_code_id',
      's.at',
      'a.value as user_agent',
      's.ip_address',
      'r.value as referrer',
      'l.value as location',
      's.device',
    ])
    .orderBy('s.id');
  if (codeId !== undefined) query = query.where('s.qr_code_id', '=', codeId);
  return (await query.execute()).map(({ at, device, ...row }) => ({
    ...row,
    timestamp: new Date(Number(at)).toISOString(),
    ms: Number(at),
    device: deviceOfCode(device),
  }));
}
