import { describe, expect, it } from 'vitest';
import { encodeContent } from '../../../src/qr/content.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { findQrRow, insertFolderRow } from '../../test/fixtures.js';
import { EVIL_ORIGIN, call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import {
  DEFAULT_CUSTOMIZATION,
  INVALID_URL,
  SELF_LINK,
  badIds,
  createCode,
  snapshot,
} from './qr.test-helpers.js';

const STATIC_EDIT = /static/i;
const TYPE_CHANGE = 'The type of a QR code cannot be changed';

describeEachDb('QR code REST paths', (getDb) => {
  describe('PUT /api/qr-codes/{id}', () => {
    const t = useTestApp(getDb);

    function put(
      id: number | string,
      cookie: string | undefined,
      json: unknown,
      headers?: Record<string, string>,
    ) {
      return call(t().app, 'PUT', `/api/qr-codes/${id}`, {
        ...(cookie ? { cookie } : {}),
        json,
        ...(headers ? { headers } : {}),
      });
    }

    it('changes name, content and customization of a dynamic code: 200 with a later `updated`', async () => {
      const { cookie } = await signedInUser(t(), 'editor');
      const code = await createCode(t(), cookie);
      t().clock.advance(60_000);
      const res = await put(code.id, cookie, {
        name: 'Renamed',
        content: 'https://example.com/new-destination',
        customization: { foregroundColor: '#8B5CF6', style: 'dots' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json<QrCode>();
      expect(updated).toEqual({
        ...code,
        name: 'Renamed',
        content: 'https://example.com/new-destination',
        customization: { ...DEFAULT_CUSTOMIZATION, foregroundColor: '#8B5CF6', style: 'dots' },
        updated: t().clock.now().toISOString(),
        // Checked again for the new design (violet on white: 80 % contrast).
        scannable: { verdict: 'scannable', reason: expect.stringContaining('contrast 80 %') as string },
      });
      expect(Date.parse(updated.updated)).toBeGreaterThan(Date.parse(code.updated));
      // The short link stays: printed codes keep working.
      expect(updated.slug).toBe(code.slug);
      expect(updated.shortUrl).toBe(code.shortUrl);
      expect((await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie })).json()).toEqual(updated);
    });

    it('accepts the whole create body with the same type and kind', async () => {
      const { cookie } = await signedInUser(t(), 'fullbody');
      const content = encodeContent('wifi', { ssid: 'Office', password: 'pw-1', encryption: 'WPA' });
      const code = await createCode(t(), cookie, { type: 'wifi', content, name: 'Wi-Fi' });
      const next = encodeContent('wifi', { ssid: 'Office 2', password: 'pw-2', encryption: 'WEP' });
      const res = await put(code.id, cookie, {
        name: 'Wi-Fi 2',
        type: 'wifi',
        content: next,
        isDynamic: true,
        customization: {},
        folderId: null,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({ name: 'Wi-Fi 2', type: 'wifi', content: next });
    });

    it('changes only what was sent', async () => {
      const { cookie } = await signedInUser(t(), 'partialput');
      const code = await createCode(t(), cookie, { customization: { foregroundColor: '#10B981' } });
      const res = await put(code.id, cookie, { name: 'Only the name' });
      expect(res.statusCode).toBe(200);
      const updated = res.json<QrCode>();
      expect(updated.name).toBe('Only the name');
      expect(updated.content).toBe(code.content);
      expect(updated.customization).toEqual(code.customization);
    });

    it('refuses to edit a static code: 403 with a clear message, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'staticedit');
      const code = await createCode(t(), cookie, { isDynamic: false });
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { name: 'Changed', content: 'https://example.com/changed' });
      const body = expectRestError(res, 403, 'STATIC_CODE_NOT_EDITABLE');
      expect(body.message).toMatch(STATIC_EDIT);
      expect(body.limitReached).toBeUndefined();
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses a type change with 400, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'typechange');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { type: 'text', content: 'Just text' });
      expect(expectRestError(res, 400, 'BAD_REQUEST').message).toBe(TYPE_CHANGE);
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses to turn a dynamic code static with 400', async () => {
      const { cookie } = await signedInUser(t(), 'kindchange');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, cookie, { isDynamic: false }), 400, 'BAD_REQUEST');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each([
      ['javascript: content', { content: 'javascript:alert(1)' }, INVALID_URL],
      ['data: content', { content: 'data:text/html,<script>alert(1)</script>' }, INVALID_URL],
      ['empty content', { content: '' }, 'Content is required'],
      ['a blank name', { name: '  ' }, 'Name is required'],
      ['a 10 kB name', { name: 'n'.repeat(10 * 1024) }, 'Name must be at most 100'],
      [
        'an invalid colour',
        { customization: { foregroundColor: 'blue' } },
        'Foreground colour must be a colour',
      ],
      ['a JSON array body', [{ name: 'x' }], 'Request body must be a JSON object'],
    ])('refuses %s with 400, nothing changes', async (_n, json, message) => {
      const { cookie } = await signedInUser(t(), 'invalidput');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, json);
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toContain(message);
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses content that is invalid for the code’s own type (wifi without SSID)', async () => {
      const { cookie } = await signedInUser(t(), 'wifiput');
      const content = encodeContent('wifi', { ssid: 'Office', password: 'pw', encryption: 'WPA' });
      const code = await createCode(t(), cookie, { type: 'wifi', content });
      const before = await snapshot(t());
      const res = await put(code.id, cookie, {
        content: encodeContent('wifi', { ssid: '', encryption: 'WPA' }),
      });
      expect(expectRestError(res, 400).message).toBe('Network name (SSID) is required');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses pointing the code at its own short link', async () => {
      const { cookie } = await signedInUser(t(), 'selfput');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(code.id, cookie, { content: code.shortUrl });
      expect(expectRestError(res, 400).message).toBe(SELF_LINK);
      expect(await snapshot(t())).toEqual(before);
    });

    it("answers 404 for another user's code, like a missing one, and changes nothing", async () => {
      const me = await signedInUser(t(), 'intruder');
      const owner = await signedInUser(t(), 'owner');
      const theirs = await createCode(t(), owner.cookie);
      const before = await snapshot(t());
      const foreign = await put(theirs.id, me.cookie, { name: 'Hijacked', content: 'https://evil.example' });
      const missing = await put(987_654, me.cookie, { name: 'Hijacked' });
      expectRestError(foreign, 404, 'NOT_FOUND');
      expectRestError(missing, 404, 'NOT_FOUND');
      expect(foreign.json()).toEqual(missing.json());
      expect(await snapshot(t())).toEqual(before);
    });

    it('edits the code of the path, whatever id or userId the body names', async () => {
      const me = await signedInUser(t(), 'pathwins');
      const owner = await signedInUser(t(), 'owner2');
      const mine = await createCode(t(), me.cookie);
      const theirs = await createCode(t(), owner.cookie, { name: 'Theirs' });
      const res = await put(mine.id, me.cookie, {
        id: theirs.id,
        userId: owner.user.id,
        name: 'Mine renamed',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<QrCode>()).toMatchObject({ id: mine.id, userId: me.user.id, name: 'Mine renamed' });
      expect((await findQrRow(t().db, theirs.id))?.name).toBe('Theirs');
      expect((await findQrRow(t().db, mine.id))?.user_id).toBe(me.user.id);
    });

    it("answers 404 when moving through PUT into another user's folder", async () => {
      const me = await signedInUser(t(), 'putfolder');
      const owner = await signedInUser(t(), 'owner3');
      const theirs = await insertFolderRow(t().db, owner.user.id);
      const code = await createCode(t(), me.cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, me.cookie, { folderId: theirs.id }), 404, 'NOT_FOUND');
      expect(await snapshot(t())).toEqual(before);
    });

    it.each(badIds)('answers 400 for the id %s', async (id, message) => {
      const { cookie } = await signedInUser(t(), 'badputid');
      const res = await put(id, cookie, { name: 'x' });
      expect(expectRestError(res, 400, 'VALIDATION_FAILED').message).toBe(message);
    });

    it('answers 401 when signed out, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'putout');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      expectRestError(await put(code.id, undefined, { name: 'x' }), 401, 'NOT_SIGNED_IN');
      expect(await snapshot(t())).toEqual(before);
    });

    it('refuses a cross-origin request with 403, nothing changes', async () => {
      const { cookie } = await signedInUser(t(), 'putcsrf');
      const code = await createCode(t(), cookie);
      const before = await snapshot(t());
      const res = await put(
        code.id,
        cookie,
        { content: 'https://evil.example/phish' },
        { origin: EVIL_ORIGIN },
      );
      expectRestError(res, 403, 'CROSS_SITE_REFUSED');
      expect(await snapshot(t())).toEqual(before);
    });
  });
});
