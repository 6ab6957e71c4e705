import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrl, migrateDatabaseAt, testDatabaseUrl } from './test-db.js';

/**
 * The unit project's global setup. With PostgreSQL (TEST_DATABASE_URL) it migrates one template
 * database; each worker then starts from a copy of it (test-db.ts workerDatabaseUrl), so no two
 * test files ever share a database's catalog. Every database of the run shares a prefix and is
 * dropped once every file has finished. Workers start after this runs and inherit the variables.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const prefix = `t${randomBytes(4).toString('hex')}_`;
  process.env.TEST_RUN_PREFIX = prefix;
  const url = testDatabaseUrl();
  if (!url) return () => Promise.resolve();

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dropAll = async () => {
    const { rows } = await admin.query<{ name: string }>(
      'select datname as name from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { name } of rows) await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  try {
    const template = `${prefix}template`;
    await admin.query(`create database "${template}"`);
    await migrateDatabaseAt(databaseUrl(url, template));
    process.env.TEST_PG_TEMPLATE = template;
  } catch (error) {
    await dropAll();
    throw error;
  }
  return dropAll;
}
