import type { Config } from '../../config.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/db-errors.js';
import { anonymizeAddress, normalizeAddress } from './client-address.js';
import { deviceCategory } from './device.js';
import { createGeoLocator, type GeoLocator } from './geo.js';
import type { ScanToStore } from './rollup-model.js';
import { createScanRecorder, type ScanRecorder, type ScanRecorderObserver } from './scan-recorder.js';
import { createScanThrottle } from './scan-throttle.js';
import { createVisitorHasher } from './unique-scanners.js';
import { refusalCodes, type RefusalReason } from './refused-scans.js';
import { servedScanCounts } from './scan-counts.js';
import { sqliteConnectionOf } from '../../db/create-db.js';

export interface ScanClient {
  ip: string;
  userAgent: string | null | undefined;
  referrer: string | null | undefined;
}

export interface ScanService {
  /**
   * Writes one scan of a code (and its rollups); resolves when it is committed: true, or false when
   * the code was deleted meanwhile (by another request or instance), so there is nothing to count.
   * `refused`: why it was not served; `rule`: for a served scan, the rule that served it (1..N) or 0
   * for the code's own destination (src/qr/scan-outcome.ts).
   */
  record(
    code: { qrCodeId: number; ownerId: number },
    client: ScanClient,
    refused?: RefusalReason,
    rule?: number | null,
  ): Promise<boolean>;
  /** The client's country (ISO 3166 alpha-2), or null: for redirect rules (smart-redirect.ts). */
  countryOf(ip: string): string | null;
  close(): Promise<void>;
  /** Scans accepted and not yet committed (for the metrics). */
  queueDepth(): number;
  /** Deletes finished days' visitor salts and sets (unique-scanners.ts); the app runs it periodically. */
  sweepVisitorDays(): Promise<{ salts: number; visitors: number }>;
  /** Tells `observer` of every batch written from now on (the metrics); returns how to stop. */
  observe(observer: ScanRecorderObserver): () => void;
}

const clip = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

/** The scan's row is decided here, once: location and device category are not recomputed later. */
export function createScanService(
  deps: { db: Db; config: Config; clock: Clock },
  geo: GeoLocator,
  // With the background sweeps on, the app's background thread checkpoints a database file (app.ts).
  recorder: ScanRecorder = createScanRecorder(deps.db, { checkpointElsewhere: deps.config.backgroundSweeps }),
): ScanService {
  const throttle = createScanThrottle(deps.config.scansPerClientMinute);
  const visitors = createVisitorHasher(deps.db);
  const connection = sqliteConnectionOf(deps.db);
  const counts = connection ? servedScanCounts(connection) : undefined;
  return {
    async record(code, client, refused, rule) {
      const ip = normalizeAddress(client.ip);
      const nowMs = deps.clock.now().getTime();
      const address = deps.config.anonymizeIps ? anonymizeAddress(ip) : ip.slice(0, 64);
      // Decided before anything awaits: a served scan by a person counts towards the code's scan limit
      // at once, so two scans arriving together cannot both take its last place (scan-counts.ts).
      const excess = throttle.isExcess(code.qrCodeId, ip, client.userAgent, nowMs);
      const device = deviceCategory(client.userAgent);
      if (counts && !excess && !refused && device !== 'Bot') counts.add(code.qrCodeId);
      // From the address as stored: with ANONYMIZE_IPS a hash of the full one and today's salt would
      // give the zeroed octet back in 256 tries. A promise only at the first scan of a day (the day's
      // salt is read once), so no await otherwise.
      const hashed = excess ? null : visitors.hashOf(code.qrCodeId, address ?? '', client.userAgent, nowMs);
      const visitor = hashed instanceof Promise ? await hashed : hashed;
      // One object literal per kind of row: no spreads on the hot path.
      const row: ScanToStore = excess
        ? { owner_id: code.ownerId, qr_code_id: code.qrCodeId, timestamp: nowMs, throttled: true }
        : {
            owner_id: code.ownerId,
            qr_code_id: code.qrCodeId,
            timestamp: nowMs,
            user_agent: clip(client.userAgent, 512),
            ip_address: address,
            referrer: clip(client.referrer, 1024),
            location: geo.locate(ip),
            device,
            visitor,
            refused: refused ? refusalCodes[refused] : null,
            rule: rule ?? null,
          };
      try {
        await recorder.record(row);
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },
    countryOf: (ip) => geo.countryCode(normalizeAddress(ip)),
    close: () => recorder.close(),
    queueDepth: () => recorder.queueDepth(),
    sweepVisitorDays: () => visitors.sweep(deps.clock.now().getTime()),
    observe: (observer) => recorder.observe(observer),
  };
}

/** Started before the request deps exist (they include it), so it names only what it uses. */
export async function startScanService(deps: { db: Db; config: Config; clock: Clock }): Promise<ScanService> {
  return createScanService(deps, await createGeoLocator({ cityDbPath: deps.config.geoipCityDb }));
}
