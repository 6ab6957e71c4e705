import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { normalizeSlug, slugMessages, slugProblem, type SlugAvailability } from '../../../src/qr/slug.js';
import type { Db } from '../../db/database.js';
import { refuse } from '../../errors.js';

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const SLUG_LENGTH = 7;

/** A short-link slug: 7 URL-safe characters from a 57-letter alphabet (≈ 40 random bits). */
export function generateSlug(): string {
  let slug = '';
  for (let i = 0; i < SLUG_LENGTH; i++) slug += ALPHABET[randomInt(ALPHABET.length)];
  return slug;
}

/**
 * A code other than `except` that holds `slug` (lower case) as its slug or as an old one it still answers
 * at, compared in lower case — both read through an index on lower(slug). undefined: none.
 */
async function holderOf(db: Db, slug: string, except = 0): Promise<number | undefined> {
  const row = await db
    .selectFrom('qr_codes')
    .select('id')
    .where(sql<string>`lower(slug)`, '=', slug)
    .where('id', '!=', except)
    .unionAll(
      db
        .selectFrom('qr_slug_aliases')
        .select('qr_code_id as id')
        .where(sql<string>`lower(slug)`, '=', slug)
        .where('qr_code_id', '!=', except),
    )
    .executeTakeFirst();
  return row?.id;
}

/**
 * Whether `text` could be the back-half of code `forCodeId` (or of a new code): its own slug and the old
 * ones it still answers at are available to it. Taken or not is read at this moment; the write itself
 * checks again (`claimSlug`).
 */
export async function slugAvailability(db: Db, text: string, forCodeId?: number): Promise<SlugAvailability> {
  const slug = normalizeSlug(text);
  const problem = slugProblem(slug);
  if (problem)
    return { slug, status: problem === slugMessages.reserved ? 'reserved' : 'invalid', message: problem };
  return (await holderOf(db, slug, forCodeId)) === undefined
    ? { slug, status: 'available', message: slugMessages.available }
    : { slug, status: 'taken', message: slugMessages.taken };
}

/** The refusal of a back-half another link has. */
export const slugTaken = () => refuse('SLUG_TAKEN', slugMessages.taken);

/**
 * In the transaction that gives code `codeId` (inserted or edited) the slug `slug`: whether another code
 * holds it already, as its slug or an old one, in lower case. The unique index on qr_codes.slug refuses
 * the same text twice; this also refuses `Menu` beside `menu`, and a slug that is someone's old one.
 */
export async function slugHeldByAnother(trx: Db, slug: string, codeId: number): Promise<boolean> {
  return (await holderOf(trx, slug.toLowerCase(), codeId)) !== undefined;
}

/**
 * In the transaction that gives code `codeId` the chosen back-half `slug` (normalized and checked by the
 * input schema): refuses it when another code holds it; an old slug of this very code taken back stops
 * being an alias.
 */
export async function claimSlug(trx: Db, slug: string, codeId: number): Promise<void> {
  if (await slugHeldByAnother(trx, slug, codeId)) throw slugTaken();
  await trx
    .deleteFrom('qr_slug_aliases')
    .where('qr_code_id', '=', codeId)
    .where(sql<string>`lower(slug)`, '=', slug)
    .execute();
}

/**
 * In the transaction that changes code `codeId`'s slug away from `oldSlug`: when the code has scans, the
 * old slug keeps answering (it may be printed); a code never scanned frees it.
 */
export async function keepOldSlug(trx: Db, codeId: number, oldSlug: string, now: string): Promise<void> {
  const scanned = await trx
    .selectFrom('scan_code_days')
    .select('qr_code_id')
    .where('qr_code_id', '=', codeId)
    .limit(1)
    .executeTakeFirst();
  if (!scanned) return;
  await trx
    .insertInto('qr_slug_aliases')
    .values({ slug: oldSlug, qr_code_id: codeId, created: now })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
}

/** The old slugs the owner's codes still answer at, by code, oldest first. */
export async function oldSlugsOfOwner(db: Db, userId: number): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('qr_slug_aliases')
    .innerJoin('qr_codes', 'qr_codes.id', 'qr_slug_aliases.qr_code_id')
    .select(['qr_slug_aliases.qr_code_id as codeId', 'qr_slug_aliases.slug'])
    .where('qr_codes.user_id', '=', userId)
    .orderBy('qr_slug_aliases.created')
    .orderBy('qr_slug_aliases.slug')
    .execute();
  const byCode = new Map<number, string[]>();
  for (const { codeId, slug } of rows) byCode.set(codeId, [...(byCode.get(codeId) ?? []), slug]);
  return byCode;
}
