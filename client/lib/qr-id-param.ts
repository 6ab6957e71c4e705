// The id in /edit-qr/12 and /qr-details/12, read by the route tree in the entry chunk. The same rule as
// qrIdFromText (src/qr/qr-id.ts; qr-id-param.test.ts holds them together) without zod: even zod's
// tree-shakable build put its 14 KB core (brotli) on every first load, the login form's included.

/** Ids are 32-bit integers in the database (QR_ID_MAX of src/qr/qr-id.ts). */
const MAX_ID = 2_147_483_647;

/** The code's id in an address: digits only, surrounding spaces allowed, 1 to MAX_ID; else null. */
export function qrIdFromParam(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return id >= 1 && id <= MAX_ID ? id : null;
}
