// A code's limits and what its image encodes, without zod (qr.schema.ts has the schemas and re-exports
// these), so the designer's first screen can use them before any check is loaded.
export const QR_NAME_MAX = 100;
export const QR_CONTENT_MAX = 4000;
export const FOLDER_NAME_MAX = 100;

/** What a code's image encodes: its short link when dynamic, else the payload itself. */
export function imageDataOf(code: { content: string; shortUrl: string | null }): string {
  return code.shortUrl ?? code.content;
}
