import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { isLocalUrl } from '../../config.js';
import { storedAddress } from '../scans/client-address.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { visitorHash } from '../scans/unique-scanners.js';
import { DEMO_PASSWORD, DEMO_USERNAME } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { generateSlug } from '../qr/slug.js';
import { recordCreatedVersions } from '../qr/history.recorder.js';
import { countUsers, findUserByUsername, insertUser } from '../users/users.repository.js';
import { generatedAdminPassword, newAdminRow } from './admin-account.js';
import { findCodesOfUser, insertDemoCode, insertDemoCodeReturningId } from './seed.repository.js';

export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password.txt';

/**
 * First start: creates the first admin when none exists and, on a fresh database, the demo account with
 * two codes and two weeks of sample scans when config.seedDemo says so (by default only for a local
 * PUBLIC_URL: see isLocalUrl). The log says in one line whether it was made, and why.
 */
export async function bootstrap(deps: AppDeps, log: Pick<FastifyBaseLogger, 'info' | 'warn'>) {
  const { users, admins } = await countUsers(deps.db);
  if (admins === 0) await createFirstAdmin(deps, log);
  const { seedDemo, publicUrl } = deps.config;
  const local = isLocalUrl(publicUrl);
  const account = `${DEMO_USERNAME}/${DEMO_PASSWORD}`;
  if (users === 0) {
    if (seedDemo) await seedDemoAccount(deps);
    if (seedDemo && local)
      log.info(`Demo account ${account} created (local PUBLIC_URL; SEED_DEMO=false turns it off)`);
    else if (seedDemo)
      log.warn(
        `Demo account ${account} created (SEED_DEMO=true) although PUBLIC_URL ${publicUrl} is public: anyone can sign in with it`,
      );
    else if (local) log.info('No demo account (SEED_DEMO=false)');
    else log.info(`No demo account: PUBLIC_URL ${publicUrl} is public (SEED_DEMO=true creates one)`);
    return;
  }
  // Made by an earlier start (before a public PUBLIC_URL, or before demo accounts were local only).
  if (!seedDemo && !local && (await isDemoAccountOpen(deps))) {
    log.warn(
      `Demo account ${account} exists and anyone can sign in with it, although PUBLIC_URL ${publicUrl} is public: delete the user "${DEMO_USERNAME}" in /admin (or set SEED_DEMO=true to keep it)`,
    );
  }
}

/** Whether the demo user exists and still has the well-known password (a user may have taken the name). */
async function isDemoAccountOpen(deps: AppDeps): Promise<boolean> {
  const demo = await findUserByUsername(deps.db, DEMO_USERNAME);
  return demo !== undefined && (await verifyPassword(demo.password, DEMO_PASSWORD));
}

async function createFirstAdmin(deps: AppDeps, log: Pick<FastifyBaseLogger, 'info' | 'warn'>) {
  const { config } = deps;
  const generated = config.adminPassword === undefined;
  const password = config.adminPassword ?? generatedAdminPassword();
  if (await findUserByUsername(deps.db, config.adminUsername)) {
    throw new Error(
      `No admin exists and the username "${config.adminUsername}" belongs to a non-admin user: set ADMIN_USERNAME to a free name to create the first admin`,
    );
  }
  await insertUser(
    deps.db,
    await newAdminRow(
      { username: config.adminUsername, password, email: config.adminEmail ?? null },
      deps.clock.now(),
    ),
  );
  if (!generated) {
    log.info(`First admin "${config.adminUsername}" created with ADMIN_PASSWORD`);
    return;
  }
  const file = path.join(config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
  await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  log.warn(
    `First admin "${config.adminUsername}" created with the generated password ${password} (also in ${file}; shown only once)`,
  );
}

const sampleVisitors = [
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    device: 'Mobile',
    weight: 30,
  },
  {
    ua: 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    device: 'Mobile',
    weight: 26,
  },
  {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
    device: 'Mobile',
    weight: 14,
  },
  {
    ua: 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    device: 'Tablet',
    weight: 8,
  },
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    device: 'Desktop',
    weight: 10,
  },
  {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    device: 'Desktop',
    weight: 7,
  },
  { ua: 'WhatsApp/2.24.24.76 A', device: 'Bot', weight: 5 },
] as const;

const sampleLocations = [
  ['New York, United States', '203.0.113'],
  ['London, United Kingdom', '198.51.100'],
  ['Berlin, Germany', '192.0.2'],
  ['Paris, France', '203.0.113'],
  ['Toronto, Canada', '198.51.100'],
  ['Madrid, Spain', '192.0.2'],
  ['Sydney, Australia', '203.0.113'],
] as const;

/** Deterministic pseudo-random numbers, so every demo looks the same (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T extends { weight: number }>(items: readonly T[], r: number): T {
  const total = items.reduce((s, i) => s + i.weight, 0);
  let x = r * total;
  for (const item of items) if ((x -= item.weight) < 0) return item;
  return items[items.length - 1]!;
}

async function seedDemoAccount(deps: AppDeps) {
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const user = await insertUser(trx, {
      username: DEMO_USERNAME,
      password: await hashPassword(DEMO_PASSWORD),
      name: 'Demo User',
      email: 'demo@example.com',
      email_verified: true,
      created_at: new Date(now.getTime() - 15 * 86_400_000).toISOString(),
    });
    const created = new Date(now.getTime() - 14 * 86_400_000).toISOString();
    const dynamic = await insertDemoCodeReturningId(trx, {
      name: 'Café Menu',
      type: 'url',
      content: 'https://example.com/menu',
      is_dynamic: true,
      slug: generateSlug(),
      customization: JSON.stringify({
        foregroundColor: '#1F2937',
        backgroundColor: '#FFFFFF',
        errorCorrectionLevel: 'M',
        style: 'rounded',
        frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#1F2937' },
      }),
      user_id: user.id,
      created,
      updated: created,
    });
    await insertDemoCode(trx, {
      name: 'Guest Wi-Fi',
      type: 'wifi',
      content: 'WIFI:T:WPA;S:Cafe Guest;P:espresso2024;;',
      is_dynamic: false,
      customization: JSON.stringify({
        foregroundColor: '#000000',
        backgroundColor: '#FFFFFF',
        errorCorrectionLevel: 'M',
        style: 'square',
      }),
      user_id: user.id,
      created,
      updated: created,
    });
    // Their history starts with their creation, as a code made in the app.
    const demoCodes = await findCodesOfUser(trx, user.id);
    await recordCreatedVersions(trx, user.id, demoCodes, created);

    // About two weeks of scans: more at lunch and in the evening, more at weekends.
    const random = rng(20261122);
    const scans: ScanToStore[] = [];
    for (let daysAgo = 13; daysAgo >= 0; daysAgo--) {
      const day = new Date(now.getTime() - daysAgo * 86_400_000);
      // Unique scanners: each sample day's own salt, kept nowhere (unique-scanners.ts).
      const salt = randomBytes(32);
      const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
      const count = Math.round((weekend ? 14 : 8) + random() * 8);
      for (let i = 0; i < count; i++) {
        const hour = [8, 12, 12, 13, 17, 18, 19, 20, 21][Math.floor(random() * 9)]!;
        const at = new Date(day);
        at.setUTCHours(hour, Math.floor(random() * 60), Math.floor(random() * 60), 0);
        if (at > now) continue; // today: only the hours that have passed
        const visitor = pick(sampleVisitors, random());
        const [location, net] = sampleLocations[Math.floor(random() * sampleLocations.length)]!;
        const full = `${net}.${1 + Math.floor(random() * 250)}`;
        // Stored as a real scan's would be: masked with ANONYMIZE_IPS.
        const ip = storedAddress(deps.config, full);
        scans.push({
          owner_id: user.id,
          qr_code_id: dynamic.id,
          timestamp: at.toISOString(),
          user_agent: visitor.ua,
          ip_address: ip,
          referrer: null,
          location,
          device: visitor.device,
          visitor: visitor.device === 'Bot' ? null : visitorHash(salt, dynamic.id, ip, visitor.ua),
        });
      }
    }
    scans.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
    await writeScansWithRollups(trx, scans);
  });
}
