import { expect, it } from 'vitest';
import { nulInTextMessage } from '../db/db-errors.js';
import { call, signedInUser, useTestApp } from '../test/test-app.js';
import { describeEachDb } from '../test/test-db.js';

/**
 * U+0000 in text: SQLite stores it, PostgreSQL refuses it in a statement. Either way the caller gets an
 * answer of their own making (never a 500); on PostgreSQL a 400 that says why.
 */
describeEachDb('text with a NUL character', (getDb, kind) => {
  const t = useTestApp(getDb);

  it('is never a 500: a code, a folder, a profile, a search, and the same through /trpc', async () => {
    const { cookie } = await signedInUser(t(), 'nul', { isAdmin: true });
    const answers = [
      await call(t().app, 'POST', '/api/qr-codes', {
        cookie,
        json: { name: 'a\u0000b', type: 'text', content: 'hello', isDynamic: false, customization: {} },
      }),
      await call(t().app, 'POST', '/api/folders', { cookie, json: { name: 'x\u0000' } }),
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'N\u0000l', email: 'nul@example.com' },
      }),
      await call(t().app, 'GET', '/api/admin/users?search=%00'),
      await call(t().app, 'GET', '/api/admin/users?search=a%00b', { cookie }),
      await call(t().app, 'POST', '/trpc/folders.create', { cookie, json: { name: 'y\u0000' } }),
    ];
    for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
    if (kind === 'postgres') {
      const refused = answers.filter((r) => r.statusCode === 400);
      expect(refused.length).toBeGreaterThan(0);
      for (const res of refused.slice(0, 1)) expect(res.body).toContain(nulInTextMessage);
    }
  });
});
