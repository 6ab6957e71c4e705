import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * Workspaces (issue 31). Everything a user made belongs to an account: a row of `users`. A person's row
 * is their personal workspace, so what exists today is already in it and nothing moves. A team workspace
 * is a row of its own with `kind = 'team'`: it never signs in (no session, no password that verifies, no
 * mail), it holds codes, folders, logos, rollups and a plan exactly as a person does, and the people who
 * work in it are its `workspace_members`. Deleting a person deletes their personal workspace (as before)
 * and their memberships, never a team's codes.
 * - `users.kind`: 'person' or 'team'.
 * - `users.current_workspace_id`: the workspace a person last switched to (null: their own).
 * - `workspace_members`: who works in a team, with a role: viewer, editor, admin, owner.
 * - `workspace_invitations`: by e-mail (a mailed link whose token's SHA-256 is kept) or by username,
 *   valid until `expires_at`; 'pending', 'accepted', 'declined' or 'revoked'.
 * - `workspace_activity`: who did what in a workspace (codes, members), for its members to read.
 * - `api_tokens.workspace_id`: the workspace a token acts on; existing tokens act on their owner's own.
 * The two added columns carry no foreign key (SQLite cannot drop a column that has one, and `down` must):
 * every read checks the membership, and deleting a team deletes its tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const account = (c: any) => c.notNull().references('users.id').onDelete('cascade');

  await db.schema
    .alterTable('users')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('person'))
    .execute();
  await db.schema.alterTable('users').addColumn('current_workspace_id', 'integer').execute();
  // The admin's list of team workspaces, and every "people only" question.
  await db.schema.createIndex('users_kind_idx').on('users').columns(['kind', 'id']).execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'integer', account)
    .addColumn('user_id', 'integer', account)
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', tsType, (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('workspace_members_user_idx')
    .on('workspace_members')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('workspace_invitations')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('workspace_id', 'integer', account)
    .addColumn('email', 'text')
    .addColumn('invitee_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('invited_by_username', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', tsType, (c) => c.notNull())
    .addColumn('expires_at', tsType, (c) => c.notNull())
    .addColumn('responded_at', tsType)
    .execute();
  await db.schema
    .createIndex('workspace_invitations_workspace_idx')
    .on('workspace_invitations')
    .columns(['workspace_id', 'status'])
    .execute();
  await db.schema
    .createIndex('workspace_invitations_token_idx')
    .on('workspace_invitations')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('workspace_invitations_invitee_idx')
    .on('workspace_invitations')
    .column('invitee_id')
    .execute();

  await db.schema
    .createTable('workspace_activity')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('workspace_id', 'integer', account)
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('details', 'text')
    .addColumn('created_at', tsType, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('workspace_activity_workspace_idx')
    .on('workspace_activity')
    .columns(['workspace_id', 'id'])
    .execute();

  await db.schema.alterTable('api_tokens').addColumn('workspace_id', 'integer').execute();
  await sql`update api_tokens set workspace_id = user_id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Team workspaces and what they hold have nowhere to go in the schema before: they are deleted, with
  // the tokens made for them (which would otherwise reach their makers' own data).
  await sql`delete from api_tokens where workspace_id in (select id from users where kind = 'team')`.execute(
    db,
  );
  await sql`delete from users where kind = 'team'`.execute(db);
  await db.schema.alterTable('api_tokens').dropColumn('workspace_id').execute();
  await db.schema.dropTable('workspace_activity').execute();
  await db.schema.dropTable('workspace_invitations').execute();
  await db.schema.dropTable('workspace_members').execute();
  await db.schema.dropIndex('users_kind_idx').execute();
  await db.schema.alterTable('users').dropColumn('current_workspace_id').execute();
  await db.schema.alterTable('users').dropColumn('kind').execute();
}
