import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen: never import application code here.

/**
 * The mail queue (issue 30): a mail whose first attempt failed (the SMTP server down or refusing, the
 * outbox folder not writable) is kept here and tried again with a growing pause, instead of being lost.
 * - `recipient`, `sender` (null: MAIL_FROM), `subject`, `body_text`, `body_html`: the message as composed.
 * - `status`: 'pending' (waits for `next_attempt_at`), 'sending' (claimed by one instance until
 *   `next_attempt_at`, a lease: an instance that died mid-send leaves it to be claimed again), 'sent',
 *   'given-up'.
 * - `attempts`, `last_error`: what was tried and what the server last answered.
 * - `expires_at`: when the mail stops being worth sending (its link expires); null: never.
 * - `replace_key`: a newer mail with the same key replaces a queued one (a new verification link makes
 *   the queued one's link useless).
 * - `finished_at`: when it was sent or given up (finished rows are deleted some days later).
 *
 * A new table: nothing existing changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const tsType = pg ? 'timestamptz' : 'text';
  const id = (c: any) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement());

  await db.schema
    .createTable('mail_queue')
    .addColumn('id', pg ? 'serial' : 'integer', id)
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('sender', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text')
    .addColumn('replace_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', tsType, (c) => c.notNull())
    .addColumn('expires_at', tsType)
    .addColumn('last_error', 'text')
    .addColumn('created_at', tsType, (c) => c.notNull())
    .addColumn('finished_at', tsType)
    .execute();
  // The retrier's question: which mails are due.
  await db.schema
    .createIndex('mail_queue_due_idx')
    .on('mail_queue')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('mail_queue_replace_key_idx').on('mail_queue').column('replace_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_queue').execute();
}
