import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The unit project's global setup: this run's PostgreSQL test schemas share a prefix (test-db.ts
 * newTestSchema), and are dropped together once every file has finished — never while another
 * file may be reading the catalog. Workers start after this runs and inherit the variable.
 */
export default function setup(): () => Promise<void> {
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  process.env.TEST_SCHEMA_PREFIX = prefix;
  return async () => {
    const url = process.env.TEST_DATABASE_URL?.trim();
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select nspname as name from pg_namespace where starts_with(nspname, $1)',
        [prefix],
      );
      for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
    } finally {
      await client.end();
    }
  };
}
