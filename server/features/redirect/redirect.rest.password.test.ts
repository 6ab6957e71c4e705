import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { EVIL_ORIGIN, call, signedInUser, type Response, type TestApp } from '../../test/test-app.js';
import { countRows, describeOnSqlite } from '../../test/test-db.js';
import { insertQrRow, insertTestUser } from '../../test/fixtures.js';
import { hashPassword } from '../auth/passwords.js';
import { createCode } from '../qr/qr.test-helpers.js';
import { IPHONE, htmlOf, scansOf, withConfig } from './redirect.test-helpers.js';

// A password-protected short link: the form, wrong and right passwords, the throttle, the signed
// per-code cookie, and the one scan a visitor adds once the content is served.

const DESTINATION = 'https://example.com/members';
const PASSWORD = 'correct horse';

async function protectedCode(t: TestApp, body: Record<string, unknown> = {}) {
  const owner = await signedInUser(t, `owner${Math.random().toString(36).slice(2, 8)}`);
  const code = await createCode(t, owner.cookie, { content: DESTINATION, password: PASSWORD, ...body });
  expect(code.hasPassword).toBe(true);
  return { owner, code, slug: code.slug! };
}

function open(
  t: TestApp,
  slug: string,
  options: { cookie?: string; query?: string; method?: 'GET' | 'HEAD' } = {},
) {
  return call(t.app, options.method ?? 'GET', `/r/${slug}${options.query ?? ''}`, {
    headers: { 'user-agent': IPHONE, ...(options.cookie ? { cookie: options.cookie } : {}) },
  });
}

function submit(
  t: TestApp,
  slug: string,
  password: string | null,
  options: { query?: string; remoteAddress?: string; origin?: string } = {},
) {
  return call(t.app, 'POST', `/r/${slug}${options.query ?? ''}`, {
    payload: password === null ? '' : new URLSearchParams({ password }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': IPHONE,
      origin: options.origin ?? 'http://localhost:3000',
    },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** What each scan of the code led to, oldest first (src/qr/scan-outcome.ts). */
async function outcomesOf(t: TestApp, codeId: number) {
  const rows = await t.db
    .selectFrom('qr_scans')
    .select(['refused', 'rule'])
    .where('qr_code_id', '=', codeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ refused: r.refused, rule: r.rule }));
}

/** The `name=value` pair of the Set-Cookie header, to send back as a browser would. */
function cookieOf(res: Response): string {
  const header = res.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0]! : String(header);
  return line.split(';')[0]!;
}

function expectForm(res: Response, action: string) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toContain("form-action 'self'");
  expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  expect(res.headers['x-frame-options']).toBe('DENY');
  // Same-origin, so the browser's post carries our Origin (no-referrer would send `Origin: null`).
  expect(res.headers['referrer-policy']).toBe('same-origin');
  const doc = htmlOf(res);
  expect(doc.querySelector('h1')?.textContent).toBe('This QR code is protected');
  const form = doc.querySelector('form')!;
  expect(form.getAttribute('method')).toBe('post');
  expect(form.getAttribute('action')).toBe(action);
  expect(doc.querySelector('label[for="pw"]')?.textContent).toBe('Password');
  expect(doc.querySelector('input#pw')?.getAttribute('type')).toBe('password');
  expect(doc.querySelector('input#pw')?.getAttribute('name')).toBe('password');
  expect(doc.querySelector('button[type="submit"]')?.textContent).toBe('Open');
  expect(res.headers.location).toBeUndefined();
  return doc;
}

/**
 * The app as main.ts builds it, listening on a port, over the test's database. Not createTestApp's app:
 * its answer check is an async onSend hook, which delays every write and so hides a header set after
 * send() — what app.inject and a server built by createTestApp saw, while a real server lost it.
 */
async function listeningApp(t: TestApp): Promise<{ base: string; close: () => Promise<void> }> {
  const app = await buildApp({
    db: t.db,
    config: t.config,
    mailer: t.deps.mailer,
    clock: t.clock,
    logger: pino({ level: 'silent' }),
    clientDir: path.join(t.dataDir, 'no-client'),
  });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { base, close: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

describeOnSqlite('a password-protected short link', (getDb) => {
  const t = withConfig(getDb, {});

  it('asks for the password (a password-form scan), refuses a wrong one, and records the served scan once the right one is given', async () => {
    const { code, slug } = await protectedCode(t());
    expectForm(await open(t(), slug, { query: '?ref=poster' }), `/r/${slug}?ref=poster`);
    expect((await open(t(), slug, { method: 'HEAD' })).statusCode).toBe(200);

    const wrong = await submit(t(), slug, 'nope', { query: '?ref=poster' });
    const doc = expectForm(wrong, `/r/${slug}?ref=poster`);
    expect(doc.querySelector('[role="alert"]')?.textContent).toBe('Wrong password. Try again.');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(htmlOf(await submit(t(), slug, null)).querySelector('[role="alert"]')?.textContent).toBe(
      'Enter the password.',
    );
    // The GET that showed the form is a scan that got the password form (not HEAD, not the posts).
    expect(await outcomesOf(t(), code.id)).toEqual([{ refused: 6, rule: null }]);

    const right = await submit(t(), slug, PASSWORD, { query: '?ref=poster' });
    expect(right.statusCode).toBe(200);
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toMatch(new RegExp(`^qr_pass_${code.id}=\\d+\\.[A-Za-z0-9_-]{43}; `));
    expect(setCookie).toContain('Max-Age=43200');
    expect(setCookie).toContain(`Path=/r/${slug}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    // On to the short link (a refresh, not a redirect: form-action 'self' would also govern redirects).
    const opening = htmlOf(right);
    expect(opening.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content')).toBe(
      `0;url=/r/${slug}?ref=poster`,
    );
    expect(opening.querySelector('a')?.getAttribute('href')).toBe(`/r/${slug}?ref=poster`);
    expect(await countRows(t().db, 'qr_scans')).toBe(1);

    const served = await open(t(), slug, { cookie: cookieOf(right), query: '?ref=poster' });
    expect(served.statusCode).toBe(302);
    expect(served.headers.location).toBe(DESTINATION);
    // The form, the wrong password, the right one and the redirect: the form's scan and the served one
    // (served by the code's own destination: rule 0).
    expect(await outcomesOf(t(), code.id)).toEqual([
      { refused: 6, rule: null },
      { refused: null, rule: 0 },
    ]);

    // The cookie lets this browser back in for 12 hours without the form: each visit is a scan as usual.
    t().clock.advance(11 * 3_600_000);
    expect((await open(t(), slug, { cookie: cookieOf(right) })).headers.location).toBe(DESTINATION);
    expect(await scansOf(t(), code.id)).toHaveLength(3);
    t().clock.advance(3_600_000);
    expectForm(await open(t(), slug, { cookie: cookieOf(right) }), `/r/${slug}`);
    expect((await outcomesOf(t(), code.id)).at(-1)).toEqual({ refused: 6, rule: null });
  });

  it('opens only its own code, and no more once the password changes; a forged cookie opens nothing', async () => {
    const first = await protectedCode(t());
    const second = await protectedCode(t());
    const cookie = cookieOf(await submit(t(), first.slug, PASSWORD));
    expect((await open(t(), first.slug, { cookie })).statusCode).toBe(302);
    // Renamed to the other code's cookie name: the signature is per code.
    const [, value] = cookie.split('=');
    expectForm(
      await open(t(), second.slug, { cookie: `qr_pass_${second.code.id}=${value}` }),
      `/r/${second.slug}`,
    );
    const [expiry] = value!.split('.');
    const forged = `qr_pass_${first.code.id}=${expiry}.${'A'.repeat(43)}`;
    expectForm(await open(t(), first.slug, { cookie: forged }), `/r/${first.slug}`);
    const later = `qr_pass_${first.code.id}=${Number(expiry) + 3_600_000}.${value!.split('.')[1]}`;
    expectForm(await open(t(), first.slug, { cookie: later }), `/r/${first.slug}`);

    const res = await call(t().app, 'PUT', `/api/qr-codes/${first.code.id}`, {
      cookie: first.owner.cookie,
      json: { password: 'a new password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectForm(await open(t(), first.slug, { cookie }), `/r/${first.slug}`);

    // Without a password the short link redirects at once, and a post just moves on.
    await call(t().app, 'PUT', `/api/qr-codes/${first.code.id}`, {
      cookie: first.owner.cookie,
      json: { password: null },
    });
    expect((await open(t(), first.slug)).headers.location).toBe(DESTINATION);
    const post = await submit(t(), first.slug, 'anything');
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe(`/r/${first.slug}`);
  });

  it('allows 5 wrong passwords per address and code in 15 minutes, then answers 429 with Retry-After', async () => {
    const { slug } = await protectedCode(t());
    const other = await protectedCode(t());
    for (let i = 0; i < 5; i++) {
      const res = await submit(t(), slug, `wrong ${i}`, { remoteAddress: '203.0.113.7' });
      expect(res.statusCode).toBe(200);
    }
    // Even the right password waits now.
    const refused = await submit(t(), slug, PASSWORD, { remoteAddress: '203.0.113.7' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(htmlOf(refused).querySelector('h1')?.textContent).toBe('Too many tries');
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another address, or another code from this address, is not held back.
    expect(
      (await submit(t(), slug, PASSWORD, { remoteAddress: '203.0.113.8' })).headers['set-cookie'],
    ).toBeDefined();
    expect(
      (await submit(t(), other.slug, PASSWORD, { remoteAddress: '203.0.113.7' })).headers['set-cookie'],
    ).toBeDefined();
    // Fifteen minutes after the first failure, the address may try again.
    t().clock.advance(15 * 60_000 + 1000);
    expect(
      (await submit(t(), slug, PASSWORD, { remoteAddress: '203.0.113.7' })).headers['set-cookie'],
    ).toBeDefined();
  });

  describe('over a real connection, from the app as main.ts builds it', () => {
    function post(base: string, slug: string, password: string) {
      return fetch(`${base}/r/${slug}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': IPHONE,
          origin: base,
        },
        body: new URLSearchParams({ password }).toString(),
      });
    }

    it('answers the 429 after too many wrong passwords with Retry-After', async () => {
      const { slug } = await protectedCode(t());
      const server = await listeningApp(t());
      try {
        for (let i = 0; i < 5; i++) expect((await post(server.base, slug, `wrong ${i}`)).status).toBe(200);
        const refused = await post(server.base, slug, PASSWORD);
        expect(refused.status).toBe(429);
        expect(await refused.text()).toContain('Too many tries');
        const retryAfter = refused.headers.get('retry-after');
        expect(retryAfter).toMatch(/^\d+$/);
        expect(Number(retryAfter)).toBeGreaterThan(0);
        expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
        expect(refused.headers.get('cache-control')).toBe('no-store');
      } finally {
        await server.close();
      }
    });

    it('sends each page with its own Referrer-Policy: the form same-origin, the opening page none', async () => {
      const { slug } = await protectedCode(t());
      const server = await listeningApp(t());
      try {
        const form = await fetch(`${server.base}/r/${slug}`, { headers: { 'user-agent': IPHONE } });
        expect(form.status).toBe(200);
        expect(await form.text()).toContain('This QR code is protected');
        // Not no-referrer: the browser would post the form with `Origin: null`, which is refused.
        expect(form.headers.get('referrer-policy')).toBe('same-origin');
        const wrong = await post(server.base, slug, 'nope');
        expect(wrong.headers.get('referrer-policy')).toBe('same-origin');
        const right = await post(server.base, slug, PASSWORD);
        expect(right.status).toBe(200);
        expect(right.headers.get('set-cookie')).toMatch(/^qr_pass_\d+=/);
        expect(right.headers.get('referrer-policy')).toBe('no-referrer');
      } finally {
        await server.close();
      }
    });
  });

  it('refuses a post from another site', async () => {
    const { slug } = await protectedCode(t());
    const res = await submit(t(), slug, PASSWORD, { origin: EVIL_ORIGIN });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('keeps a landing page’s downloads behind the password', async () => {
    const owner = await signedInUser(t(), 'cardowner');
    const code = await createCode(t(), owner.cookie, {
      type: 'vcard',
      content: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nEND:VCARD',
      password: PASSWORD,
    });
    const locked = await call(t().app, 'GET', `/r/${code.slug}/contact.vcf`);
    expect(locked.statusCode).toBe(303);
    expect(locked.headers.location).toBe(`/r/${code.slug}`);
    const cookie = cookieOf(await submit(t(), code.slug!, PASSWORD));
    const page = await open(t(), code.slug!, { cookie });
    expect(htmlOf(page).querySelector('h1')?.textContent).toBe('Ada Lovelace');
    const file = await call(t().app, 'GET', `/r/${code.slug}/contact.vcf`, { headers: { cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('FN:Ada Lovelace');
  });

  it('shows an inactive code’s page before asking for its password', async () => {
    const { code, slug } = await protectedCode(t(), { redirectOptions: { paused: true } });
    const res = await open(t(), slug);
    expect(htmlOf(res).querySelector('h1')?.textContent).toBe('This QR code is paused');
    expect(await scansOf(t(), code.id)).toHaveLength(1);
  });

  describe('on an https PUBLIC_URL', () => {
    const https = withConfig(getDb, { publicUrl: 'https://qr.example' });
    it('sets a Secure cookie', async () => {
      const user = await insertTestUser(https().db, { username: 'secure' });
      const row = await insertQrRow(https().db, { userId: user.id, content: DESTINATION, isDynamic: true });
      await https()
        .db.updateTable('qr_codes')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', row.id)
        .execute();
      const res = await submit(https(), row.slug!, PASSWORD, { origin: 'https://qr.example' });
      expect(String(res.headers['set-cookie'])).toContain('; Secure');
    });
  });

  it('never answers the hash', async () => {
    const { owner, code } = await protectedCode(t());
    const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie: owner.cookie });
    expect(res.json<QrCode>().hasPassword).toBe(true);
    expect(res.body).not.toMatch(/argon|password_hash|passwordHash/);
  });
});
