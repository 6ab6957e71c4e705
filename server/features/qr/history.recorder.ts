import { actorOf, type Owner } from '../workspaces/owner.js';
import { emitWebhookEvent, webhookCodeOf } from '../webhooks/webhooks.service.js';
import { recordActivity } from '../workspaces/activity.js';
import {
  readSnapshot,
  sameState,
  snapshotOf,
  type VersionKind,
  type VersionSnapshot,
} from '../../../src/qr/history.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso, type Db, type QrCodeRow } from '../../db/database.js';
import { toQrCode } from './qr.mapper.js';
import { ownShortLinks } from '../domains/short-domains.registry.js';
import { findLatestSnapshot, insertVersions } from './history.repository.js';

/** A write that is not a plain edit: a restore names the version it brought back. */
export interface VersionNote {
  kind: 'restored';
  restoredFrom: number;
}

/** The editable state of a stored code, read through its answer (so new fields of the answer come along). */
async function snapshotOfRow(db: Db, row: QrCodeRow): Promise<VersionSnapshot> {
  // The public URL only makes the short link, which is not part of a version.
  const snapshot = snapshotOf(toQrCode(row, ownShortLinks('')));
  if (!row.is_dynamic) return snapshot;
  // Its short domain by name ('' for the app's own address), for the history's "Short link" change.
  const domain =
    row.domain_id === null
      ? undefined
      : await db
          .selectFrom('short_domains')
          .select('hostname')
          .where('id', '=', row.domain_id)
          .executeTakeFirst();
  return { ...snapshot, domain: domain?.hostname ?? '' };
}

/** A code moved to another workspace (in the moving transaction): its state is unchanged. */
export async function recordMovedVersion(
  db: Db,
  actorId: number,
  row: QrCodeRow,
  now: string,
): Promise<void> {
  await insertVersions(db, [
    {
      qrCodeId: row.id,
      userId: actorId,
      created: now,
      kind: 'moved',
      restoredFrom: null,
      snapshot: (await findLatestSnapshot(db, row.id)) ?? JSON.stringify(await snapshotOfRow(db, row)),
    },
  ]);
}

/** The first version of codes just inserted (in the inserting transaction): their creation. */
export async function recordCreatedVersions(
  db: Db,
  actorId: number,
  rows: readonly QrCodeRow[],
  now: string,
): Promise<void> {
  const snapshots: string[] = [];
  for (const row of rows) snapshots.push(JSON.stringify(await snapshotOfRow(db, row)));
  await insertVersions(
    db,
    rows.map((row, i) => ({
      qrCodeId: row.id,
      userId: actorId,
      created: now,
      kind: 'created',
      restoredFrom: null,
      snapshot: snapshots[i]!,
    })),
  );
}

/**
 * After a write of `row` (inside its transaction): a new version when the code's state differs from its
 * newest version's, and always for a restore. A code that has no version yet (inserted by a path that
 * keeps none, such as the demo seed) first gets one 'created' version of its state before the write.
 */
async function recordChange(
  db: Db,
  actorId: number,
  before: QrCodeRow,
  row: QrCodeRow,
  now: string,
  note: VersionNote | undefined,
): Promise<void> {
  const after = await snapshotOfRow(db, row);
  const stored = await findLatestSnapshot(db, row.id);
  let previous: VersionSnapshot;
  if (stored === undefined) {
    previous = await snapshotOfRow(db, before);
    await insertVersions(db, [
      {
        qrCodeId: row.id,
        userId: before.user_id,
        created: toIso(before.updated),
        kind: 'created',
        restoredFrom: null,
        snapshot: JSON.stringify(previous),
      },
    ]);
  } else {
    previous = readSnapshot(stored);
  }
  const kind: VersionKind = note?.kind ?? 'edited';
  if (kind === 'edited' && sameState(row.type, previous, after)) return;
  await insertVersions(db, [
    {
      qrCodeId: row.id,
      userId: actorId,
      created: now,
      kind,
      restoredFrom: note?.restoredFrom ?? null,
      snapshot: JSON.stringify(after),
    },
  ]);
}

/**
 * Runs an edit's write and records its version in one transaction: the row's lock (PostgreSQL) or the
 * one writer (SQLite) keeps two edits at once from recording their versions in the other order.
 */
export function savingVersion(
  deps: AppDeps,
  owner: Owner,
  before: QrCodeRow,
  note: VersionNote | undefined,
  write: (db: Db) => Promise<QrCodeRow | undefined>,
): Promise<QrCodeRow | undefined> {
  const actor = actorOf(owner);
  return deps.db.transaction().execute(async (trx) => {
    const row = await write(trx);
    if (row) {
      const now = deps.clock.now();
      await recordChange(trx, actor.id, before, row, now.toISOString(), note);
      await recordActivity(trx, owner.id, actor, now, {
        action: note?.kind === 'restored' ? 'code.restored' : 'code.changed',
        targetType: 'code',
        targetId: row.id,
        targetLabel: row.name,
      });
      await emitWebhookEvent(trx, now, owner.id, 'code.updated', { code: webhookCodeOf(deps, row) });
    }
    return row;
  });
}
