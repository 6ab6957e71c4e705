import type { Db, NewQrCodeRow, QrCodeRow } from '../../db/database.js';
import { findFolderOf } from '../folders/folders.repository.js';
import { countQrCodesOf } from './qr.repository.js';
import { lockUserRow } from '../users/users.repository.js';
import { recordCreatedVersions } from './history.recorder.js';

/**
 * Rows per INSERT: 10 columns × 250 rows = 2,500 bound values, far below SQLite's 32,766 and
 * PostgreSQL's 65,535, and few enough statements that 1,000 codes are four.
 */
const CHUNK = 250;

/** One code to insert; its folder by name, or none (then the call's `folderId`). */
export interface BulkCodeRow {
  name: string;
  type: string;
  content: string;
  isDynamic: boolean;
  slug: string | null;
  folderName: string | null;
}

export interface BulkOwner {
  userId: number;
  /** Where codes without a folder name go; null: the root. */
  folderId: number | null;
  /** The design every code gets, as stored (JSON). */
  customization: string;
  now: string;
}

/** What the owner holds when the codes would be added (as `OwnerState` of insertQrCodeOfOwner). */
export interface BulkOwnerState {
  count: number;
  /** False when `folderId` is not one of the owner's folders. */
  folderFound: boolean;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The key a folder name is matched by: the same folder whatever the case. */
export function folderKey(name: string): string {
  return name.trim().normalize('NFC').toLowerCase();
}

/**
 * The ids of the owner's folders named `names` (any case; the oldest of two such folders), creating
 * those that do not exist yet.
 */
async function folderIdsByName(db: Db, userId: number, names: readonly string[], now: string) {
  const ids = new Map<string, number>();
  if (names.length === 0) return ids;
  const existing = await db
    .selectFrom('folders')
    .select(['id', 'name'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  for (const folder of existing) {
    const key = folderKey(folder.name);
    if (!ids.has(key)) ids.set(key, folder.id);
  }
  const missing = new Map<string, string>();
  for (const name of names) {
    const key = folderKey(name);
    if (!ids.has(key) && !missing.has(key)) missing.set(key, name.trim());
  }
  for (const part of chunks([...missing.values()], CHUNK)) {
    const created = await db
      .insertInto('folders')
      .values(part.map((name) => ({ name, user_id: userId, created: now })))
      .returning(['id', 'name'])
      .execute();
    for (const folder of created) ids.set(folderKey(folder.name), folder.id);
  }
  return ids;
}

/**
 * Inserts many codes of one owner in one short transaction that holds the owner's row, so that
 * neither another bulk call nor a single create can slip past the plan limit meanwhile (the same
 * lock as insertQrCodeOfOwner). `fit` sees the owner's state first and answers how many of the rows
 * (the first ones) to insert, or throws to refuse them all. Folders named by the inserted rows are
 * found or created in the same transaction. Returns the inserted rows in the order given, and the
 * owner's count before them.
 */
export async function insertQrCodesOfOwner(
  db: Db,
  owner: BulkOwner,
  rows: readonly BulkCodeRow[],
  fit: (state: BulkOwnerState) => number,
): Promise<{ rows: QrCodeRow[]; countBefore: number }> {
  return db.transaction().execute(async (trx) => {
    await lockUserRow(trx, owner.userId);
    const folderFound =
      owner.folderId == null || (await findFolderOf(trx, owner.userId, owner.folderId)) !== undefined;
    const count = folderFound ? await countQrCodesOf(trx, owner.userId) : 0;
    const taken = rows.slice(0, Math.max(0, fit({ count, folderFound })));
    const folders = await folderIdsByName(
      trx,
      owner.userId,
      taken.flatMap((r) => (r.folderName ? [r.folderName] : [])),
      owner.now,
    );
    const inserted: QrCodeRow[] = [];
    for (const part of chunks(taken, CHUNK)) {
      const values: NewQrCodeRow[] = part.map((r) => ({
        name: r.name,
        type: r.type,
        content: r.content,
        is_dynamic: r.isDynamic,
        customization: owner.customization,
        user_id: owner.userId,
        folder_id: r.folderName ? (folders.get(folderKey(r.folderName)) ?? null) : owner.folderId,
        slug: r.slug,
        created: owner.now,
        updated: owner.now,
      }));
      const returned = await trx.insertInto('qr_codes').values(values).returningAll().execute();
      // One statement's ids rise in the order of its rows (SQLite's rowids, PostgreSQL's sequence),
      // whatever order RETURNING lists them in.
      inserted.push(...returned.sort((a, b) => a.id - b.id));
      // Each code's first version (its history), in the same transaction.
      await recordCreatedVersions(trx, owner.userId, returned, owner.now);
    }
    return { rows: inserted, countBefore: count };
  });
}

/** The owner's codes among `ids` (another user's id is simply not found), in no particular order. */
export async function findQrCodesOf(db: Db, userId: number, ids: readonly number[]): Promise<QrCodeRow[]> {
  const found: QrCodeRow[] = [];
  for (const part of chunks(ids, 500)) {
    found.push(
      ...(await db
        .selectFrom('qr_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', part)
        .execute()),
    );
  }
  return found;
}
