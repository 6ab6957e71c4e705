import type { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';

export interface ShortLinkTarget {
  id: number;
  name: string;
  type: string;
  content: string;
  slug: string | null;
}

const compiled = new WeakMap<Db, CompiledQuery<ShortLinkTarget>>();

/**
 * The public short link's only lookup: one indexed read, never cached, so an edit applies to the
 * very next scan. It runs on every scan, so the query is built and compiled once per database and
 * then executed with the slug as its parameter.
 */
export async function findDynamicCodeBySlug(db: Db, slug: string): Promise<ShortLinkTarget | undefined> {
  let query = compiled.get(db);
  if (!query) {
    query = db
      .selectFrom('qr_codes')
      .select(['id', 'name', 'type', 'content', 'slug'])
      .where('slug', '=', '')
      .where('is_dynamic', '=', true)
      .compile();
    compiled.set(db, query);
  }
  // Parameters in order: slug, is_dynamic.
  const result = await db.executeQuery<ShortLinkTarget>({ ...query, parameters: [slug, true] });
  return result.rows[0];
}
