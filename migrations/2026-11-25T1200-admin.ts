import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * The admin area and plans: an audit log of every admin action, settings an admin changes at run time
 * (over the environment's defaults), upgrade requests of instances without Stripe, the Stripe events
 * already applied (a replayed webhook changes nothing), the log of mails sent, and an index for the
 * users page's default order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const jsonType = pg ? 'jsonb' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());
  const idType = pg ? 'serial' : 'integer';

  // Who did what to whom, with the values before and after. The actor's name is copied: the log outlives
  // a deleted admin.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', idType, id)
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_username', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('before', jsonType)
    .addColumn('after', jsonType)
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('audit_log_created_at_idx').on('audit_log').column('created_at').execute();

  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('upgrade_requests')
    .addColumn('id', idType, id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .addColumn('decided_at', tsType)
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('upgrade_requests_user_id_idx')
    .on('upgrade_requests')
    .columns(['user_id', 'status'])
    .execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('mail_log')
    .addColumn('id', idType, id)
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', tsType, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('mail_log_created_at_idx').on('mail_log').column('created_at').execute();

  await db.schema.createIndex('users_created_at_idx').on('users').column('created_at').execute();
  await db.schema
    .createIndex('users_stripe_subscription_idx')
    .on('users')
    .column('stripe_subscription_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_stripe_subscription_idx').execute();
  await db.schema.dropIndex('users_created_at_idx').execute();
  await db.schema.dropTable('mail_log').execute();
  await db.schema.dropTable('stripe_events').execute();
  await db.schema.dropTable('upgrade_requests').execute();
  await db.schema.dropTable('instance_settings').execute();
  await db.schema.dropTable('audit_log').execute();
}
