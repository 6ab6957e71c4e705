import { createHash, randomBytes } from 'node:crypto';
import type { Db, FolderRow, QrCodeRow, UserRow } from '../db/database.js';
import { hashPassword } from '../features/auth/passwords.js';
import { writeScansWithRollups } from '../features/scans/scan-rollups.js';
import { insertUser } from '../features/users/users.repository.js';

// Rows written straight to the database: users, codes, folders and scans a test needs as its
// setting rather than as its subject.

/** The password of every user these helpers insert unless a test names another. */
export const TEST_PASSWORD = 'correct-horse-battery';

const hashes = new Map<string, Promise<string>>();

/**
 * Inserts a user straight into the database with a real argon2 hash (computed once per password),
 * for tests whose subject is not registration itself.
 */
export async function insertTestUser(
  db: Db,
  fields: { username: string; password?: string; isAdmin?: boolean; email?: string | null },
): Promise<UserRow> {
  const password = fields.password ?? TEST_PASSWORD;
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return insertUser(db, {
    username: fields.username,
    password: await hash,
    name: 'Inserted User',
    email: fields.email === undefined ? `${fields.username.toLowerCase()}@example.com` : fields.email,
    is_admin: fields.isAdmin ?? false,
    created_at: new Date().toISOString(),
  });
}

let rowSequence = 0;

/** A code row written straight to the database (for counts, limits and other users' objects). */
export async function insertQrRow(
  db: Db,
  fields: {
    userId: number;
    name?: string;
    type?: string;
    content?: string;
    isDynamic?: boolean;
    folderId?: number | null;
    created?: string;
    customization?: Record<string, unknown>;
  },
): Promise<QrCodeRow> {
  rowSequence += 1;
  const dynamic = fields.isDynamic ?? false;
  const created = fields.created ?? new Date().toISOString();
  return db
    .insertInto('qr_codes')
    .values({
      name: fields.name ?? `Inserted ${rowSequence}`,
      type: fields.type ?? 'url',
      content: fields.content ?? `https://example.com/inserted/${rowSequence}`,
      is_dynamic: dynamic,
      customization: JSON.stringify(fields.customization ?? {}),
      user_id: fields.userId,
      folder_id: fields.folderId ?? null,
      slug: dynamic ? `ins${rowSequence}`.padEnd(7, 'x') : null,
      created,
      updated: created,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` static url codes of one user in a single statement (cheap plan-limit setups). */
export async function insertManyQrRows(db: Db, userId: number, count: number): Promise<void> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `Bulk ${i + 1}`,
    type: 'url',
    content: `https://example.com/bulk/${i + 1}`,
    is_dynamic: false,
    customization: '{}',
    user_id: userId,
    folder_id: null,
    slug: null,
    created: now,
    updated: now,
  }));
  await db.insertInto('qr_codes').values(rows).execute();
}

export function insertFolderRow(db: Db, userId: number, name = 'Folder'): Promise<FolderRow> {
  return db
    .insertInto('folders')
    .values({ name, user_id: userId, created: new Date().toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `count` scans a minute apart, newest now, written with their rollups as the recorder writes them. */
export async function insertScans(db: Db, qrCodeId: number, count: number): Promise<void> {
  const { user_id: ownerId } = await db
    .selectFrom('qr_codes')
    .select('user_id')
    .where('id', '=', qrCodeId)
    .executeTakeFirstOrThrow();
  const rows = Array.from({ length: count }, (_, i) => ({
    owner_id: ownerId,
    qr_code_id: qrCodeId,
    timestamp: new Date(Date.now() - i * 60_000).toISOString(),
    user_agent: 'Mozilla/5.0',
    ip_address: `203.0.113.${i + 1}`,
    referrer: null,
    location: 'Berlin, DE',
    device: 'Mobile',
  }));
  await db.transaction().execute((trx) => writeScansWithRollups(trx, rows));
}

export function findQrRow(db: Db, id: number): Promise<QrCodeRow | undefined> {
  return db.selectFrom('qr_codes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A stored customization as an object (jsonb reads back parsed, SQLite text does not). */
export function storedCustomization(row: QrCodeRow): Record<string, unknown> {
  return (
    typeof row.customization === 'string' ? JSON.parse(row.customization) : row.customization
  ) as Record<string, unknown>;
}

/** An import of one Shlink link waiting for its decisions, kept for a day (a path's `:id` in the matrices). */
export async function insertLinkImportRow(db: Db, userId: number, id: string): Promise<string> {
  const link = {
    slug: `imported-${id}`.slice(0, 60).replace(/[^A-Za-z0-9_-]/g, '-'),
    destination: 'https://example.com/imported',
    title: 'Imported',
    createdAt: null,
    tags: [],
    domain: null,
    visitCount: 0,
    shortUrl: null,
  };
  await db
    .insertInto('link_imports')
    .values({
      id,
      user_id: userId,
      source: 'shlink',
      origin: 'short-urls.csv',
      api_url: null,
      api_key: null,
      links: JSON.stringify([link]),
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    .execute();
  return id;
}

/** A webhook of the workspace with one delivered ping (a path's `:id` and `:deliveryId` in the matrices). */
export async function insertWebhookRow(
  db: Db,
  ownerId: number,
): Promise<{ webhookId: number; deliveryId: number }> {
  const now = new Date().toISOString();
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({
      owner_id: ownerId,
      created_by: ownerId,
      // Refused at once as a private address (no DNS, no wait) when a cell sends a test or redelivers.
      url: 'http://127.0.0.1:9/matrix',
      events: '["scan"]',
      secret: 'whsec_matrix',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: endpoint.id,
      event_types: 'ping',
      events: 1,
      payload: '{"events":[]}',
      state: 'succeeded',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { webhookId: Number(endpoint.id), deliveryId: Number(delivery.id) };
}

/** A live shared-dashboard link to one of the user's codes (a path's `:id` in the matrices). */
export async function insertAnalyticsShareRow(
  db: Db,
  userId: number,
  qrCodeId: number,
): Promise<{ id: number; token: string }> {
  const token = randomBytes(24).toString('base64url');
  const row = await db
    .insertInto('analytics_shares')
    .values({
      owner_id: userId,
      created_by: userId,
      qr_code_id: qrCodeId,
      folder_id: null,
      token,
      token_hash: createHash('sha256').update(token).digest('hex'),
      password_hash: null,
      expires_at: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, token };
}
