// A person's initials, apart from auth.schema.ts: the app's frame draws them, and loads no zod.

/** Avatar initials: up to two words of the name, else two letters of the username, else '?'. */
export function initialsOf(user: { name?: string | null; username?: string } | null | undefined) {
  if (!user) return '?';
  const words = (user.name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((w) => Array.from(w)[0] ?? '')
      .join('')
      .toUpperCase();
  }
  const fromUsername = Array.from(user.username ?? '')
    .slice(0, 2)
    .join('')
    .toUpperCase();
  return fromUsername || '?';
}
