import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { badIds, createCode } from './qr.test-helpers.js';

describeEachDb('QR code REST paths', (getDb) => {
  describe('GET /api/qr-codes', () => {
    const t = useTestApp(getDb);

    it('lists only the caller’s codes, newest first', async () => {
      const me = await signedInUser(t(), 'lister');
      const other = await signedInUser(t(), 'other');
      const first = await createCode(t(), me.cookie, { name: 'First' });
      t().clock.advance(1_000);
      await createCode(t(), other.cookie, { name: 'Not mine' });
      t().clock.advance(1_000);
      const second = await createCode(t(), me.cookie, { name: 'Second', isDynamic: false });
      t().clock.advance(1_000);
      const third = await createCode(t(), me.cookie, { name: 'Third' });

      const res = await call(t().app, 'GET', '/api/qr-codes', { cookie: me.cookie });
      expect(res.statusCode).toBe(200);
      const list = res.json<QrCode[]>();
      expect(list.map((c) => c.name)).toEqual(['Third', 'Second', 'First']);
      expect(list).toEqual([third, second, first]);
      expect(res.body).not.toContain('Not mine');
    });

    it('orders codes created at the same instant by id, newest first', async () => {
      const me = await signedInUser(t(), 'sameinstant');
      const created = '2026-01-01T00:00:00.000Z';
      const a = await insertQrRow(t().db, { userId: me.user.id, created });
      const b = await insertQrRow(t().db, { userId: me.user.id, created });
      const list = (await call(t().app, 'GET', '/api/qr-codes', { cookie: me.cookie })).json<QrCode[]>();
      expect(list.map((c) => c.id)).toEqual([b.id, a.id]);
    });

    it('answers an empty list for a user without codes', async () => {
      const { cookie } = await signedInUser(t(), 'empty');
      const res = await call(t().app, 'GET', '/api/qr-codes', { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('answers 401 when signed out', async () => {
      expectRestError(await call(t().app, 'GET', '/api/qr-codes'), 401, 'NOT_SIGNED_IN');
    });
  });

  describe('GET /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    it('answers 200 with the caller’s code, as POST answered it', async () => {
      const { cookie } = await signedInUser(t(), 'getter');
      const code = await createCode(t(), cookie, { customization: { style: 'dots' } });
      const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(code);
    });

    it("answers 404 for another user's code, with the same body as for a missing id", async () => {
      const me = await signedInUser(t(), 'curious');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie, {
        name: 'Private name',
        content: 'https://secret.example',
      });
      const foreign = await call(t().app, 'GET', `/api/qr-codes/${theirs.id}`, { cookie: me.cookie });
      const missing = await call(t().app, 'GET', '/api/qr-codes/424242', { cookie: me.cookie });
      expect(expectRestError(foreign, 404, 'NOT_FOUND').message).toBe('QR code not found');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.body).not.toMatch(/Private name|secret\.example/);
    });

    it.each(badIds)('answers 400 for the id %s (%s)', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badid');
      const res = await call(t().app, 'GET', `/api/qr-codes/${id}`, { cookie });
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toBe(message);
    });

    it('answers 401 when signed out', async () => {
      const { cookie } = await signedInUser(t(), 'signedout');
      const code = await createCode(t(), cookie);
      expectRestError(await call(t().app, 'GET', `/api/qr-codes/${code.id}`), 401, 'NOT_SIGNED_IN');
    });
  });

  describe('GET /api/qr-codes/{id}/image', () => {
    const t = useTestApp(getDb);

    it('names the image after the code, with an ASCII fallback', async () => {
      const { cookie } = await signedInUser(t(), 'imagename');
      const code = await createCode(t(), cookie, { name: 'Café Menü' });
      for (const format of ['png', 'svg'] as const) {
        const res = await call(t().app, 'GET', `/api/qr-codes/${code.id}/image?format=${format}&size=128`, {
          cookie,
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-disposition']).toBe(
          `inline; filename="qrcode-${code.id}.${format}"; filename*=UTF-8''cafe-menu.${format}`,
        );
      }
    });
  });
});
