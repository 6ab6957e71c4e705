import type { Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * A person's language (issue 37): `language` is the one they chose (null: follow the browser), and
 * `browser_language` the one their browser asked for when they last registered or signed in. Mails are
 * written in the first of the two that is set, else English. Both hold a BCP 47 tag of the product's
 * languages ('de', 'pt-BR'…); rows of before keep null, so their mails stay English until they sign in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
  await db.schema.alterTable('users').addColumn('browser_language', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('browser_language').execute();
  await db.schema.alterTable('users').dropColumn('language').execute();
}
