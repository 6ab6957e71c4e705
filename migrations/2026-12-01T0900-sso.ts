import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Sign-in with the company's accounts (issue 32): OpenID Connect, LDAP and a trusted reverse proxy.
 * - `user_identities`: an account of a provider (its id, e.g. 'oidc:keycloak', 'ldap', 'proxy', and the
 *   provider's stable subject) linked to one person. A person may have several; a person made at first
 *   sign-in has no local password (`users.password` is '!sso', which verifies nothing).
 * - `sso_link_requests`: "this company account has the address of an existing local account": kept for
 *   ten minutes (the SHA-256 of a token the browser holds) while the person proves the local password once.
 * - `sessions.sso_*`: how a session was signed in, so that it can be checked again against its provider
 *   (an LDAP lookup, an OIDC refresh, a back-channel logout by `sid`) and ended when the directory says so.
 * - `pending_logins.sso_session`: a company sign-in waiting for the person's own two-factor code.
 * - `workspace_members.source`: 'manual' (invited, added) or 'sso' (granted by a group mapping): only the
 *   latter is taken away when the person leaves the group.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';

  await db.schema
    .createTable('user_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', tsType, (c) => c.notNull())
    .addColumn('last_sign_in_at', tsType)
    .addPrimaryKeyConstraint('user_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('sso_link_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // The profile and groups the provider gave (JSON), applied once the link is proved.
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', tsType, (c) => c.notNull())
    .execute();

  for (const column of ['sso_provider', 'sso_subject', 'sso_sid', 'sso_refresh_token', 'sso_id_token']) {
    await db.schema.alterTable('sessions').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('sessions').addColumn('sso_checked_at', tsType).execute();
  await db.schema
    .createIndex('sessions_sso_idx')
    .on('sessions')
    .columns(['sso_provider', 'sso_subject'])
    .execute();

  await db.schema
    .alterTable('workspace_members')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .execute();
  // A company sign-in waiting for the person's own two-factor code: the session it will start (JSON).
  await db.schema.alterTable('pending_logins').addColumn('sso_session', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // A person made at first sign-in keeps their row (and codes); without an identity they cannot sign in
  // until an admin sets a password, as after any removed sign-in method.
  await db.schema.alterTable('pending_logins').dropColumn('sso_session').execute();
  await db.schema.alterTable('workspace_members').dropColumn('source').execute();
  await db.schema.dropIndex('sessions_sso_idx').execute();
  // Sessions signed in through a provider end: nothing could check them again.
  await sql`delete from sessions where sso_provider is not null`.execute(db);
  for (const column of [
    'sso_checked_at',
    'sso_id_token',
    'sso_refresh_token',
    'sso_sid',
    'sso_subject',
    'sso_provider',
  ]) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
  await db.schema.dropTable('sso_link_requests').execute();
  await db.schema.dropTable('user_identities').execute();
}
