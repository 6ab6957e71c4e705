/** The one place that knows the vendors' unique-violation codes. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  // SQLite names a composite primary key's violation apart from a unique index's.
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** A row named a parent that is gone (say, a scan of a code deleted a moment before). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * PostgreSQL refuses text holding U+0000 (SQLite stores it): a client's input that reached a statement
 * with one. Answered as a 400, never a 500.
 */
export function isNulInTextError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === '22021' || code === '22P05') && typeof message === 'string' && /0x00|\\u0000/.test(message)
  );
}

export const nulInTextMessage = 'Text must not contain the NUL character (U+0000)';
