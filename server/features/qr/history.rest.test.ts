import { describe, expect, it } from 'vitest';
import { encodeContent } from '../../../src/qr/content.js';
import type { QrVersion } from '../../../src/qr/history.js';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import { findQrRow, insertFolderRow, insertQrRow } from '../../test/fixtures.js';
import {
  call,
  callerFor,
  expectRestError,
  signedInUser,
  useTestApp,
  type TestApp,
} from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { DEFAULT_CUSTOMIZATION, createCode } from './qr.test-helpers.js';

function history(t: TestApp, cookie: string, id: number | string) {
  return call(t.app, 'GET', `/api/qr-codes/${id}/history`, { cookie });
}

async function versionsOf(t: TestApp, cookie: string, id: number): Promise<QrVersion[]> {
  const res = await history(t, cookie, id);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<QrVersion[]>();
}

function restore(t: TestApp, cookie: string, id: number | string, versionId: number | string) {
  return call(t.app, 'POST', `/api/qr-codes/${id}/history/${versionId}/restore`, { cookie });
}

async function put(t: TestApp, cookie: string, id: number, json: unknown): Promise<QrCode> {
  const res = await call(t.app, 'PUT', `/api/qr-codes/${id}`, { cookie, json });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<QrCode>();
}

/** The rows of a code's history as stored (whatever the API shows of them). */
async function storedVersions(t: TestApp, qrCodeId: number) {
  return t.db
    .selectFrom('qr_code_versions')
    .select(['id', 'kind'])
    .where('qr_code_id', '=', qrCodeId)
    .orderBy('id')
    .execute();
}

describeEachDb('a code’s history', (getDb) => {
  const t = useTestApp(getDb);

  describe('GET /api/qr-codes/{id}/history', () => {
    it('a new code has one version, its creation, by its owner at its creation time', async () => {
      const { user, cookie } = await signedInUser(t(), 'historian');
      t().clock.set(new Date('2026-11-26T09:00:00.000Z'));
      const code = await createCode(t(), cookie, { name: 'Menu', content: 'https://example.com/menu' });
      expect(await versionsOf(t(), cookie, code.id)).toEqual([
        {
          id: expect.any(Number) as number,
          created: '2026-11-26T09:00:00.000Z',
          kind: 'created',
          actor: { id: user.id, username: 'historian' },
          restoredFrom: null,
          state: { name: 'Menu', content: 'https://example.com/menu' },
          changes: [],
        },
      ]);
    });

    it('each edit of the name, the destination and the design is a version saying before → after, newest first', async () => {
      const { cookie } = await signedInUser(t(), 'editor');
      const code = await createCode(t(), cookie, { name: 'Menu', content: 'https://example.com/spring' });
      t().clock.advance(60_000);
      await put(t(), cookie, code.id, { name: 'Winter menu' });
      t().clock.advance(60_000);
      await put(t(), cookie, code.id, { content: 'https://example.com/winter' });
      t().clock.advance(60_000);
      await put(t(), cookie, code.id, {
        customization: { ...DEFAULT_CUSTOMIZATION, foregroundColor: '#1A237E', style: 'dots' },
      });
      const versions = await versionsOf(t(), cookie, code.id);
      expect(versions.map((v) => [v.kind, v.changes])).toEqual([
        [
          'edited',
          [
            {
              field: 'design',
              before: 'foreground #000000, style square',
              after: 'foreground #1A237E, style dots',
            },
          ],
        ],
        [
          'edited',
          [
            {
              field: 'destination',
              before: 'https://example.com/spring',
              after: 'https://example.com/winter',
            },
          ],
        ],
        ['edited', [{ field: 'name', before: 'Menu', after: 'Winter menu' }]],
        ['created', []],
      ]);
      // Newest first, one minute apart; the newest is the code as it is.
      expect(versions.map((v) => v.created)).toEqual(
        [3, 2, 1, 0].map((m) => new Date(Date.parse(versions[3]!.created) + m * 60_000).toISOString()),
      );
      expect(versions[0]!.state).toEqual({ name: 'Winter menu', content: 'https://example.com/winter' });
    });

    it('a content that is not a link reads as its description (a Wi-Fi network, its password hidden)', async () => {
      const { cookie } = await signedInUser(t(), 'wifi');
      const content = encodeContent('wifi', { ssid: 'Cafe', password: 'pw-1', encryption: 'WPA' });
      const code = await createCode(t(), cookie, { type: 'wifi', content, name: 'Wi-Fi' });
      await put(t(), cookie, code.id, {
        content: encodeContent('wifi', { ssid: 'Cafe 2', password: 'pw-1', encryption: 'WPA' }),
      });
      await put(t(), cookie, code.id, {
        content: encodeContent('wifi', { ssid: 'Cafe 2', password: 'pw-2', encryption: 'WPA' }),
      });
      const [passwordOnly, renamed] = await versionsOf(t(), cookie, code.id);
      expect(renamed!.changes).toEqual([
        { field: 'content', before: 'Wi-Fi: Cafe (WPA)', after: 'Wi-Fi: Cafe 2 (WPA)' },
      ]);
      expect(passwordOnly!.changes).toEqual([
        { field: 'content', before: 'Wi-Fi: Cafe 2 (WPA)', after: 'Wi-Fi: Cafe 2 (WPA) (details changed)' },
      ]);
      expect(JSON.stringify(passwordOnly)).not.toContain('pw-2');
    });

    it('an update that changes nothing, and a move to a folder, add no version', async () => {
      const { user, cookie } = await signedInUser(t(), 'idle');
      const folder = await insertFolderRow(t().db, user.id);
      const code = await createCode(t(), cookie);
      await put(t(), cookie, code.id, { name: code.name, content: code.content, customization: {} });
      await put(t(), cookie, code.id, { folderId: folder.id });
      const moved = await call(t().app, 'PATCH', `/api/qr-codes/${code.id}`, {
        cookie,
        json: { folderId: null },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect((await versionsOf(t(), cookie, code.id)).map((v) => v.kind)).toEqual(['created']);
    });

    it('a code kept from before history gets its first version at its first edit', async () => {
      const { user, cookie } = await signedInUser(t(), 'veteran');
      const code = await insertQrRow(t().db, {
        userId: user.id,
        name: 'Old',
        content: 'https://example.com/old',
        isDynamic: true,
        created: '2026-01-01T00:00:00.000Z',
      });
      expect(await versionsOf(t(), cookie, code.id)).toEqual([]);
      await put(t(), cookie, code.id, { content: 'https://example.com/new' });
      const versions = await versionsOf(t(), cookie, code.id);
      expect(versions.map((v) => [v.kind, v.created, v.changes])).toEqual([
        [
          'edited',
          t().clock.now().toISOString(),
          [{ field: 'destination', before: 'https://example.com/old', after: 'https://example.com/new' }],
        ],
        ['created', '2026-01-01T00:00:00.000Z', []],
      ]);
    });

    it('codes made in bulk have their creation version too', async () => {
      const { cookie } = await signedInUser(t(), 'bulky', { subscriptionTier: 'premium' });
      const res = await call(t().app, 'POST', '/api/qr-codes/bulk', {
        cookie,
        json: {
          codes: [
            { name: 'A', type: 'url', content: 'https://example.com/a', isDynamic: true },
            { name: 'B', type: 'url', content: 'https://example.com/b' },
          ],
          customization: {},
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const codes = (await call(t().app, 'GET', '/api/qr-codes', { cookie })).json<QrCode[]>();
      expect(codes).toHaveLength(2);
      for (const code of codes) {
        expect((await versionsOf(t(), cookie, code.id)).map((v) => [v.kind, v.state.name])).toEqual([
          ['created', code.name],
        ]);
      }
    });

    it("another user's code is 404, a bad id 400", async () => {
      const owner = await signedInUser(t(), 'owner');
      const stranger = await signedInUser(t(), 'stranger');
      const code = await createCode(t(), owner.cookie);
      expect(expectRestError(await history(t(), stranger.cookie, code.id), 404).message).toBe(
        'QR code not found',
      );
      expect(expectRestError(await history(t(), owner.cookie, 'abc'), 400).message).toBe(
        'Id must be a number',
      );
      expectRestError(await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`), 401);
    });
  });

  describe('POST /api/qr-codes/{id}/history/{versionId}/restore', () => {
    it('brings the version back and keeps the restore as a new version', async () => {
      const { user, cookie } = await signedInUser(t(), 'restorer');
      const code = await createCode(t(), cookie, {
        name: 'Menu',
        content: 'https://example.com/first',
        customization: { foregroundColor: '#1A237E' },
      });
      await put(t(), cookie, code.id, { content: 'https://example.com/second' });
      await put(t(), cookie, code.id, {
        name: 'Menu 3',
        content: 'https://example.com/third',
        customization: { style: 'dots' },
      });
      const [, , first] = await versionsOf(t(), cookie, code.id);
      t().clock.advance(3_600_000);

      const res = await restore(t(), cookie, code.id, first!.id);
      expect(res.statusCode, res.body).toBe(200);
      const restored = res.json<QrCode>();
      expect(restored).toMatchObject({
        id: code.id,
        name: 'Menu',
        content: 'https://example.com/first',
        customization: code.customization,
        slug: code.slug,
        updated: t().clock.now().toISOString(),
      });
      expect((await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie })).json()).toEqual(restored);

      const versions = await versionsOf(t(), cookie, code.id);
      expect(versions).toHaveLength(4);
      expect(versions[0]).toEqual({
        id: expect.any(Number) as number,
        created: t().clock.now().toISOString(),
        kind: 'restored',
        actor: { id: user.id, username: 'restorer' },
        restoredFrom: first!.id,
        state: { name: 'Menu', content: 'https://example.com/first' },
        changes: [
          { field: 'name', before: 'Menu 3', after: 'Menu' },
          { field: 'destination', before: 'https://example.com/third', after: 'https://example.com/first' },
          {
            field: 'design',
            before: 'foreground #000000, style dots',
            after: 'foreground #1A237E, style square',
          },
        ],
      });
    });

    it('brings back the redirect rules of the version too', async () => {
      const { cookie } = await signedInUser(t(), 'rules');
      const code = await createCode(t(), cookie, { content: 'https://example.com/app' });
      const rule = {
        label: 'iPhones',
        conditions: [{ kind: 'os', os: ['ios'] }],
        destination: 'https://apps.apple.com/app/x',
      };
      const withRules = await put(t(), cookie, code.id, { redirectOptions: { rules: [rule] } });
      expect(withRules.redirectOptions?.rules).toHaveLength(1);
      const [edited, created] = await versionsOf(t(), cookie, code.id);
      expect(edited!.changes).toEqual([
        { field: 'rules', before: 'none', after: '1 rule: iPhones → https://apps.apple.com/app/x' },
      ]);

      const res = await restore(t(), cookie, code.id, created!.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>().redirectOptions).toBeNull();
      const [restored] = await versionsOf(t(), cookie, code.id);
      expect(restored!.changes).toEqual([
        { field: 'rules', before: '1 rule: iPhones → https://apps.apple.com/app/x', after: 'none' },
      ]);
    });

    it('keeps whether a password is set, never the password; a restore leaves the password as it is', async () => {
      const { cookie } = await signedInUser(t(), 'locked');
      const code = await createCode(t(), cookie);
      await put(t(), cookie, code.id, { password: 'open-sesame' });
      const [locked, created] = await versionsOf(t(), cookie, code.id);
      expect(locked!.changes).toEqual([{ field: 'password', before: 'none', after: 'set' }]);
      const stored = await t()
        .db.selectFrom('qr_code_versions')
        .select('snapshot')
        .where('qr_code_id', '=', code.id)
        .execute();
      for (const { snapshot } of stored)
        expect(snapshot).not.toMatch(/argon|open-sesame|password_hash|Hash/i);

      const res = await restore(t(), cookie, code.id, created!.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<QrCode>().hasPassword).toBe(true);
    });

    it('restoring the state the code already has is still kept, with no changes', async () => {
      const { cookie } = await signedInUser(t(), 'again');
      const code = await createCode(t(), cookie);
      const [only] = await versionsOf(t(), cookie, code.id);
      const res = await restore(t(), cookie, code.id, only!.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(
        (await versionsOf(t(), cookie, code.id)).map((v) => [v.kind, v.restoredFrom, v.changes]),
      ).toEqual([
        ['restored', only!.id, []],
        ['created', null, []],
      ]);
    });

    it("a static code's only version cannot be restored: 403, nothing changes", async () => {
      const { cookie } = await signedInUser(t(), 'static');
      const code = await createCode(t(), cookie, { isDynamic: false });
      const [only] = await versionsOf(t(), cookie, code.id);
      expect(only!.kind).toBe('created');
      const body = expectRestError(
        await restore(t(), cookie, code.id, only!.id),
        403,
        'STATIC_CODE_NOT_EDITABLE',
      );
      expect(body.message).toBe('Static QR codes cannot be edited. Create a new QR code instead.');
      expect(await storedVersions(t(), code.id)).toEqual([{ id: only!.id, kind: 'created' }]);
    });

    it("another user's code, another code's version and a missing version are 404; nothing changes", async () => {
      const owner = await signedInUser(t(), 'keeper');
      const stranger = await signedInUser(t(), 'thief');
      const code = await createCode(t(), owner.cookie, { content: 'https://example.com/one' });
      await put(t(), owner.cookie, code.id, { content: 'https://example.com/two' });
      const other = await createCode(t(), owner.cookie, { content: 'https://example.com/other' });
      const [, first] = await versionsOf(t(), owner.cookie, code.id);
      const [otherFirst] = await versionsOf(t(), owner.cookie, other.id);
      const before = { code: await findQrRow(t().db, code.id), versions: await storedVersions(t(), code.id) };

      const foreign = expectRestError(await restore(t(), stranger.cookie, code.id, first!.id), 404);
      expect(foreign.message).toBe('QR code not found');
      const mixed = expectRestError(await restore(t(), owner.cookie, code.id, otherFirst!.id), 404);
      expect(mixed.message).toBe('Version not found');
      const missing = expectRestError(await restore(t(), owner.cookie, code.id, first!.id + 1000), 404);
      expect(missing.message).toBe('Version not found');
      expect(expectRestError(await restore(t(), owner.cookie, code.id, 'abc'), 400).message).toBe(
        'Version id must be a number',
      );
      expect(expectRestError(await restore(t(), owner.cookie, code.id, '0'), 400).message).toBe(
        'Version id must be a positive number',
      );
      // The stranger's own code does not open the owner's versions either.
      const theirs = await createCode(t(), stranger.cookie);
      expectRestError(await restore(t(), stranger.cookie, theirs.id, first!.id), 404);

      expect({
        code: await findQrRow(t().db, code.id),
        versions: await storedVersions(t(), code.id),
      }).toEqual(before);
    });

    it('a version whose content is no longer allowed is refused like an edit to it: 400, nothing changes', async () => {
      const { user, cookie } = await signedInUser(t(), 'careful');
      const code = await createCode(t(), cookie);
      await t()
        .db.insertInto('qr_code_versions')
        .values({
          qr_code_id: code.id,
          user_id: user.id,
          created: new Date().toISOString(),
          kind: 'edited',
          restored_from: null,
          snapshot: JSON.stringify({ name: 'Bad', content: 'javascript:alert(1)', customization: {} }),
        })
        .execute();
      const [bad] = await versionsOf(t(), cookie, code.id);
      const row = await findQrRow(t().db, code.id);
      const body = expectRestError(await restore(t(), cookie, code.id, bad!.id), 400);
      expect(body.message).toBe('Must be a valid URL');
      expect(await findQrRow(t().db, code.id)).toEqual(row);
      expect(await storedVersions(t(), code.id)).toHaveLength(2);
    });

    it('works through tRPC too (qr.history, qr.restore)', async () => {
      const { user, cookie } = await signedInUser(t(), 'trpc');
      const code = await createCode(t(), cookie, { content: 'https://example.com/a' });
      const caller = callerFor(t(), user);
      await caller.qr.update({ id: code.id, content: 'https://example.com/b' });
      const [, first] = await caller.qr.history({ id: code.id });
      const restored = await caller.qr.restore({ id: code.id, versionId: first!.id });
      expect(restored.content).toBe('https://example.com/a');
      expect((await caller.qr.history({ id: code.id })).map((v) => v.kind)).toEqual([
        'restored',
        'edited',
        'created',
      ]);
    });
  });

  describe('DELETE /api/qr-codes/{id}', () => {
    it('deletes the code’s history with it', async () => {
      const { cookie } = await signedInUser(t(), 'tidy');
      const code = await createCode(t(), cookie);
      const kept = await createCode(t(), cookie);
      await put(t(), cookie, code.id, { name: 'Renamed' });
      expect(await storedVersions(t(), code.id)).toHaveLength(2);
      const res = await call(t().app, 'DELETE', `/api/qr-codes/${code.id}`, { cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(await storedVersions(t(), code.id)).toEqual([]);
      expect(await storedVersions(t(), kept.id)).toHaveLength(1);
    });
  });
});
