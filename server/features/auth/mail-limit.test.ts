import { describe, expect, it } from 'vitest';
import { describeOnSqlite } from '../../test/test-db.js';
import { insertTestUser } from '../../test/fixtures.js';
import { call, expectRestError, readOutbox, useTestApp } from '../../test/test-app.js';
import { MAX_MAILS_PER_CLIENT, MAX_MAILS_PER_EMAIL } from './login-throttle.js';

const request = (t: ReturnType<ReturnType<typeof useTestApp>>, email: string, ip = '198.51.100.7') =>
  call(t.app, 'POST', '/api/password-reset/request', { json: { email }, remoteAddress: ip });

describeOnSqlite('reset and verification mails are rate limited', (getDb) => {
  describe('POST /api/password-reset/request', () => {
    const t = useTestApp(getDb);

    it(`sends at most ${MAX_MAILS_PER_EMAIL} mails an hour to one address, then answers 429`, async () => {
      await insertTestUser(t().db, { username: 'flooded', email: 'flooded@example.com' });
      for (let i = 0; i < MAX_MAILS_PER_EMAIL; i++) {
        expect((await request(t(), 'Flooded@example.com')).statusCode).toBe(200);
      }
      const refused = await request(t(), 'flooded@example.com');
      expect(refused.statusCode).toBe(429);
      expect(expectRestError(refused, 429).message).toMatch(
        /^Too many requests\. Please try again in \d+ minutes?\.$/,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      // Another address is unaffected; after the hour the first one works again.
      expect((await request(t(), 'someone-else@example.com')).statusCode).toBe(200);
      t().clock.advance(60 * 60_000 + 1000);
      expect((await request(t(), 'flooded@example.com')).statusCode).toBe(200);
      // The mails go out in the background: wait for them, however loaded the machine.
      await expect
        .poll(async () => (await readOutbox(t().outbox)).length, { timeout: 15_000 })
        .toBe(MAX_MAILS_PER_EMAIL + 1);
    });

    it(`answers 429 to a client after ${MAX_MAILS_PER_CLIENT} requests an hour, whatever the addresses`, async () => {
      for (let i = 0; i < MAX_MAILS_PER_CLIENT; i++) {
        expect((await request(t(), `n${i}@example.com`, '203.0.113.9')).statusCode).toBe(200);
      }
      expect((await request(t(), 'one-more@example.com', '203.0.113.9')).statusCode).toBe(429);
      expect((await request(t(), 'one-more@example.com', '203.0.113.10')).statusCode).toBe(200);
    });
  });

  describe('POST /api/email/resend-verification', () => {
    const t = useTestApp(getDb, { config: { requireEmailVerification: true } });

    it('is limited per address too, with the same neutral answer until then', async () => {
      const send = () =>
        call(t().app, 'POST', '/api/email/resend-verification', { json: { email: 'nobody@example.com' } });
      const answers = [];
      for (let i = 0; i < MAX_MAILS_PER_EMAIL; i++) answers.push((await send()).json<unknown>());
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect((await send()).statusCode).toBe(429);
    });
  });
});
