// Control characters (C0, DEL, C1: tab, line feed…) and the line and paragraph separators U+2028/2029.
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu;
// Format characters: bidi overrides, embeddings, isolates and marks (U+202A–202E, U+2066–2069, U+200E/F,
// U+061C), zero-width characters, the BOM, soft hyphens, tags. None shows, yet they change how the rest of a
// name reads: "invoice\u202Egnp.exe" shows as "invoiceexe.png". A lone surrogate (\p{Cs}) is no character.
const INVISIBLE = /[\p{Cf}\p{Cs}]/gu;

/**
 * A file name the app makes (downloads, archive entries), without what would hide or disguise part of it:
 * control characters and line or paragraph separators become a space, format characters (bidi controls,
 * zero-width characters…) and lone surrogates go, and the ends are trimmed. Everything else is kept, so
 * callers still apply their own rules (separators, reserved characters, length). '' when nothing is left.
 */
export function safeFileName(name: string): string {
  return name.replace(INVISIBLE, '').replace(BREAKS, ' ').trim();
}
