import type { Db } from '../../db/database.js';
import type { VersionKind } from '../../../src/qr/history.js';

export interface NewVersion {
  qrCodeId: number;
  userId: number | null;
  created: string;
  kind: VersionKind;
  restoredFrom: number | null;
  /** JSON text. */
  snapshot: string;
}

const toRow = (v: NewVersion) => ({
  qr_code_id: v.qrCodeId,
  user_id: v.userId,
  created: v.created,
  kind: v.kind,
  restored_from: v.restoredFrom,
  snapshot: v.snapshot,
});

export async function insertVersions(db: Db, versions: readonly NewVersion[]): Promise<void> {
  if (versions.length === 0) return;
  await db.insertInto('qr_code_versions').values(versions.map(toRow)).execute();
}

/** The code's newest version's snapshot (JSON text), or undefined when it has none. */
export async function findLatestSnapshot(db: Db, qrCodeId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('qr_code_versions')
    .select('snapshot')
    .where('qr_code_id', '=', qrCodeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.snapshot;
}

/** A version of that code, or undefined: a version of another code is indistinguishable from a missing one. */
export function findVersionOfCode(db: Db, qrCodeId: number, versionId: number) {
  return db
    .selectFrom('qr_code_versions')
    .select(['id', 'snapshot'])
    .where('id', '=', versionId)
    .where('qr_code_id', '=', qrCodeId)
    .executeTakeFirst();
}

/** Every version of the code, oldest first, with its author's username (null once the account is gone). */
export function listVersionsOfCode(db: Db, qrCodeId: number) {
  return db
    .selectFrom('qr_code_versions as v')
    .leftJoin('users as u', 'u.id', 'v.user_id')
    .select(['v.id', 'v.user_id', 'u.username', 'v.created', 'v.kind', 'v.restored_from', 'v.snapshot'])
    .where('v.qr_code_id', '=', qrCodeId)
    .orderBy('v.id')
    .execute();
}
