import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const SLUG_LENGTH = 7;

/** A short-link slug: 7 URL-safe characters from a 57-letter alphabet (≈ 40 random bits). */
export function generateSlug(): string {
  let slug = '';
  for (let i = 0; i < SLUG_LENGTH; i++) slug += ALPHABET[randomInt(ALPHABET.length)];
  return slug;
}
