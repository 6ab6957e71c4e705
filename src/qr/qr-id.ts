// A QR code's id: the one rule shared by the API's inputs and the client's addresses. It is written with
// zod's tree-shakable build because the client's route tree, which is in the entry chunk, checks the id
// in /edit-qr/12 and /qr-details/12; the rest of zod loads later with the pages that use it.
import * as z from 'zod/mini';

/** Ids are 32-bit integers in the database. */
export const QR_ID_MAX = 2_147_483_647;

/** A code's id: a positive whole number up to QR_ID_MAX. Text such as "12" (a path or query value) is read as a number. */
export const qrIdSchema = z.coerce
  .number({ error: 'Id must be a number' })
  .check(
    z.int('Id must be a whole number'),
    z.positive('Id must be a positive number'),
    z.maximum(QR_ID_MAX, 'Id is too large'),
  );

/**
 * An id as an address holds it or a user types it: digits only (no sign, decimals, exponent or hex),
 * surrounding spaces allowed, then qrIdSchema. Null when it is not a valid id.
 */
export function qrIdFromText(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const parsed = qrIdSchema.safeParse(trimmed);
  return parsed.success ? parsed.data : null;
}
