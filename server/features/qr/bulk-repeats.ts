/**
 * Repeats in a bulk import: rows whose name, type and content (a dynamic code's destination) are those of
 * a code the caller already has, so importing the same file twice does not silently double every code.
 * The preview asks POST /api/qr-codes/bulk/repeats which rows repeat; the create call leaves them out
 * when told `repeats: "skip"` (checked again under the owner's lock) and creates them otherwise.
 */
import { z } from 'zod';
import type { User } from '../../../src/auth/auth.schema.js';
import { bulkCreateAnswer, bulkCreateInput } from '../../../src/qr/bulk.js';
import { normalizeQrType } from '../../../src/qr/qr-types.js';
import type { AppDeps } from '../../app-deps.js';
import { findRepeats } from './bulk.repository.js';

/**
 * What the create call does with a repeat. The default, 'create', is what the path did before repeats
 * were looked for, so API callers that do not send the field see no change; the app sends 'skip' unless
 * the user chose 'Create anyway'.
 */
export const bulkRepeatsChoice = z
  .enum(['skip', 'create'], { error: 'repeats must be "skip" or "create"' })
  .default('create')
  .meta({
    description:
      'What to do with rows whose name, type and content repeat a code you already have: skip leaves them out (listed in repeated), create creates them anyway (the default).',
  });
export type BulkRepeatsChoice = z.output<typeof bulkRepeatsChoice>;

const repeatedRows = z
  .array(
    z.object({
      row: z.number().int().meta({ description: 'The index of the code in `codes` (0-based).' }),
      id: z.number().int().meta({ description: 'The id of the code it repeats (the oldest such code).' }),
    }),
  )
  .meta({ description: 'Rows that repeat a code you already have (same name, type and content).' });

/** POST /api/qr-codes/bulk: the create call with the choice about repeats. */
export const bulkCreateWithRepeatsInput = bulkCreateInput.extend({ repeats: bulkRepeatsChoice });
export type BulkCreateWithRepeats = z.output<typeof bulkCreateWithRepeatsInput>;

/** Its answer: `repeated` lists the rows left out as repeats (empty unless repeats is 'skip'). */
export const bulkCreateWithRepeatsAnswer = bulkCreateAnswer.extend({ repeated: repeatedRows });
export type BulkCreateWithRepeatsAnswer = z.infer<typeof bulkCreateWithRepeatsAnswer>;

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
