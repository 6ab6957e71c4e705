import type { User } from '../../../src/auth/auth.schema.js';
import { readCustomization } from '../../../src/qr/customization.js';
import {
  describeChanges,
  historyMessages,
  readSnapshot,
  stateOf,
  versionKinds,
  type QrVersion,
  type VersionKind,
  type VersionSnapshot,
} from '../../../src/qr/history.js';
import { updateQrCodeInput, type QrCode } from '../../../src/qr/qr.schema.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { appError, parseInput, refuse } from '../../errors.js';
import { getQrCode, updateQrCode } from './qr.service.js';
import { findVersionOfCode, listVersionsOfCode } from './history.repository.js';

const kindOf = (kind: string): VersionKind =>
  (versionKinds as readonly string[]).includes(kind) ? (kind as VersionKind) : 'edited';

/** The caller's code's versions, newest first, each with what it changed against the one before it. */
export async function listQrHistory(deps: AppDeps, user: User, id: number): Promise<QrVersion[]> {
  const code = await getQrCode(deps, user, id);
  const rows = await listVersionsOfCode(deps.db, code.id);
  let previous: VersionSnapshot | null = null;
  const versions = rows.map((row): QrVersion => {
    const snapshot = readSnapshot(row.snapshot);
    const changes = previous ? describeChanges(code.type, previous, snapshot) : [];
    previous = snapshot;
    return {
      id: row.id,
      created: toIso(row.created),
      kind: kindOf(row.kind),
      actor:
        row.user_id !== null && row.username !== null ? { id: row.user_id, username: row.username } : null,
      restoredFrom: row.restored_from,
      state: stateOf(code.type, snapshot),
      changes,
    };
  });
  return versions.reverse();
}

/**
 * Brings back an earlier version of a dynamic code through the ordinary edit (the same checks: a version
 * whose content is no longer allowed is refused like an edit to it would be) and keeps the restore as a
 * new version. The password is left as it is: a version holds whether one was set, never the password.
 */
export async function restoreQrVersion(
  deps: AppDeps,
  user: User,
  input: { id: number; versionId: number },
): Promise<QrCode> {
  const code = await getQrCode(deps, user, input.id);
  const version = await findVersionOfCode(deps.db, code.id, input.versionId);
  if (!version) throw appError('NOT_FOUND', historyMessages.versionNotFound);
  if (!code.isDynamic) throw refuse('STATIC_CODE_NOT_EDITABLE', qrMessages.staticEdit);
  const snapshot = readSnapshot(version.snapshot);
  const changes = parseInput(updateQrCodeInput, {
    id: code.id,
    name: snapshot.name,
    content: snapshot.content,
    customization: readCustomization(snapshot.customization),
    // A version from before the code had redirect options had none.
    ...('redirectOptions' in code ? { redirectOptions: snapshot.redirectOptions ?? null } : {}),
  });
  return updateQrCode(deps, user, changes, { kind: 'restored', restoredFrom: version.id });
}
