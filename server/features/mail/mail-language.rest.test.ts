import fs from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../test/test-db.js';
import { insertTestUser, TEST_PASSWORD } from '../../test/fixtures.js';
import type { Preferences } from '../../../src/auth/account.schema.js';
import {
  call,
  expectRestError,
  login,
  newUserBody,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { MAIL_LOCALES } from './messages/index.js';

/** The outbox's mails, parsed (subject, text and HTML decoded from their charset and transfer encoding). */
async function mailsTo(t: TestApp, to: string) {
  let files: string[];
  try {
    files = (await fs.readdir(t.outbox)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const mails = await Promise.all(
    files.map(async (f) => simpleParser(await fs.readFile(path.join(t.outbox, f)))),
  );
  return mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === to);
}

/** Waits for the `n`th mail to an address (some are sent in the background). */
async function nthMailTo(t: TestApp, to: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const mails = await mailsTo(t, to);
    if (mails.length >= n) return mails[n - 1]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no mail number ${n} to ${to}`);
}

const languagesOf = async (t: TestApp, username: string) =>
  t.db
    .selectFrom('users')
    .select(['language', 'browser_language'])
    .where('username', '=', username)
    .executeTakeFirstOrThrow();

const requestReset = (t: TestApp, email: string, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', '/api/password-reset/request', { json: { email }, headers });

describeEachDb('mails in the recipient’s language', (getDb) => {
  const t = useTestApp(getDb);

  it('writes a new account’s mails in the language its browser asked for, then in the last one it signed in with', async () => {
    const body = newUserBody({ username: 'lena', name: 'Lena', email: 'lena@example.com' });
    const res = await call(t().app, 'POST', '/api/register', {
      json: body,
      headers: { 'accept-language': 'de-AT,de;q=0.9,en;q=0.8' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await languagesOf(t(), 'lena')).toEqual({ language: null, browser_language: 'de' });

    // The verification link's mail, in German: subject, greeting, words, button and the HTML's lang.
    const verify = await nthMailTo(t(), 'lena@example.com', 1);
    const de = MAIL_LOCALES.de.verifyEmail({ hours: 24 });
    expect(verify.subject).toBe(de.subject);
    expect(verify.text).toContain(MAIL_LOCALES.de.layout.greeting('Lena'));
    expect(verify.text).toContain(de.paragraphs[0]);
    expect(verify.text).toContain(`${de.action}: `);
    expect(verify.html).toContain('<html lang="de" dir="ltr">');
    expect(verify.text).not.toMatch(/Hello|Please confirm|This message was sent/);

    // Signed in from a Japanese browser: the next mail is Japanese.
    const signedIn = await call(t().app, 'POST', '/api/login', {
      json: { username: 'lena', password: TEST_PASSWORD },
      headers: { 'accept-language': 'ja-JP,ja;q=0.9' },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await languagesOf(t(), 'lena')).browser_language).toBe('ja');
    expect((await requestReset(t(), 'lena@example.com')).statusCode).toBe(200);
    const reset = await nthMailTo(t(), 'lena@example.com', 2);
    const ja = MAIL_LOCALES.ja.passwordReset({ username: 'lena', hours: 1 });
    expect(reset.subject).toBe(ja.subject);
    expect(reset.text).toContain(ja.paragraphs[0]);
    expect(reset.html).toContain('<html lang="ja" dir="ltr">');

    // A browser in a language we do not have changes nothing; a request's own header is not the
    // recipient's (a reset asked from an Arabic browser still goes out in Japanese).
    await call(t().app, 'POST', '/api/login', {
      json: { username: 'lena', password: TEST_PASSWORD },
      headers: { 'accept-language': 'sv-SE,sv;q=0.9' },
    });
    expect((await languagesOf(t(), 'lena')).browser_language).toBe('ja');
    await requestReset(t(), 'lena@example.com', { 'accept-language': 'ar' });
    expect((await nthMailTo(t(), 'lena@example.com', 3)).subject).toBe(ja.subject);
  });

  it('prefers the language the person chose, writes Arabic right to left, and English when nothing is known', async () => {
    const ada = await insertTestUser(t().db, { username: 'ada', email: 'ada@example.com' });
    await requestReset(t(), 'ada@example.com');
    const english = await nthMailTo(t(), 'ada@example.com', 1);
    expect(english.subject).toBe('Reset your QR Creator password');
    expect(english.html).toContain('<html lang="en" dir="ltr">');

    await t()
      .db.updateTable('users')
      .set({ language: 'ar', browser_language: 'fr' })
      .where('id', '=', ada.id)
      .execute();
    await requestReset(t(), 'ada@example.com');
    const arabic = await nthMailTo(t(), 'ada@example.com', 2);
    expect(arabic.subject).toBe(MAIL_LOCALES.ar.passwordReset({ username: 'ada', hours: 1 }).subject);
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.text).toContain(MAIL_LOCALES.ar.passwordReset({ username: 'ada', hours: 1 }).paragraphs[0]);
  });

  it('tells of a new sign-in in the person’s language and time zone', async () => {
    const row = await insertTestUser(t().db, { username: 'marta', email: 'marta@example.com' });
    await t()
      .db.updateTable('users')
      .set({ login_alerts: true, time_zone: 'Europe/Warsaw' })
      .where('id', '=', row.id)
      .execute();
    // The first sign-in only remembers the browser; a second from another browser and address is new.
    await login(t().app, 'marta', TEST_PASSWORD);
    await call(t().app, 'POST', '/api/login', {
      json: { username: 'marta', password: TEST_PASSWORD },
      headers: {
        'accept-language': 'pl-PL',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
      remoteAddress: '198.51.100.7',
    });
    const alert = await nthMailTo(t(), 'marta@example.com', 1);
    expect(alert.subject).toBe(
      MAIL_LOCALES.pl.newSignIn({ username: 'marta', when: '', browser: null, os: null, address: '' })
        .subject,
    );
    expect(alert.text).toContain('Firefox');
    expect(alert.text).toContain('Linux');
    // Warsaw's zone, written as Polish writes it.
    expect(alert.text).toMatch(/CET|CEST|GMT\+1|GMT\+2|czas środkowoeuropejski/);
    expect(alert.html).toContain('<html lang="pl" dir="ltr">');
  });

  it('takes the language chosen in Settings over the browser’s, and goes back to the browser’s when it is cleared', async () => {
    const { user, cookie } = await signedInUser(t(), 'chooser');
    await t().db.updateTable('users').set({ browser_language: 'es' }).where('id', '=', user.id).execute();
    const put = (json: unknown) => call(t().app, 'PUT', '/api/user/preferences', { cookie, json });

    const chosen = await put({ language: 'nl' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json<Preferences>().language).toBe('nl');
    await requestReset(t(), user.email!);
    expect((await nthMailTo(t(), user.email!, 1)).subject).toBe(
      MAIL_LOCALES.nl.passwordReset({ username: user.username, hours: 1 }).subject,
    );

    // A language we do not have: 400 naming the field, and nothing changes (not even the other fields).
    const refused = await put({ language: 'tlh', theme: 'dark' });
    const error = expectRestError(refused, 400);
    expect(error.message).toMatch(
      /^language must be one of en, de, fr, es, pt-BR, it, nl, pl, ja, zh-CN, ar/,
    );
    const read = await call(t().app, 'GET', '/api/user/preferences', { cookie });
    expect(read.json<Preferences>()).toMatchObject({ language: 'nl', theme: 'system' });

    // Cleared: the browser's language again.
    expect((await put({ language: null })).json<Preferences>().language).toBeNull();
    await requestReset(t(), user.email!);
    expect((await nthMailTo(t(), user.email!, 2)).subject).toBe(
      MAIL_LOCALES.es.passwordReset({ username: user.username, hours: 1 }).subject,
    );
  });
});
