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
  /** The short domain of its link (an import's choice); absent: the app's own address. */
  domainId?: number | null;
}

export interface BulkOwner {
  userId: number;
  /** Who creates them (their history's author): the owner, or the team member acting for a team. */
  actorId: number;
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
  /** How many rows are to be created (repeats already left out when they are skipped). */
  rows: number;
}

/** A row of a bulk call that repeats one of the owner's codes: the row's index and that code's id. */
export interface BulkRepeat {
  row: number;
  id: number;
}

/** The rows a bulk call inserted, and those it left out, each by its index in the call. */
export interface BulkInsertResult {
  /** The inserted codes, in the order of `taken`. */
  rows: QrCodeRow[];
  taken: number[];
  /** Rows left out because the plan is full (`fit` answered fewer than all). */
  overLimit: number[];
  /** Rows left out because they repeat a code the owner has (only when repeats are skipped). */
  repeats: BulkRepeat[];
  countBefore: number;
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

/** What makes two codes the same for an import: the same name, type and stored content. */
function repeatKey(code: { name: string; type: string; content: string }): string {
  return JSON.stringify([code.name, code.type, code.content]);
}

/**
 * The rows that repeat one of the owner's codes: same name, type and content (for a dynamic code, its
 * destination), whatever the folder, design or kind. Each row with the id of the oldest such code.
 */
export async function findRepeats(
  db: Db,
  userId: number,
  rows: readonly { name: string; type: string; content: string }[],
): Promise<BulkRepeat[]> {
  const owned = new Map<string, number>();
  const names = [...new Set(rows.map((r) => r.name))];
  for (const part of chunks(names, 500)) {
    const found = await db
      .selectFrom('qr_codes')
      .select(['id', 'name', 'type', 'content'])
      .where('user_id', '=', userId)
      .where('name', 'in', part)
      .orderBy('id')
      .execute();
    for (const code of found) {
      const key = repeatKey(code);
      if (!owned.has(key)) owned.set(key, code.id);
    }
  }
  return rows.flatMap((row, index) => {
    const id = owned.get(repeatKey(row));
    return id === undefined ? [] : [{ row: index, id }];
  });
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
 * lock as insertQrCodeOfOwner). With `skipRepeats`, rows that repeat one of the owner's codes are left
 * out first, under the same lock (the same file sent twice at once creates its codes once). `fit` then
 * sees the owner's state and answers how many of the remaining rows (the first ones) to insert, or
 * throws to refuse them all. Folders named by the inserted rows are found or created in the same
 * transaction.
 */
export async function insertQrCodesOfOwner(
  db: Db,
  owner: BulkOwner,
  rows: readonly BulkCodeRow[],
  fit: (state: BulkOwnerState) => number,
  options: {
    skipRepeats?: boolean;
    /** Runs last in the same transaction with the inserted rows (the webhooks' events: sent if and only if they commit). */
    afterInsert?: (trx: Db, inserted: readonly QrCodeRow[]) => Promise<void>;
  } = {},
): Promise<BulkInsertResult> {
  return db.transaction().execute(async (trx) => {
    await lockUserRow(trx, owner.userId);
    const folderFound =
      owner.folderId == null || (await findFolderOf(trx, owner.userId, owner.folderId)) !== undefined;
    const count = folderFound ? await countQrCodesOf(trx, owner.userId) : 0;
    const repeats = folderFound && options.skipRepeats ? await findRepeats(trx, owner.userId, rows) : [];
    const repeated = new Set(repeats.map((r) => r.row));
    const candidates = rows.flatMap((_, i) => (repeated.has(i) ? [] : [i]));
    const fitting = Math.max(0, fit({ count, folderFound, rows: candidates.length }));
    const takenRows = candidates.slice(0, fitting);
    const taken = takenRows.map((i) => rows[i]!);
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
        domain_id: r.domainId ?? null,
        created: owner.now,
        updated: owner.now,
      }));
      const returned = await trx.insertInto('qr_codes').values(values).returningAll().execute();
      // One statement's ids rise in the order of its rows (SQLite's rowids, PostgreSQL's sequence),
      // whatever order RETURNING lists them in.
      inserted.push(...returned.sort((a, b) => a.id - b.id));
      // Each code's first version (its history), in the same transaction.
      await recordCreatedVersions(trx, owner.actorId, returned, owner.now);
    }
    if (inserted.length > 0) await options.afterInsert?.(trx, inserted);
    return {
      rows: inserted,
      taken: takenRows,
      overLimit: candidates.slice(fitting),
      repeats,
      countBefore: count,
    };
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
