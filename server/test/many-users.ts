import type { Db } from '../db/database.js';

/**
 * `count` users inserted in batches (user00001, user00002, …; every tenth on Pro, every 25th with an
 * e-mail at example.org), and `codesOf(i)` codes for user i. For the admin list at scale.
 */
export async function insertManyUsers(db: Db, count: number, codesOf: (i: number) => number = () => 0) {
  const BATCH = 500;
  const createdAt = Date.UTC(2026, 0, 1);
  for (let start = 1; start <= count; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(start + BATCH, count + 1); i++) {
      rows.push({
        username: `user${String(i).padStart(5, '0')}`,
        password: 'not-a-hash',
        name: `User ${i}`,
        email: i % 25 === 0 ? `user${i}@example.org` : null,
        subscription_tier: i % 10 === 0 ? 'pro' : 'free',
        subscription_status: i % 10 === 0 ? 'active' : null,
        created_at: new Date(createdAt + i * 60_000).toISOString(),
      });
    }
    const inserted = await db.insertInto('users').values(rows).returning(['id', 'username']).execute();
    const codes = inserted.flatMap((u) => {
      const n = codesOf(Number(u.username.slice(4)));
      return Array.from({ length: n }, (_, k) => ({
        name: `Code ${k + 1}`,
        type: 'url',
        content: 'https://example.com',
        customization: '{}',
        user_id: u.id,
      }));
    });
    for (let c = 0; c < codes.length; c += BATCH) {
      await db
        .insertInto('qr_codes')
        .values(codes.slice(c, c + BATCH))
        .execute();
    }
  }
}
