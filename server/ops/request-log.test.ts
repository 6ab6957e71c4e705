import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { createTestApp, signedInUser } from '../test/test-app.js';
import { createTestDb } from '../test/test-db.js';

/** An app whose log lines are kept, as `npm start` would write them (level info). */
async function appWithLog(config: Partial<Config>) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const db = await createTestDb('sqlite');
  const t = await createTestApp(db, { config, logger: pino({ level: 'info' }, sink) });
  return {
    t,
    lines,
    text: () => lines.join('\n'),
    close: async () => {
      await t.close();
      await db.close();
    },
  };
}

const ADDRESS = '203.0.113.77';
const SECRET = 'tok3n-that-must-never-be-logged-5d1f9a';

describe('the request log', () => {
  it('is quiet by default: no line per request, and never the query string', async () => {
    const log = await appWithLog({});
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await log.t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: ADDRESS });
        expect(res.statusCode).toBe(200);
      }
      await log.t.app.inject({ url: `/api/email/verify-token?token=${SECRET}`, remoteAddress: ADDRESS });
      expect(log.text()).not.toContain(SECRET);
      expect(log.text()).not.toContain(ADDRESS);
      expect(log.lines.filter((l) => l.includes('"route"'))).toEqual([]);
    } finally {
      await log.close();
    }
  });

  it('with ACCESS_LOG, one line per request naming the route pattern, the address masked when asked', async () => {
    const log = await appWithLog({ accessLog: true, anonymizeIps: true });
    try {
      const { cookie } = await signedInUser(log.t, 'logged');
      await log.t.app.inject({
        url: '/api/qr-codes/987654',
        headers: { cookie: `qr_session=${cookie}` },
        remoteAddress: ADDRESS,
      });
      await log.t.app.inject({
        method: 'POST',
        url: '/api/password-reset/verify',
        payload: { token: SECRET },
        remoteAddress: ADDRESS,
      });
      await log.t.app.inject({ url: `/reset-password?token=${SECRET}`, remoteAddress: ADDRESS });
      const requests = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.route);
      expect(requests).toContainEqual(
        expect.objectContaining({ method: 'GET', route: '/api/qr-codes/:id', status: 404, ip: '203.0.*.*' }),
      );
      expect(requests).toContainEqual(
        expect.objectContaining({ method: 'POST', route: '/api/password-reset/verify', status: 400 }),
      );
      expect(requests).toHaveLength(3);
      expect(log.text()).not.toContain(SECRET);
      expect(log.text()).not.toContain(ADDRESS);
      expect(log.text()).not.toContain('987654');
    } finally {
      await log.close();
    }
  });

  it('without anonymising, the access log keeps the address; a slow request is logged even when the access log is off', async () => {
    const plain = await appWithLog({ accessLog: true });
    try {
      await plain.t.app.inject({ url: '/healthz', remoteAddress: ADDRESS });
      expect(plain.text()).toContain(ADDRESS);
    } finally {
      await plain.close();
    }
    const slow = await appWithLog({ slowRequestMs: 0, anonymizeIps: true });
    try {
      await slow.t.app.inject({ url: '/healthz', remoteAddress: ADDRESS });
      const line = slow.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.route);
      // The request's logger, made when it first writes, is bound to the request's id as Fastify's own.
      expect(line).toMatchObject({ level: 40, msg: 'slow request', route: '/healthz', ip: '203.0.*.*' });
      expect(line?.reqId).toMatch(/^req-/);
    } finally {
      await slow.close();
    }
  });

  it('masks the recipient of every mail it logs', async () => {
    const log = await appWithLog({ requireEmailVerification: true });
    try {
      const res = await log.t.app.inject({
        method: 'POST',
        url: '/api/password-reset/request',
        payload: { email: 'someone.private@example.com' },
      });
      expect(res.statusCode).toBe(200);
      await log.t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: {
          username: 'maily',
          password: 'secret-pass',
          name: 'Mail Y',
          email: 'maily.person@example.org',
        },
      });
      // The verification mail is sent in the background.
      await expect.poll(() => log.text(), { timeout: 5000 }).toContain('m***@example.org');
      expect(log.text()).not.toContain('maily.person@example.org');
    } finally {
      await log.close();
    }
  });
});
