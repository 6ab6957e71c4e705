import { expect, it } from 'vitest';
import { encodeContent } from '../../../src/qr/content.js';
import { call, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { createCode } from '../qr/qr.test-helpers.js';
import { IPHONE, dynamicCode, htmlOf, scan } from './redirect.test-helpers.js';

// The short link's own pages in the scanner's language, from the phone's Accept-Language.

const GERMAN_PHONE = 'de-DE,de;q=0.9,en;q=0.8';

describeOnSqlite('the short link’s pages in the scanner’s language', (getDb) => {
  const t = useTestApp(getDb);

  it('shows a Wi-Fi code to a phone set to German in German, and to one asking nothing in English', async () => {
    const content = encodeContent('wifi', { ssid: 'Gäste', encryption: 'WPA', password: 'willkommen' });
    const { row } = await dynamicCode(t(), 'wifi', content);
    const german = await scan(t(), row.slug, {
      headers: { 'user-agent': IPHONE, 'accept-language': GERMAN_PHONE },
    });
    expect(german.statusCode).toBe(200);
    expect(german.headers['content-language']).toBe('de');
    expect(String(german.headers.vary)).toMatch(/accept-language/i);
    const doc = htmlOf(german);
    expect(doc.documentElement.getAttribute('lang')).toBe('de');
    expect(doc.querySelector('.k')?.textContent).toBe('WLAN');
    expect(doc.querySelector('.h h2')?.textContent).toBe('So verbinden Sie sich');

    const plain = await scan(t(), row.slug, { headers: { 'user-agent': IPHONE } });
    expect(plain.headers['content-language']).toBe('en');
    expect(htmlOf(plain).querySelector('.h h2')?.textContent).toBe('How to connect');
  });

  it('answers an unknown link in Japanese, and in Arabic right to left', async () => {
    const ja = await call(t().app, 'GET', '/r/no-such-link', { headers: { 'accept-language': 'ja-JP' } });
    expect(ja.statusCode).toBe(404);
    expect(htmlOf(ja).querySelector('h1')?.textContent).toBe('この QR コードは無効です');
    const ar = await call(t().app, 'GET', '/r/no-such-link', {
      headers: { 'accept-language': 'ar-EG,ar;q=0.9' },
    });
    const doc = htmlOf(ar);
    expect([doc.documentElement.getAttribute('lang'), doc.documentElement.getAttribute('dir')]).toEqual([
      'ar',
      'rtl',
    ]);
    expect(doc.querySelector('h1')?.textContent).toBe('رمز QR هذا غير نشط');
  });

  it('asks for a password in French and says a paused code is paused in Spanish', async () => {
    const owner = await signedInUser(t(), 'polyglot');
    const locked = await createCode(t(), owner.cookie, {
      content: 'https://example.com/members',
      password: 'sésame ouvre-toi',
    });
    const form = htmlOf(
      await scan(t(), locked.slug!, {
        headers: { 'user-agent': IPHONE, 'accept-language': 'fr-FR,fr;q=0.9' },
      }),
    );
    expect(form.querySelector('h1')?.textContent).toBe('Ce code QR est protégé');
    expect(form.querySelector('label[for="pw"]')?.textContent).toBe('Mot de passe');
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe('Ouvrir');

    const paused = await createCode(t(), owner.cookie, {
      content: 'https://example.com/menu',
      redirectOptions: { paused: true },
    });
    const res = await scan(t(), paused.slug!, {
      headers: { 'user-agent': IPHONE, 'accept-language': 'es-MX' },
    });
    expect(htmlOf(res).querySelector('h1')?.textContent).toBe('Este código QR está en pausa');
  });

  it('redirects without reading the language', async () => {
    const { row } = await dynamicCode(t(), 'url', 'https://example.com/');
    const res = await scan(t(), row.slug, {
      headers: { 'user-agent': IPHONE, 'accept-language': GERMAN_PHONE },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers['content-language']).toBeUndefined();
  });
});
