import { expect, it } from 'vitest';
import { tokenMessages } from '../../../src/auth/api-token.schema.js';
import { insertTestUser } from '../../test/fixtures.js';
import {
  call,
  expectRestError,
  readOutbox,
  register,
  sessionCookie,
  sessionFor,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createToken } from '../tokens/tokens.service.js';
import { toUser } from '../users/users.mapper.js';

const PUBLIC_URL = 'http://qr.example.test:8080';
const PATH = '/api/user/email/verification-link';
const MINUTE = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls the outbox until it holds at least `count` mails (some are sent in the background). */
async function waitForMails(t: TestApp, count: number, timeoutMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readOutbox(t.outbox);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await sleep(20);
  }
}

/** The mails to `to` with a /verify-email link: the token of each (decoded), oldest first. */
async function verificationTokensTo(t: TestApp, to: string): Promise<string[]> {
  const mails = await readOutbox(t.outbox);
  return mails
    .filter((m) => new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}$`, 'm').test(m))
    .flatMap((m) => {
      const match = /(\S+?)\/verify-email#token=([A-Za-z0-9_%.~-]+)/.exec(m);
      if (!match) return [];
      expect(match[1]).toBe(PUBLIC_URL);
      return [decodeURIComponent(match[2]!)];
    });
}

function sendLink(t: TestApp, cookie: string | undefined, headers: Record<string, string> = {}) {
  return call(t.app, 'POST', PATH, { ...(cookie ? { cookie } : {}), headers });
}

function followLink(t: TestApp, token: string) {
  return call(t.app, 'GET', `/api/email/verify-token?token=${encodeURIComponent(token)}`);
}

async function emailVerified(t: TestApp, cookie: string): Promise<boolean> {
  const res = await call(t.app, 'GET', '/api/user', { cookie });
  expect(res.statusCode).toBe(200);
  return res.json<{ emailVerified: boolean }>().emailVerified;
}

describeEachDb('verification links you can finish from the app', (getDb) => {
  const t = useTestApp(getDb, { config: { publicUrl: PUBLIC_URL } });

  it('sign-up mails a verification link (to the outbox without SMTP) that verifies the address', async () => {
    const res = await register(t().app, { username: 'newbie', email: 'newbie@example.com' });
    expect(res.statusCode).toBe(201);
    const cookie = sessionCookie(res);
    expect(await emailVerified(t(), cookie)).toBe(false);

    const mails = await waitForMails(t(), 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/^Subject: Verify your QR Creator e-mail address$/m);
    const [token] = await verificationTokensTo(t(), 'newbie@example.com');
    expect(token).toEqual(expect.any(String));

    const verified = await followLink(t(), token!);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ success: true, message: 'Email verified successfully!' });
    expect(await emailVerified(t(), cookie)).toBe(true);
  });

  it('"Send verification link" mails a new link to the own address; the previous link stops working', async () => {
    const res = await register(t().app, { username: 'resender', email: 'resender@example.com' });
    const cookie = sessionCookie(res);
    await waitForMails(t(), 1);
    const [first] = await verificationTokensTo(t(), 'resender@example.com');

    const sent = await sendLink(t(), cookie);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({
      message: 'Verification link sent to resender@example.com. It works for 24 hours.',
    });
    // Answered once the mail was handed over: it is in the outbox already.
    const tokens = await verificationTokensTo(t(), 'resender@example.com');
    expect(tokens).toHaveLength(2);
    const second = tokens[1]!;
    expect(second).not.toBe(first);

    expectRestError(await followLink(t(), first!), 400, 'BAD_REQUEST');
    expect((await followLink(t(), second)).statusCode).toBe(200);
    expect(await emailVerified(t(), cookie)).toBe(true);
  });

  it('is throttled per user: one a minute, five an hour, 429 with Retry-After and when to retry', async () => {
    const { user, cookie } = await signedInUser(t(), 'hammer');
    expect(user.email_verified).toBeFalsy();
    expect((await sendLink(t(), cookie)).statusCode).toBe(200);

    const soon = await sendLink(t(), cookie);
    const body = expectRestError(soon, 429, 'RATE_LIMITED');
    expect(body.message).toBe(
      'A verification link was sent less than a minute ago. Please try again in 1 minute.',
    );
    expect(soon.headers['retry-after']).toBe('60');

    // Refused attempts are not counted: 30 s later the wait is 30 s, not a minute again.
    t().clock.advance(30_000);
    const later = expectRestError(await sendLink(t(), cookie), 429);
    expect(later.message).toMatch(/try again in 30 seconds\.$/);

    t().clock.advance(31_000);
    for (let i = 2; i <= 5; i++) {
      expect((await sendLink(t(), cookie)).statusCode, `link ${i}`).toBe(200);
      t().clock.advance(MINUTE + 1000);
    }
    // Five in the last hour (the first 4 min 30 s ago and more): the sixth waits for the first to age.
    const hourly = await sendLink(t(), cookie);
    const hourlyBody = expectRestError(hourly, 429, 'RATE_LIMITED');
    expect(hourlyBody.message).toMatch(
      /^You asked for 5 verification links in the last hour\. Please try again in \d+ minutes\.$/,
    );
    expect(Number(hourly.headers['retry-after'])).toBeGreaterThan(50 * 60);
    expect(await verificationTokensTo(t(), user.email!)).toHaveLength(5);

    // Another user is not held by this user's limit.
    const other = await signedInUser(t(), 'bystander');
    expect((await sendLink(t(), other.cookie)).statusCode).toBe(200);

    t().clock.advance(60 * MINUTE);
    expect((await sendLink(t(), cookie)).statusCode).toBe(200);
  });

  it('a verified address gets a 409 and no mail; an account without an address a 400 naming it', async () => {
    const { user, cookie } = await signedInUser(t(), 'already');
    await t().db.updateTable('users').set({ email_verified: true }).where('id', '=', user.id).execute();
    const body = expectRestError(await sendLink(t(), cookie), 409, 'ALREADY_DONE');
    expect(body.message).toBe('Your e-mail address is already verified.');

    const bare = await insertTestUser(t().db, { username: 'noaddress', email: null });
    const bareBody = expectRestError(await sendLink(t(), await sessionFor(t(), bare.id)), 400);
    expect(bareBody.message).toMatch(/e-mail address/);
    expect(bareBody.issues).toEqual([{ path: 'email', message: bareBody.message }]);

    await sleep(100);
    expect(await readOutbox(t().outbox)).toEqual([]);
  });

  it('refuses the signed out (401) and API tokens (403): it sends mail on the user’s behalf', async () => {
    const { user } = await signedInUser(t(), 'scripted');
    expectRestError(await sendLink(t(), undefined), 401);
    for (const scope of ['read', 'write'] as const) {
      const { token } = await createToken(t().deps, toUser(user), { name: scope, scope });
      const body = expectRestError(
        await sendLink(t(), undefined, { authorization: `Bearer ${token}` }),
        403,
        'TOKEN_NOT_ACCEPTED',
      );
      expect(body.message).toBe(tokenMessages.sessionOnly);
    }
    await sleep(100);
    expect(await readOutbox(t().outbox)).toEqual([]);
  });

  it('a change of address mails a link to the new address, which verifies it', async () => {
    const { cookie } = await signedInUser(t(), 'mover');
    const res = await call(t().app, 'PUT', '/api/user/profile', {
      cookie,
      json: { name: 'Mover', email: 'mover-new@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitForMails(t(), 2);
    const [token] = await verificationTokensTo(t(), 'mover-new@example.com');
    expect(token).toEqual(expect.any(String));
    expect((await followLink(t(), token!)).statusCode).toBe(200);
    expect(await emailVerified(t(), cookie)).toBe(true);
  });
});
