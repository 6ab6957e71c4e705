/**
 * What a new dynamic code will print before it exists: its short link, `<origin>/r/` and a 7-letter slug
 * (server/features/qr/slug.ts), mixed case so the QR encoding mode (bytes) and length are those of the
 * real link. The designer's scan check decodes this stand-in until the code is created.
 */
export function standInShortLink(origin: string = window.location.origin): string {
  return `${origin}/r/Qz7xKp2`;
}
