import type { Config } from '../../config.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { isForeignKeyViolation } from '../../db/db-errors.js';
import { anonymizeAddress, normalizeAddress } from './client-address.js';
import { deviceCategory } from './device.js';
import { createGeoLocator, type GeoLocator } from './geo.js';
import { createScanRecorder, type ScanRecorder, type ScanRecorderObserver } from './scan-recorder.js';
import { createScanThrottle } from './scan-throttle.js';

export interface ScanClient {
  ip: string;
  userAgent: string | null | undefined;
  referrer: string | null | undefined;
}

export interface ScanService {
  /**
   * Writes one scan of a code (and its rollups); resolves when it is committed: true, or false when
   * the code was deleted meanwhile (by another request or instance), so there is nothing to count.
   */
  record(code: { qrCodeId: number; ownerId: number }, client: ScanClient): Promise<boolean>;
  close(): Promise<void>;
  /** Scans accepted and not yet committed (for the metrics). */
  queueDepth(): number;
  /** Tells `observer` of every batch written from now on (the metrics); returns how to stop. */
  observe(observer: ScanRecorderObserver): () => void;
}

const clip = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

/** The scan's row is decided here, once: location and device category are not recomputed later. */
export function createScanService(
  deps: { db: Db; config: Config; clock: Clock },
  geo: GeoLocator,
  recorder: ScanRecorder = createScanRecorder(deps.db),
): ScanService {
  const throttle = createScanThrottle(deps.config.scansPerClientMinute);
  return {
    async record(code, client) {
      const ip = normalizeAddress(client.ip);
      const now = deps.clock.now();
      const scan = { owner_id: code.ownerId, qr_code_id: code.qrCodeId, timestamp: now.toISOString() };
      const row = throttle.isExcess(code.qrCodeId, ip, client.userAgent, now.getTime())
        ? { ...scan, throttled: true }
        : {
            ...scan,
            user_agent: clip(client.userAgent, 512),
            ip_address: deps.config.anonymizeIps ? anonymizeAddress(ip) : ip.slice(0, 64),
            referrer: clip(client.referrer, 1024),
            location: geo.locate(ip),
            device: deviceCategory(client.userAgent),
          };
      try {
        await recorder.record(row);
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },
    close: () => recorder.close(),
    queueDepth: () => recorder.queueDepth(),
    observe: (observer) => recorder.observe(observer),
  };
}

/** Started before the request deps exist (they include it), so it names only what it uses. */
export async function startScanService(deps: { db: Db; config: Config; clock: Clock }): Promise<ScanService> {
  return createScanService(deps, await createGeoLocator({ cityDbPath: deps.config.geoipCityDb }));
}
