import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import type { TwoFactorEnrolment } from '../../../src/auth/account.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import { TEST_PASSWORD } from '../../test/fixtures.js';
import { readParsedOutbox } from '../../test/smtp-capture.js';
import {
  call,
  callerFor,
  cookieValue,
  createTestClock,
  expectRestError,
  sessionCookie,
  signedInUser,
  useTestApp,
  type Response,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';

const START = new Date('2026-11-25T10:00:00Z');

function codeAt(secret: string, ms: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: ms,
  });
}

/** Turns two-factor on for a signed-in user; answers the secret and the recovery codes. */
async function enrol(t: TestApp, cookie: string) {
  const begin = await call(t.app, 'POST', '/api/user/two-factor/begin', {
    cookie,
    json: { password: TEST_PASSWORD },
  });
  expect(begin.statusCode).toBe(200);
  const { secret, otpauthUrl } = begin.json<TwoFactorEnrolment>();
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/QR%20Creator:/);
  expect(otpauthUrl).toContain(`secret=${secret}`);
  const confirm = await call(t.app, 'POST', '/api/user/two-factor/confirm', {
    cookie,
    json: { code: codeAt(secret, t.clock.now().getTime()) },
  });
  expect(confirm.statusCode).toBe(200);
  const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>();
  return { secret, recoveryCodes };
}

/** The password step: answers the pending cookie of this browser. */
async function passwordStep(t: TestApp, username: string): Promise<{ res: Response; pending: string }> {
  const res = await call(t.app, 'POST', '/api/login', { json: { username, password: TEST_PASSWORD } });
  return { res, pending: cookieValue(res, 'qr_2fa') ?? '' };
}

function codeStep(t: TestApp, pending: string, code: string) {
  return call(t.app, 'POST', '/api/login/two-factor', {
    json: { code },
    headers: { cookie: `qr_2fa=${pending}` },
  });
}

describeEachDb('two-factor sign-in', (getDb) => {
  const t = useTestApp(getDb, { clock: createTestClock(START) });

  it('enrols with a code from the app, then sign-in asks for a code and accepts the right one', async () => {
    const { cookie } = await signedInUser(t(), 'secure');
    expect((await call(t().app, 'GET', '/api/user/two-factor', { cookie })).json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const { secret, recoveryCodes } = await enrol(t(), cookie);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await t().db.selectFrom('recovery_codes').select('code_hash').execute();
    for (const c of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(c);
    expect((await call(t().app, 'GET', '/api/user/two-factor', { cookie })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
    });

    t().clock.advance(60_000);
    const { res, pending } = await passwordStep(t(), 'secure');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      requiresTwoFactor: true,
      message: 'Enter the 6-digit code from your authenticator app.',
    });
    expect(cookieValue(res)).toBeUndefined(); // no session before the code
    expect(pending).not.toBe('');

    const done = await codeStep(t(), pending, codeAt(secret, t().clock.now().getTime()));
    expect(done.statusCode).toBe(200);
    expect(done.json<User>().username).toBe('secure');
    const me = await call(t().app, 'GET', '/api/user', { cookie: sessionCookie(done) });
    expect(me.statusCode).toBe(200);
  });

  it('refuses the same code twice within its 30 seconds', async () => {
    const { cookie } = await signedInUser(t(), 'replay');
    const { secret } = await enrol(t(), cookie);
    t().clock.advance(90_000);
    const code = codeAt(secret, t().clock.now().getTime());
    const first = await passwordStep(t(), 'replay');
    expect((await codeStep(t(), first.pending, code)).statusCode).toBe(200);
    const second = await passwordStep(t(), 'replay');
    const again = await codeStep(t(), second.pending, code);
    expect(expectRestError(again, 401).message).toBe('Invalid authentication code');
  });

  it('accepts a recovery code once, and not twice', async () => {
    const { cookie } = await signedInUser(t(), 'lostphone');
    const { recoveryCodes } = await enrol(t(), cookie);
    const first = await passwordStep(t(), 'lostphone');
    expect((await codeStep(t(), first.pending, recoveryCodes[3]!.toUpperCase())).statusCode).toBe(200);
    const second = await passwordStep(t(), 'lostphone');
    expectRestError(await codeStep(t(), second.pending, recoveryCodes[3]!), 401);
    expect((await codeStep(t(), second.pending, recoveryCodes[4]!)).statusCode).toBe(200);
  });

  it('answers a wrong code 401, keeps the pending sign-in, and throttles after five', async () => {
    const { cookie } = await signedInUser(t(), 'guessed');
    const { secret } = await enrol(t(), cookie);
    const { pending } = await passwordStep(t(), 'guessed');
    for (let i = 0; i < 5; i++) expectRestError(await codeStep(t(), pending, '000000'), 401);
    const right = await codeStep(t(), pending, codeAt(secret, t().clock.now().getTime() + 30_000));
    expectRestError(right, 429);
  });

  it('refuses a code without a pending sign-in, and once it expired', async () => {
    const { cookie } = await signedInUser(t(), 'late');
    const { secret } = await enrol(t(), cookie);
    expectRestError(await codeStep(t(), 'made-up', '123456'), 401);
    const { pending } = await passwordStep(t(), 'late');
    t().clock.advance(6 * 60_000);
    const res = await codeStep(t(), pending, codeAt(secret, t().clock.now().getTime()));
    expect(expectRestError(res, 401).message).toBe('Your sign-in has expired. Please log in again.');
  });

  it('turns off only with the password and a code', async () => {
    const { cookie } = await signedInUser(t(), 'leaving');
    const { secret } = await enrol(t(), cookie);
    t().clock.advance(60_000);
    const code = codeAt(secret, t().clock.now().getTime());
    const wrongPassword = await call(t().app, 'POST', '/api/user/two-factor/disable', {
      cookie,
      json: { password: 'nope-nope', code },
    });
    expect(expectRestError(wrongPassword, 400)).toMatchObject({
      message: 'Password is incorrect',
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'password', message: 'Password is incorrect' }],
    });
    const wrongCode = await call(t().app, 'POST', '/api/user/two-factor/disable', {
      cookie,
      json: { password: TEST_PASSWORD, code: '000000' },
    });
    expect(expectRestError(wrongCode, 400).message).toBe('Invalid authentication code');
    const off = await call(t().app, 'POST', '/api/user/two-factor/disable', {
      cookie,
      json: { password: TEST_PASSWORD, code },
    });
    expect(off.statusCode).toBe(200);
    const login = await call(t().app, 'POST', '/api/login', {
      json: { username: 'leaving', password: TEST_PASSWORD },
    });
    expect(login.json<User>().username).toBe('leaving');
  });

  it('refuses a wrong code at enrolment, and stays off', async () => {
    const { cookie } = await signedInUser(t(), 'typo');
    await call(t().app, 'POST', '/api/user/two-factor/begin', { cookie, json: { password: TEST_PASSWORD } });
    const res = await call(t().app, 'POST', '/api/user/two-factor/confirm', {
      cookie,
      json: { code: '999999' },
    });
    expect(expectRestError(res, 400).message).toBe('Invalid authentication code');
    const login = await call(t().app, 'POST', '/api/login', {
      json: { username: 'typo', password: TEST_PASSWORD },
    });
    expect(login.json<User>().username).toBe('typo');
  });

  it('is signed-in only, and acts on the caller alone (through tRPC too)', async () => {
    expectRestError(await call(t().app, 'GET', '/api/user/two-factor'), 401);
    expectRestError(
      await call(t().app, 'POST', '/api/user/two-factor/begin', { json: { password: 'x' } }),
      401,
    );
    const { user } = await signedInUser(t(), 'solo');
    const other = await signedInUser(t(), 'bystander');
    await callerFor(t(), user).twoFactor.begin({ password: TEST_PASSWORD });
    expect(await callerFor(t(), other.user).twoFactor.status()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
    });
    const row = await t()
      .db.selectFrom('users')
      .select('totp_secret')
      .where('id', '=', other.user.id)
      .executeTakeFirst();
    expect(row?.totp_secret).toBeNull();
  });
});

describeEachDb('login alerts', (getDb) => {
  const t = useTestApp(getDb);
  const signIn = (username: string, userAgent: string, remoteAddress = '203.0.113.5') =>
    call(t().app, 'POST', '/api/login', {
      json: { username, password: TEST_PASSWORD },
      headers: { 'user-agent': userAgent },
      remoteAddress,
    });
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const CHROME =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const alerts = async () =>
    (await readParsedOutbox(t().outbox)).filter(
      (m) => m.subject === 'New sign-in to your QR Creator account',
    );

  it('mails once for a new browser or address, never for a known one, and only when on', async () => {
    const { user } = await signedInUser(t(), 'watched');
    await t().db.updateTable('users').set({ login_alerts: true }).where('id', '=', user.id).execute();
    await signIn('watched', FIREFOX); // the first sign-in only remembers
    await signIn('watched', FIREFOX);
    await expect
      .poll(
        async () =>
          (
            await t()
              .db.selectFrom('known_devices')
              .selectAll()
              .where('fingerprint', 'not like', 'device:%')
              .execute()
          ).length,
      )
      .toBe(2);
    expect(await alerts()).toHaveLength(0);

    await signIn('watched', CHROME);
    await expect.poll(async () => (await alerts()).length).toBe(1);
    const [mail] = await alerts();
    expect(mail!.to).toMatchObject({ text: 'watched@example.com' });
    expect(mail!.text).toContain('Browser: Chrome on Windows');
    expect(mail!.text).toContain('Address: 203.0.*.*');

    await signIn('watched', CHROME, '198.51.100.7');
    await expect.poll(async () => (await alerts()).length).toBe(2);

    await t().db.updateTable('users').set({ login_alerts: false }).where('id', '=', user.id).execute();
    await signIn('watched', 'curl/8.0', '192.0.2.1');
    await new Promise((r) => setTimeout(r, 200));
    expect(await alerts()).toHaveLength(2);
  });
});

describe('the otpauth URL', () => {
  it('names the issuer and the account, as authenticator apps expect', () => {
    const url = new TOTP({ issuer: 'QR Creator', label: 'ada', secret: new Secret({ size: 20 }) }).toString();
    expect(url).toMatch(
      /^otpauth:\/\/totp\/QR%20Creator:ada\?issuer=QR%20Creator&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/,
    );
  });
});
