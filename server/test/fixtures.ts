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
