import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** The statements of link imports (migrations/2026-12-08T0900-link-imports.ts). */

export interface NewImport {
  id: string;
  userId: number;
  source: string;
  origin: string;
  apiUrl: string | null;
  apiKey: string | null;
  links: string;
  createdAt: string;
  expiresAt: string;
}

export async function insertImport(db: Db, row: NewImport): Promise<void> {
  await db
    .insertInto('link_imports')
    .values({
      id: row.id,
      user_id: row.userId,
      source: row.source,
      origin: row.origin,
      api_url: row.apiUrl,
      api_key: row.apiKey,
      links: row.links,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** An import of this workspace that has not expired; another's is not found. */
export function findImportOf(db: Db, userId: number, id: string, now: string) {
  return db
    .selectFrom('link_imports')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Keeps the visits a file held, one row of the import each (JSON). */
export async function insertImportVisits(db: Db, importId: string, visits: ReadonlyMap<number, string>) {
  const entries = [...visits.entries()];
  for (let i = 0; i < entries.length; i += 200) {
    await db
      .insertInto('link_import_visits')
      .values(entries.slice(i, i + 200).map(([row, json]) => ({ import_id: importId, row, visits: json })))
      .execute();
  }
}

/** The visits kept for these rows of an import (JSON by row). */
export async function findImportVisits(db: Db, importId: string, rows: readonly number[]) {
  const map = new Map<number, string>();
  for (let i = 0; i < rows.length; i += 500) {
    const found = await db
      .selectFrom('link_import_visits')
      .select(['row', 'visits'])
      .where('import_id', '=', importId)
      .where('row', 'in', rows.slice(i, i + 500))
      .execute();
    for (const r of found) map.set(Number(r.row), r.visits);
  }
  return map;
}

export async function deleteImportOf(db: Db, userId: number, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('link_imports')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Imports past their day (their rows go by cascade). */
export async function deleteExpiredImports(db: Db, now: string): Promise<void> {
  await db.deleteFrom('link_imports').where('expires_at', '<=', now).execute();
}

/** Forgets the API key once an import has nothing left to fetch with it. */
export async function forgetImportKey(db: Db, id: string): Promise<void> {
  await db.updateTable('link_imports').set({ api_key: null }).where('id', '=', id).execute();
}

export interface ImportRowResultRow {
  row: number;
  status: string;
  code_id: number | null;
  slug: string | null;
  visits: number | null;
  message: string | null;
}

export function findImportRows(db: Db, importId: string): Promise<ImportRowResultRow[]> {
  return db
    .selectFrom('link_import_rows')
    .select(['row', 'status', 'code_id', 'slug', 'visits', 'message'])
    .where('import_id', '=', importId)
    .execute();
}

/**
 * Keeps the rows' results. A row made or overwritten stays so (a second call for it answers this result);
 * a skipped or failed one is replaced when the row is decided again.
 */
export async function saveImportRows(db: Db, importId: string, rows: readonly ImportRowResultRow[]) {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('link_import_rows')
      .values(rows.slice(i, i + 200).map((r) => ({ import_id: importId, ...r })))
      .onConflict((oc) =>
        oc
          .columns(['import_id', 'row'])
          .doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            code_id: eb.ref('excluded.code_id'),
            slug: eb.ref('excluded.slug'),
            visits: eb.ref('excluded.visits'),
            message: eb.ref('excluded.message'),
          }))
          .where('link_import_rows.status', 'not in', ['created', 'overwritten']),
      )
      .execute();
  }
}

/** Rows of the import carried out for good (made or overwritten). */
export async function countImportRows(db: Db, importId: string): Promise<number> {
  const row = await db
    .selectFrom('link_import_rows')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('import_id', '=', importId)
    .where('status', 'in', ['created', 'overwritten'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SlugHolder {
  key: string;
  codeId: number;
  userId: number;
  name: string;
}

/** Who holds each of these slugs (lower case), as a code's slug or an old one it answers at. */
export async function findSlugHolders(db: Db, keys: readonly string[]): Promise<Map<string, SlugHolder>> {
  const holders = new Map<string, SlugHolder>();
  for (let i = 0; i < keys.length; i += 500) {
    const part = keys.slice(i, i + 500);
    const rows = await db
      .selectFrom('qr_codes')
      .select([sql<string>`lower(slug)`.as('key'), 'id as codeId', 'user_id as userId', 'name'])
      .where(sql<string>`lower(slug)`, 'in', part)
      .unionAll(
        db
          .selectFrom('qr_slug_aliases')
          .innerJoin('qr_codes', 'qr_codes.id', 'qr_slug_aliases.qr_code_id')
          .select([
            sql<string>`lower(qr_slug_aliases.slug)`.as('key'),
            'qr_codes.id as codeId',
            'qr_codes.user_id as userId',
            'qr_codes.name',
          ])
          .where(sql<string>`lower(qr_slug_aliases.slug)`, 'in', part),
      )
      .execute();
    for (const row of rows) if (!holders.has(row.key)) holders.set(row.key, row);
  }
  return holders;
}

/** Where an imported code came from. */
export interface CodeOrigin {
  codeId: number;
  source: string;
  sourceLink: string | null;
  visits: number;
  importedAt: string;
}

/** Says where codes came from; a second import into the same code (an overwrite) adds its visits. */
export async function recordCodeImports(db: Db, rows: readonly CodeOrigin[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('qr_code_imports')
      .values(
        rows.slice(i, i + 200).map((row) => ({
          qr_code_id: row.codeId,
          source: row.source,
          source_link: row.sourceLink,
          visits: row.visits,
          imported_at: row.importedAt,
        })),
      )
      .onConflict((oc) =>
        oc.column('qr_code_id').doUpdateSet((eb) => ({
          visits: sql<number>`${eb.ref('qr_code_imports.visits')} + ${eb.ref('excluded.visits')}`,
          imported_at: eb.ref('excluded.imported_at'),
          source: eb.ref('excluded.source'),
          source_link: eb.ref('excluded.source_link'),
        })),
      )
      .execute();
  }
}

export function findCodeImport(db: Db, codeId: number) {
  return db.selectFrom('qr_code_imports').selectAll().where('qr_code_id', '=', codeId).executeTakeFirst();
}
