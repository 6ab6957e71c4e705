import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { SmartRedirectInput } from '../../../src/qr/smart-redirect.js';
import { call, sessionFor, signedInUser, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode } from '../qr/qr.test-helpers.js';
import { DESKTOP, GOOGLEBOT, IPHONE, htmlOf, scan, scansOf, withConfig } from './redirect.test-helpers.js';

// Smart redirects through the real short link: every condition type, schedules and limits at their
// edges, pause, fallback, UTM and query forwarding, and the flagged scans of an inactive code.

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const HOME = 'https://example.com/home';

async function smartCode(
  t: TestApp,
  redirectOptions: SmartRedirectInput,
  body: Record<string, unknown> = {},
) {
  const owner = await signedInUser(t, `owner${Math.random().toString(36).slice(2, 8)}`);
  const code = await createCode(t, owner.cookie, { content: HOME, redirectOptions, ...body });
  return { owner, code, slug: code.slug! };
}

async function go(t: TestApp, slug: string, headers: Record<string, string> = {}, path = '') {
  const res = await call(t.app, 'GET', `/r/${slug}${path}`, { headers });
  return res.statusCode === 302 ? res.headers.location : `${res.statusCode}`;
}

async function refusedOf(t: TestApp, codeId: number) {
  const rows = await t.db
    .selectFrom('qr_scans')
    .select('refused')
    .where('qr_code_id', '=', codeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.refused);
}

async function detailsOf(t: TestApp, userId: number, id: number) {
  // A new session: the test clock may have moved past the first one's lifetime.
  const cookie = await sessionFor(t, userId);
  const res = await call(t.app, 'GET', `/api/analytics/qr-codes/${id}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ totalScans: number; refusedScans: number }>();
}

describeEachDb('GET /r/<slug> with smart-redirect options', (getDb, kind) => {
  describe('rules', () => {
    const t = withConfig(getDb, { trustProxy: '127.0.0.1' });

    it('sends iPhones to the App Store and Android phones to Google Play; the rest to the default', async () => {
      const { slug } = await smartCode(t(), {
        rules: [
          {
            label: 'App Store',
            conditions: [{ kind: 'os', os: ['ios'] }],
            destination: 'https://apps.apple.com/app/id1',
          },
          {
            label: 'Google Play',
            conditions: [{ kind: 'os', os: ['android'] }],
            destination: 'https://play.google.com/store/apps/details?id=x',
          },
        ],
      });
      expect(await go(t(), slug, { 'user-agent': IPHONE })).toBe('https://apps.apple.com/app/id1');
      expect(await go(t(), slug, { 'user-agent': ANDROID })).toBe(
        'https://play.google.com/store/apps/details?id=x',
      );
      expect(await go(t(), slug, { 'user-agent': DESKTOP })).toBe(HOME);
      expect(await go(t(), slug, { 'user-agent': MAC })).toBe(HOME);
    });

    it('matches device categories: a tablet, a phone, never a bot', async () => {
      const { code, slug } = await smartCode(t(), {
        rules: [
          {
            conditions: [{ kind: 'device', devices: ['tablet'] }],
            destination: 'https://example.com/tablet',
          },
          { conditions: [{ kind: 'device', devices: ['mobile'] }], destination: 'https://example.com/phone' },
          {
            conditions: [{ kind: 'os', os: ['macos', 'windows'] }],
            destination: 'https://example.com/computer',
          },
        ],
      });
      expect(await go(t(), slug, { 'user-agent': IPAD })).toBe('https://example.com/tablet');
      expect(await go(t(), slug, { 'user-agent': IPHONE })).toBe('https://example.com/phone');
      expect(await go(t(), slug, { 'user-agent': MAC })).toBe('https://example.com/computer');
      expect(await go(t(), slug, { 'user-agent': GOOGLEBOT })).toBe(HOME);
      // Every one of them is a scan as usual.
      expect(await scansOf(t(), code.id)).toHaveLength(4);
    });

    it('matches the country of the client the trusted proxy saw (X-Forwarded-For)', async () => {
      const { slug } = await smartCode(t(), {
        rules: [
          { conditions: [{ kind: 'country', countries: ['fr', 'be'] }], destination: 'https://example.fr/' },
        ],
      });
      expect(await go(t(), slug, { 'x-forwarded-for': '90.84.1.1' })).toBe('https://example.fr/');
      expect(await go(t(), slug, { 'x-forwarded-for': '8.8.8.8' })).toBe(HOME);
      expect(await go(t(), slug, { 'x-forwarded-for': '10.0.0.1' })).toBe(HOME);
    });

    it('matches any language the browser accepts (Accept-Language)', async () => {
      const { slug } = await smartCode(t(), {
        rules: [
          { conditions: [{ kind: 'language', languages: ['fr'] }], destination: 'https://example.com/fr' },
          { conditions: [{ kind: 'language', languages: ['de'] }], destination: 'https://example.com/de' },
        ],
      });
      expect(await go(t(), slug, { 'accept-language': 'fr-CA,fr;q=0.9' })).toBe('https://example.com/fr');
      // Rules in order: the French rule comes first and German browsers that also read French match it.
      expect(await go(t(), slug, { 'accept-language': 'de-DE, fr;q=0.5' })).toBe('https://example.com/fr');
      expect(await go(t(), slug, { 'accept-language': 'de-DE, fr;q=0' })).toBe('https://example.com/de');
      expect(await go(t(), slug, { 'accept-language': 'en-GB' })).toBe(HOME);
      expect(await go(t(), slug)).toBe(HOME);
    });

    it('matches a time window in the owner’s zone, to the second it opens and closes', async () => {
      const { slug } = await smartCode(t(), {
        timeZone: 'Europe/Paris',
        rules: [
          {
            conditions: [{ kind: 'time', days: [1, 2, 3, 4, 5], from: '09:00', until: '17:00' }],
            destination: 'https://example.com/open',
          },
        ],
      });
      const at = async (iso: string) => {
        t().clock.set(new Date(iso));
        return go(t(), slug);
      };
      // Monday 2 March 2026; Paris is UTC+1.
      expect(await at('2026-03-02T07:59:59Z')).toBe(HOME);
      expect(await at('2026-03-02T08:00:00Z')).toBe('https://example.com/open');
      expect(await at('2026-03-02T15:59:59Z')).toBe('https://example.com/open');
      expect(await at('2026-03-02T16:00:00Z')).toBe(HOME);
      expect(await at('2026-03-07T10:00:00Z')).toBe(HOME); // Saturday
    });

    it('matches a date range (from inclusive, until exclusive)', async () => {
      const { slug } = await smartCode(t(), {
        rules: [
          {
            conditions: [{ kind: 'dates', from: '2026-12-01T00:00:00Z', until: '2026-12-26T00:00:00Z' }],
            destination: 'https://example.com/advent',
          },
        ],
      });
      const at = async (iso: string) => {
        t().clock.set(new Date(iso));
        return go(t(), slug);
      };
      expect(await at('2026-11-30T23:59:59.999Z')).toBe(HOME);
      expect(await at('2026-12-01T00:00:00Z')).toBe('https://example.com/advent');
      expect(await at('2026-12-25T23:59:59.999Z')).toBe('https://example.com/advent');
      expect(await at('2026-12-26T00:00:00Z')).toBe(HOME);
    });

    it('sends scans after the first N elsewhere: the N-th goes to the default, the N+1-th to the rule', async () => {
      const { slug } = await smartCode(t(), {
        rules: [{ conditions: [{ kind: 'scans', after: 3 }], destination: 'https://example.com/sold-out' }],
      });
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await go(t(), slug, { 'user-agent': IPHONE }));
      expect(answers).toEqual([
        HOME,
        HOME,
        HOME,
        'https://example.com/sold-out',
        'https://example.com/sold-out',
      ]);
    });

    it('needs every condition of a rule; the first matching rule wins', async () => {
      const { slug } = await smartCode(t(), {
        rules: [
          {
            conditions: [
              { kind: 'os', os: ['ios'] },
              { kind: 'language', languages: ['fr'] },
            ],
            destination: 'https://apps.apple.com/fr/app',
          },
          { conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://apps.apple.com/app' },
        ],
      });
      expect(await go(t(), slug, { 'user-agent': IPHONE, 'accept-language': 'fr' })).toBe(
        'https://apps.apple.com/fr/app',
      );
      expect(await go(t(), slug, { 'user-agent': IPHONE, 'accept-language': 'en' })).toBe(
        'https://apps.apple.com/app',
      );
      expect(await go(t(), slug, { 'user-agent': ANDROID, 'accept-language': 'fr' })).toBe(HOME);
    });
  });

  describe('schedules, limits and pause', () => {
    const t = withConfig(getDb, {});

    it('before its start and from its end shows a page with the owner’s message, and records the scans flagged', async () => {
      const { owner, code, slug } = await smartCode(t(), {
        activeFrom: '2026-12-01T09:00:00+01:00',
        activeUntil: '2026-12-24T18:00:00+01:00',
        inactiveMessage: 'Opens on <b>1 December</b>\nSee you then!',
      });
      const at = async (iso: string) => {
        t().clock.set(new Date(iso));
        return scan(t(), slug, { headers: { 'user-agent': IPHONE } });
      };
      let res = await at('2026-12-01T07:59:59.999Z');
      expect(res.statusCode).toBe(200);
      let doc = htmlOf(res);
      expect(doc.querySelector('h1')?.textContent).toBe('This QR code is not active yet');
      expect(doc.querySelector('.t')?.textContent).toBe('Opens on <b>1 December</b>\nSee you then!');
      expect(doc.querySelector('b')).toBeNull();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toContain("form-action 'none'");
      expect(res.headers.location).toBeUndefined();

      expect((await at('2026-12-01T08:00:00Z')).headers.location).toBe(HOME);
      expect((await at('2026-12-24T16:59:59.999Z')).headers.location).toBe(HOME);
      res = await at('2026-12-24T17:00:00Z');
      expect(res.statusCode).toBe(410);
      doc = htmlOf(res);
      expect(doc.querySelector('h1')?.textContent).toBe('This QR code has ended');

      // All four are scans; the two outside the window are flagged (2 not started, 3 ended).
      expect(await refusedOf(t(), code.id)).toEqual([2, null, null, 3]);
      expect(await detailsOf(t(), owner.user.id, code.id)).toMatchObject({ totalScans: 4, refusedScans: 2 });
    });

    it('serves the N-th scan under a limit and refuses the N+1-th; bots and refused scans use none of it', async () => {
      const { owner, code, slug } = await smartCode(t(), { maxScans: 2 });
      const from = (ua: string) => scan(t(), slug, { headers: { 'user-agent': ua } });
      expect((await from(GOOGLEBOT)).statusCode).toBe(302); // a link preview: not a person
      expect((await from(IPHONE)).statusCode).toBe(302); // 1st
      expect((await from(DESKTOP)).statusCode).toBe(302); // 2nd
      const third = await from(IPHONE);
      expect(third.statusCode).toBe(410);
      expect(htmlOf(third).querySelector('h1')?.textContent).toBe('This QR code has reached its scan limit');
      expect(htmlOf(third).querySelector('.t')?.textContent).toBe(
        'It has been scanned as many times as its owner allowed.',
      );
      expect((await from(IPHONE)).statusCode).toBe(410);
      expect(await refusedOf(t(), code.id)).toEqual([null, null, null, 4, 4]);

      // Raising the limit lets exactly one more through: the refused scans did not use any of it.
      const res = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie: owner.cookie,
        json: { redirectOptions: { maxScans: 3 } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await from(IPHONE)).statusCode).toBe(302);
      expect((await from(IPHONE)).statusCode).toBe(410);
    });

    it('under a burst, serves exactly the limit on SQLite; on PostgreSQL at least the limit, then refuses', async () => {
      const { code, slug } = await smartCode(t(), { maxScans: 3 });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          scan(t(), slug, { headers: { 'user-agent': IPHONE }, remoteAddress: `203.0.113.${i + 1}` }),
        ),
      );
      const served = answers.filter((r) => r.statusCode === 302).length;
      // SQLite: one process decides and counts each scan before the next is decided. PostgreSQL: each
      // lookup reads the committed count, so scans answered at the same moment may all pass.
      if (kind === 'sqlite') expect(served).toBe(3);
      else expect(served).toBeGreaterThanOrEqual(3);
      expect(answers.filter((r) => r.statusCode === 410)).toHaveLength(10 - served);
      expect((await scan(t(), slug, { headers: { 'user-agent': IPHONE } })).statusCode).toBe(410);
      expect(await refusedOf(t(), code.id)).toHaveLength(11);
    });

    it('counts the scans made before the limit was set towards it, never the owner’s simulated scan test', async () => {
      const owner = await signedInUser(t(), 'counted');
      const code = await createCode(t(), owner.cookie, { content: HOME });
      for (let i = 0; i < 2; i++) await scan(t(), code.slug!, { headers: { 'user-agent': IPHONE } });
      const demo = await call(t().app, 'GET', `/api/qr-codes/${code.id}/scan`, {
        cookie: owner.cookie,
        headers: { 'user-agent': DESKTOP },
      });
      expect(demo.statusCode, demo.body).toBe(200);
      await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie: owner.cookie,
        json: { redirectOptions: { maxScans: 4 } },
      });
      // Two real scans before the limit, two places left: the simulated one took none.
      expect((await scan(t(), code.slug!, { headers: { 'user-agent': IPHONE } })).statusCode).toBe(302);
      expect((await scan(t(), code.slug!, { headers: { 'user-agent': IPHONE } })).statusCode).toBe(302);
      expect((await scan(t(), code.slug!, { headers: { 'user-agent': IPHONE } })).statusCode).toBe(410);
      // In the analytics like any scan (six in all), and not among those turned away (one).
      const details = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, {
        cookie: owner.cookie,
      });
      expect(details.json()).toMatchObject({ totalScans: 6, refusedScans: 1 });
    });

    it('while paused shows the paused page and records the scan flagged; HEAD records nothing', async () => {
      const { code, slug } = await smartCode(t(), { paused: true });
      const res = await scan(t(), slug);
      expect(res.statusCode).toBe(200);
      expect(htmlOf(res).querySelector('h1')?.textContent).toBe('This QR code is paused');
      const head = await scan(t(), slug, { method: 'HEAD' });
      expect(head.statusCode).toBe(200);
      expect(await refusedOf(t(), code.id)).toEqual([1]);
    });

    it('sends an inactive code’s scans to its fallback URL, with its UTM parameters', async () => {
      const { code, slug } = await smartCode(t(), {
        paused: true,
        fallbackUrl: 'https://example.com/next-time',
        utm: { campaign: 'spring' },
      });
      expect(await go(t(), slug)).toBe('https://example.com/next-time?utm_source=qr&utm_campaign=spring');
      expect(await refusedOf(t(), code.id)).toEqual([1]);
    });

    it('applies a pause to a landing-page code too, and keeps its downloads closed', async () => {
      const owner = await signedInUser(t(), 'cardholder');
      const code = await createCode(t(), owner.cookie, {
        type: 'vcard',
        content: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nEND:VCARD',
        redirectOptions: { paused: true, inactiveMessage: 'Back soon' },
      });
      const res = await scan(t(), code.slug!);
      expect(htmlOf(res).querySelector('.t')?.textContent).toBe('Back soon');
      expect((await call(t().app, 'GET', `/r/${code.slug}/contact.vcf`)).statusCode).toBe(404);
    });
  });

  describe('UTM parameters and query forwarding', () => {
    const t = withConfig(getDb, {});

    it('appends UTM parameters to every redirect, the default destination and rules alike', async () => {
      const { slug } = await smartCode(t(), {
        utm: { medium: 'poster', campaign: 'spring sale' },
        rules: [
          {
            conditions: [{ kind: 'os', os: ['ios'] }],
            destination: 'https://apps.apple.com/app?utm_source=ours',
          },
        ],
      });
      expect(await go(t(), slug)).toBe(`${HOME}?utm_source=qr&utm_medium=poster&utm_campaign=spring+sale`);
      expect(await go(t(), slug, { 'user-agent': IPHONE })).toBe(
        'https://apps.apple.com/app?utm_source=ours&utm_medium=poster&utm_campaign=spring+sale',
      );
    });

    it('forwards the scan’s query string without replacing the stored destination or its parameters', async () => {
      const owner = await signedInUser(t(), 'forwarder');
      const code = await createCode(t(), owner.cookie, {
        content: 'https://shop.example/p?id=7',
        redirectOptions: { forwardQuery: true },
      });
      expect(await go(t(), code.slug!, {}, '?ref=flyer&id=666&utm_source=x')).toBe(
        'https://shop.example/p?id=7&ref=flyer&utm_source=x',
      );
      expect(await go(t(), code.slug!, {}, '?url=https://evil.example/')).toBe(
        'https://shop.example/p?id=7&url=https%3A%2F%2Fevil.example%2F',
      );
      expect(await go(t(), code.slug!)).toBe('https://shop.example/p?id=7');
    });

    it('without the option, ignores the scan’s query string', async () => {
      const { slug } = await smartCode(t(), { utm: { medium: 'print' } });
      expect(await go(t(), slug, {}, '?ref=flyer')).toBe(`${HOME}?utm_source=qr&utm_medium=print`);
    });
  });
});

describeEachDb('saving smart-redirect options and passwords', (getDb) => {
  const t = withConfig(getDb, {});

  const post = (cookie: string, body: Record<string, unknown>) =>
    call(t().app, 'POST', '/api/qr-codes', {
      cookie,
      json: { name: 'Code', type: 'url', content: HOME, isDynamic: true, ...body },
    });

  it('answers the options as stored (canonical) and whether there is a password, never its hash', async () => {
    const { cookie } = await signedInUser(t(), 'saver');
    const res = await post(cookie, {
      password: 'open sesame',
      redirectOptions: {
        timeZone: 'europe/paris',
        activeFrom: '2026-12-01T09:00:00+01:00',
        rules: [{ conditions: [{ kind: 'country', countries: ['fr'] }], destination: 'https://example.fr/' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const code = res.json<QrCode>();
    expect(code.hasPassword).toBe(true);
    expect(code.redirectOptions).toEqual({
      rules: [{ conditions: [{ kind: 'country', countries: ['FR'] }], destination: 'https://example.fr/' }],
      timeZone: 'Europe/Paris',
      activeFrom: '2026-12-01T08:00:00.000Z',
      activeUntil: null,
      maxScans: null,
      paused: false,
      inactiveMessage: null,
      fallbackUrl: null,
      fallbackWhenDown: false,
      utm: null,
      forwardQuery: false,
    });
    expect(res.body).not.toContain('argon2');
    const row = await t()
      .db.selectFrom('qr_codes')
      .select(['password_hash'])
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);

    // Options that change nothing are stored as none; null removes them, and the password.
    const cleared = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie,
      json: { redirectOptions: {}, password: null },
    });
    expect(cleared.json<QrCode>()).toMatchObject({ redirectOptions: null, hasPassword: false });
  });

  it('keeps the password when an edit leaves it out', async () => {
    const { cookie } = await signedInUser(t(), 'keeper');
    const code = (await post(cookie, { password: 'secret1' })).json<QrCode>();
    const res = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, { cookie, json: { name: 'Renamed' } });
    expect(res.json<QrCode>()).toMatchObject({ name: 'Renamed', hasPassword: true });
  });

  it.each([
    [
      { isDynamic: false, redirectOptions: { paused: true } },
      'Redirect options apply to dynamic codes only',
      'redirectOptions',
    ],
    [{ isDynamic: false, password: 'secret1' }, 'A password applies to dynamic codes only', 'password'],
    [{ password: 'short' }, 'Password must be at least 6 characters', undefined],
    [
      {
        redirectOptions: { rules: [{ conditions: [{ kind: 'os', os: ['ios'] }], destination: 'not a url' }] },
      },
      'Rule 1: Destination must be a valid URL',
      undefined,
    ],
    [
      {
        redirectOptions: {
          rules: [{ conditions: [{ kind: 'os', os: ['ios'] }], destination: 'http://127.0.0.1/admin' }],
        },
      },
      'Rule 1: Destination cannot be a local or private address',
      'redirectOptions.rules.0.destination',
    ],
    [
      { redirectOptions: { fallbackUrl: 'http://localhost:3000/r/abc' } },
      "Fallback URL cannot be one of this server's own short links",
      'redirectOptions.fallbackUrl',
    ],
    [
      {
        redirectOptions: {
          rules: [
            {
              conditions: [{ kind: 'time', days: [], from: '09:00', until: '10:00' }],
              destination: 'https://a.example/',
            },
          ],
        },
      },
      'Rule 1, condition 1: Days: choose at least one',
      undefined,
    ],
    [
      {
        redirectOptions: {
          rules: [
            {
              conditions: [{ kind: 'country', countries: ['FR', 'France'] }],
              destination: 'https://a.example/',
            },
          ],
        },
      },
      'Rule 1, condition 1: Countries must be two-letter codes like FR',
      undefined,
    ],
    [
      {
        type: 'text',
        content: 'Hello',
        redirectOptions: {
          rules: [{ conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://a.example/' }],
        },
      },
      'Redirect rules apply to link codes only (URL, Social, PDF, Video, Image)',
      'redirectOptions.rules',
    ],
    [
      { type: 'text', content: 'Hello', redirectOptions: { utm: {} } },
      'UTM parameters and query forwarding apply to link codes only',
      'redirectOptions.utm',
    ],
  ] as [Record<string, unknown>, string, string | undefined][])(
    'refuses %j: 400 “%s”, and stores nothing',
    async (body, message, field) => {
      const { cookie } = await signedInUser(t(), 'refused');
      const res = await post(cookie, body);
      expect(res.statusCode, res.body).toBe(400);
      const answer = res.json<{ message: string; issues?: { path: string; message: string }[] }>();
      expect(answer.message).toBe(message);
      if (field) expect(answer.issues).toEqual([{ path: field, message }]);
      expect(await t().db.selectFrom('qr_codes').select('id').execute()).toEqual([]);
    },
  );

  it('refuses a bad edit with 400 and changes nothing; another user’s code is 404 and untouched', async () => {
    const { cookie } = await signedInUser(t(), 'editor');
    const code = (await post(cookie, { redirectOptions: { paused: true } })).json<QrCode>();
    const before = await t()
      .db.selectFrom('qr_codes')
      .selectAll()
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    const bad = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie,
      json: { redirectOptions: { paused: false, maxScans: -1 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe('Maximum scans must be at least 1');
    const other = await signedInUser(t(), 'intruder');
    const foreign = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie: other.cookie,
      json: { redirectOptions: null, password: 'takeover1' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      await t().db.selectFrom('qr_codes').selectAll().where('id', '=', code.id).executeTakeFirstOrThrow(),
    ).toEqual(before);
  });
});
