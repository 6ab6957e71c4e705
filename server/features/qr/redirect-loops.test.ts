import { expect, it } from 'vitest';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import { call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode, postCode, snapshot, urlBody } from './qr.test-helpers.js';

/**
 * A dynamic code may not lead to one of this server's own short links however the address is spelled
 * (one `curl -L` recorded 11 scans), nor to a local or private address; and a redirect to one of our own
 * short links is never answered, whatever is stored.
 */
describeEachDb('redirect loops', (getDb) => {
  const t = useTestApp(getDb, { config: { publicUrl: 'http://qr.example.com' } });

  it('refuses our own short links under any scheme, port or spelling of the public host', async () => {
    const { cookie } = await signedInUser(t(), 'looper');
    const code = await createCode(t(), cookie, { isDynamic: true });
    const before = await snapshot(t());
    for (const content of [
      `https://qr.example.com/r/${code.slug}`,
      `http://qr.example.com/r/${code.slug}`,
      `https://qr.example.com:8443/r/${code.slug}`,
      `https://QR.Example.COM./r/${code.slug}`,
      `https://qr.example.com/x/../r/${code.slug}`,
      `https://qr.example.com//r/other99`,
    ]) {
      const res = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, { cookie, json: { content } });
      expect(expectRestError(res, 400).message, content).toBe(qrMessages.selfLink);
    }
    expect(await snapshot(t())).toEqual(before);
  });

  it('refuses loopback, private and localhost destinations for dynamic codes, in any spelling', async () => {
    const { cookie } = await signedInUser(t(), 'localer');
    const before = await snapshot(t());
    for (const content of [
      'http://127.0.0.1:3000/r/abcdefg',
      'http://localhost./r/abcdefg',
      'http://LOCALHOST:8080/',
      'http://app.localhost/',
      'http://[::1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://10.0.0.5/admin',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
    ]) {
      const res = await postCode(t(), cookie, urlBody({ isDynamic: true, content }));
      expect(expectRestError(res, 400).message, content).toBe(qrMessages.localDestination);
    }
    expect(await snapshot(t())).toEqual(before);
    // A static code's link is opened by the scanner's own device, never followed by this server.
    const local = await postCode(t(), cookie, urlBody({ isDynamic: false, content: 'http://192.168.1.1/' }));
    expect(local.statusCode).toBe(201);
    const fine = await postCode(
      t(),
      cookie,
      urlBody({ isDynamic: true, content: 'https://example.com/r/x' }),
    );
    expect(fine.statusCode).toBe(201);
  });

  it('never answers a redirect to one of our own short links, even when one is stored', async () => {
    const { cookie } = await signedInUser(t(), 'stored');
    const code = await createCode(t(), cookie, { isDynamic: true });
    // Saved before the check existed, or PUBLIC_URL changed since.
    await t()
      .db.updateTable('qr_codes')
      .set({ content: `http://qr.example.com:80/r/${code.slug}` })
      .where('id', '=', code.id)
      .execute();
    const res = await t().app.inject({ url: `/r/${code.slug}` });
    expect(res.statusCode).toBe(508);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('leads to one of its own short links');
  });
});
