/**
 * Repeats in a bulk import: rows whose name, type and content (a dynamic code's destination) are those of
 * a code the caller already has, so importing the same file twice does not silently double every code.
 * The preview asks POST /api/qr-codes/bulk/repeats which rows repeat; the create call leaves them out
 * when told `repeats: "skip"` (checked again under the owner's lock) and creates them otherwise.
 */
import { z } from 'zod';
import type { User } from '../../../src/auth/auth.schema.js';
import { bulkCreateInput, repeatedRows } from '../../../src/qr/bulk.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { AppDeps } from '../../app-deps.js';
import { findRepeats } from './bulk.repository.js';

/** POST /api/qr-codes/bulk/repeats: the same codes as the create call (its other fields are not needed). */
export const bulkRepeatsInput = bulkCreateInput.pick({ codes: true });

export const bulkRepeatsAnswer = z.object({ repeats: repeatedRows });
export type BulkRepeatsAnswer = z.infer<typeof bulkRepeatsAnswer>;

/** Which of the codes repeat one of the caller's codes. Stores nothing. */
export async function checkBulkRepeats(
  deps: AppDeps,
  user: User,
  input: z.output<typeof bulkRepeatsInput>,
): Promise<BulkRepeatsAnswer> {
  const rows = input.codes.map((c) => ({ name: c.name, type: normalizeQrType(c.type), content: c.content }));
  return { repeats: await findRepeats(deps.db, user.id, rows) };
}
