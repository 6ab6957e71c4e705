import { expect, it } from 'vitest';
import type { DailyCount, LocationCount, PerformanceRow } from '../../../src/analytics/analytics.schema.js';
import type { AnalyticsShare, PublicShare } from '../../../src/shares/share.schema.js';
import { shareMessages } from '../../../src/shares/share.schema.js';
import { insertFolderRow } from '../../test/fixtures.js';
import { call, callerFor, expectRestError, setCookieLines, signedInUser } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { createTeam } from '../workspaces/workspaces.service.js';
import { KOLKATA, NY, useAnalyticsFixture } from '../analytics/analytics.test-helpers.js';
import { PUBLIC_SHARE_REQUESTS } from './share-gate.js';
import { SHARE_PASSWORD_TRIES } from './shares.service.js';

const tokenOf = (share: AnalyticsShare) => share.url.split('/share/')[1]!;

/** Alice's codes A (Menu), B (Flyer), C (never scanned) and their scans: analytics.test-helpers.ts. */
describeEachDb('shared dashboards', (getDb) => {
  const { t, codes, signedIn, get } = useAnalyticsFixture(getDb);

  async function create(body: Record<string, unknown>, cookie = signedIn.aliceCookie, workspace?: number) {
    return call(t().app, 'POST', '/api/analytics-shares', {
      cookie,
      json: body,
      ...(workspace ? { headers: { 'x-workspace': String(workspace) } } : {}),
    });
  }
  async function share(body: Record<string, unknown>): Promise<AnalyticsShare> {
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<AnalyticsShare>();
  }
  /** One code's places as its details page reads them (tRPC: it has no REST path). */
  const codeLocations = (id: number, days: number, tz: string): Promise<LocationCount[]> =>
    callerFor(t(), signedIn.alice).analytics.qrCodeLocations({ id, days, tz });
  const open = (token: string, query = '', options: { cookie?: string; ip?: string } = {}) =>
    call(t().app, 'GET', `/api/public/shares/${token}${query}`, {
      ...(options.cookie ? { headers: { cookie: options.cookie } } : {}),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
  const unlock = (token: string, password: string, ip?: string) =>
    call(t().app, 'POST', `/api/public/shares/${token}/unlock`, {
      json: { password },
      ...(ip ? { remoteAddress: ip } : {}),
    });

  it('POST /api/analytics-shares makes a link to a code; GET lists it; the link shows its figures signed out', async () => {
    const made = await share({ qrCodeId: codes.A.id });
    expect(made).toMatchObject({
      kind: 'code',
      qrCodeId: codes.A.id,
      folderId: null,
      title: 'Menu',
      hasPassword: false,
      expiresAt: null,
      views: 0,
      lastViewedAt: null,
    });
    expect(tokenOf(made)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(made.url).toBe(`${t().deps.config.publicUrl}/share/${tokenOf(made)}`);
    expect(await get<{ items: AnalyticsShare[] }>(`/api/analytics-shares?qrCodeId=${codes.A.id}`)).toEqual({
      items: [made],
    });
    expect(await get<{ items: AnalyticsShare[] }>(`/api/analytics-shares?qrCodeId=${codes.B.id}`)).toEqual({
      items: [],
    });

    const res = await open(tokenOf(made), `?days=30&tz=${encodeURIComponent(NY)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<PublicShare>();
    expect(body).toMatchObject({ kind: 'code', title: 'Menu', needsPassword: false, expiresAt: null });
    // The same figures as the signed-in analytics of the code for the same period and zone.
    const q = `days=30&tz=${encodeURIComponent(NY)}`;
    const daily = await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?${q}`);
    const locations = await codeLocations(codes.A.id, 30, NY);
    const perf = await get<PerformanceRow[]>(`/api/analytics/performance?${q}`);
    const a = body.analytics!;
    expect(a.daily).toEqual(daily);
    expect(a.locations).toEqual(locations);
    expect(a.totalScans).toBe(perf.find((r) => r.qrCodeId === codes.A.id)!.count);
    expect(a.totalScans).toBeGreaterThan(0);
    expect(a.hourly).toHaveLength(24);
    expect(a.hourly.reduce((s, h) => s + h.count, 0)).toBe(a.totalScans);
    expect(a.devices.reduce((s, d) => s + d.count, 0)).toBe(a.totalScans);
    expect(a.codes).toBeNull();
    // Without bots, as the signed-in view without bots.
    const human = (await open(tokenOf(made), `?${q}&excludeBots=true`)).json<PublicShare>().analytics!;
    const perfHuman = await get<PerformanceRow[]>(`/api/analytics/performance?${q}&excludeBots=true`);
    expect(human.totalScans).toBe(perfHuman.find((r) => r.qrCodeId === codes.A.id)!.count);
    expect(human.devices.map((d) => d.device)).not.toContain('Bot');

    // Each answer with figures is a view.
    const [listed] = (await get<{ items: AnalyticsShare[] }>('/api/analytics-shares')).items;
    expect(listed).toMatchObject({ id: made.id, views: 2 });
    expect(listed!.lastViewedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("a folder's link sums its codes and lists them by name, no ids", async () => {
    const folder = await insertFolderRow(t().db, signedIn.alice.id, 'Posters');
    await t()
      .db.updateTable('qr_codes')
      .set({ folder_id: folder.id })
      .where('id', 'in', [codes.A.id, codes.B.id])
      .execute();
    const made = await share({ folderId: folder.id });
    expect(made).toMatchObject({ kind: 'folder', folderId: folder.id, qrCodeId: null, title: 'Posters' });
    const q = `days=7&tz=${encodeURIComponent(KOLKATA)}`;
    const a = (await open(tokenOf(made), `?${q}`)).json<PublicShare>().analytics!;
    const perf = await get<PerformanceRow[]>(`/api/analytics/performance?${q}`);
    const countOf = (id: number) => perf.find((r) => r.qrCodeId === id)!.count;
    expect(a.totalScans).toBe(countOf(codes.A.id) + countOf(codes.B.id));
    expect(a.codes).toEqual(
      [
        { name: 'Menu', scans: countOf(codes.A.id) },
        { name: 'Flyer', scans: countOf(codes.B.id) },
      ].sort((x, y) => y.scans - x.scans),
    );
    // The daily series and the places are the sums of the two codes'.
    const dailyA = await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.A.id}/daily?${q}`);
    const dailyB = await get<DailyCount[]>(`/api/analytics/qr-codes/${codes.B.id}/daily?${q}`);
    expect(a.daily.map((d) => [d.date, d.count])).toEqual(
      dailyA.map((d, i) => [d.date, d.count + dailyB[i]!.count]),
    );
    const places = new Map<string, number>();
    for (const id of [codes.A.id, codes.B.id])
      for (const l of await codeLocations(id, 7, KOLKATA))
        places.set(l.location, (places.get(l.location) ?? 0) + l.count);
    expect(Object.fromEntries(a.locations.map((l) => [l.location, l.count]))).toEqual(
      Object.fromEntries(places),
    );
    expect(
      await get<{ items: AnalyticsShare[] }>(`/api/analytics-shares?folderId=${folder.id}`),
    ).toMatchObject({
      items: [{ id: made.id }],
    });
  });

  it('answers nothing of the owner beyond what the link shows', async () => {
    await t()
      .db.updateTable('users')
      .set({ email: 'alice-secret@example.com' })
      .where('id', '=', signedIn.alice.id)
      .execute();
    const made = await share({ qrCodeId: codes.A.id });
    const res = await open(tokenOf(made), '?days=365');
    const text = res.body;
    const code = await t()
      .db.selectFrom('qr_codes')
      .selectAll()
      .where('id', '=', codes.A.id)
      .executeTakeFirstOrThrow();
    for (const secret of [
      'alice',
      'alice-secret@example.com',
      code.content,
      code.slug!,
      '203.0.113',
      '198.51.100',
      'Mozilla',
      '"id"',
      'qrCodeId',
      'userAgent',
      'ipAddress',
    ])
      expect(text, secret).not.toContain(secret);
    expect(Object.keys(res.json<PublicShare>()).sort()).toEqual([
      'analytics',
      'expiresAt',
      'kind',
      'needsPassword',
      'title',
    ]);
  });

  it('a password hides the figures until unlocked; the cookie opens that link only; wrong ones are throttled', async () => {
    const made = await share({ qrCodeId: codes.A.id, password: 'open sesame' });
    const other = await share({ qrCodeId: codes.B.id, password: 'open sesame' });
    expect(made.hasPassword).toBe(true);
    const locked = await open(tokenOf(made));
    expect(locked.json<PublicShare>()).toEqual({
      kind: 'code',
      title: 'Menu',
      needsPassword: true,
      expiresAt: null,
      analytics: null,
    });
    const wrong = await unlock(tokenOf(made), 'nope');
    expect(expectRestError(wrong, 401).message).toBe(shareMessages.wrongPassword);
    expect(wrong.headers['x-robots-tag']).toBe('noindex');
    const right = await unlock(tokenOf(made), 'open sesame');
    expect(right.statusCode, right.body).toBe(200);
    const [line] = setCookieLines(right);
    expect(line).toMatch(new RegExp(`^qr_share_${made.id}=`));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toContain(`Path=/api/public/shares/${tokenOf(made)}`);
    const cookie = line!.split(';')[0]!;
    const unlocked = (await open(tokenOf(made), '', { cookie })).json<PublicShare>();
    expect(unlocked.needsPassword).toBe(false);
    expect(unlocked.analytics!.totalScans).toBeGreaterThan(0);
    // Another link's cookie, or a forged one, does not open it.
    expect(
      (
        await open(tokenOf(other), '', {
          cookie: cookie.replace(`qr_share_${made.id}`, `qr_share_${other.id}`),
        })
      ).json<PublicShare>().needsPassword,
    ).toBe(true);
    // Wrong passwords: SHARE_PASSWORD_TRIES per address and link, then 429 with Retry-After.
    const ip = '192.0.2.44';
    for (let i = 0; i < SHARE_PASSWORD_TRIES; i++)
      expect((await unlock(tokenOf(other), 'nope', ip)).statusCode).toBe(401);
    const throttled = await unlock(tokenOf(other), 'open sesame', ip);
    expectRestError(throttled, 429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held by it.
    expect((await unlock(tokenOf(other), 'open sesame', '192.0.2.45')).statusCode).toBe(200);
  });

  it('an expired, revoked or unknown link answers 404 with one message', async () => {
    const expiring = await share({
      qrCodeId: codes.A.id,
      expiresAt: new Date(t().clock.now().getTime() + 3_600_000).toISOString(),
    });
    expect((await open(tokenOf(expiring))).statusCode).toBe(200);
    t().clock.advance(3_600_000);
    const expired = await open(tokenOf(expiring));
    expect(expectRestError(expired, 404).message).toBe(shareMessages.notFound);
    expect(expired.headers['x-robots-tag']).toBe('noindex');
    expect(expired.headers['cache-control']).toBe('no-store');
    expect((await get<{ items: AnalyticsShare[] }>('/api/analytics-shares')).items).toEqual([]);

    const revoked = await share({ qrCodeId: codes.B.id });
    const del = await call(t().app, 'DELETE', `/api/analytics-shares/${revoked.id}`, {
      cookie: signedIn.aliceCookie,
    });
    expect(del.statusCode, del.body).toBe(204);
    expect(expectRestError(await open(tokenOf(revoked)), 404).message).toBe(shareMessages.notFound);
    expect(expectRestError(await unlock(tokenOf(revoked), 'x'), 404).message).toBe(shareMessages.notFound);
    // Revoked twice: no such link any more.
    expectRestError(
      await call(t().app, 'DELETE', `/api/analytics-shares/${revoked.id}`, { cookie: signedIn.aliceCookie }),
      404,
    );
    expect(expectRestError(await open('A'.repeat(32)), 404).message).toBe(shareMessages.notFound);
    expect(expectRestError(await open('short'), 404).message).toBe(shareMessages.notFound);

    // A past expiry, both targets or neither are refused.
    expectRestError(await create({ qrCodeId: codes.A.id, expiresAt: '2020-01-01T00:00:00Z' }), 400);
    expectRestError(await create({ qrCodeId: codes.A.id, folderId: 1 }), 400);
    expectRestError(await create({}), 400);
  });

  it('another workspace: its code, folder and link are 404; a viewer lists but cannot create or revoke', async () => {
    // Bob's code D and a folder of Bob's.
    const bobFolder = await insertFolderRow(t().db, codes.D.user_id, 'Bob folder');
    expect(expectRestError(await create({ qrCodeId: codes.D.id }), 404).message).toBe('QR code not found');
    expect(expectRestError(await create({ folderId: bobFolder.id }), 404).message).toBe('Folder not found');
    const made = await share({ qrCodeId: codes.A.id });
    expectRestError(
      await call(t().app, 'DELETE', `/api/analytics-shares/${made.id}`, { cookie: signedIn.bobCookie }),
      404,
    );
    expect(
      (await get<{ items: AnalyticsShare[] }>('/api/analytics-shares', signedIn.bobCookie)).items,
    ).toEqual([]);

    // A team of Alice's with Vic as viewer and Ed as editor.
    const { user: vic, cookie: vicCookie } = await signedInUser(t(), 'vic');
    const { user: ed, cookie: edCookie } = await signedInUser(t(), 'ed');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(signedIn.alice),
      'Marketing',
    );
    await insertMember(t().db, team.id, vic.id, 'viewer', new Date().toISOString());
    await insertMember(t().db, team.id, ed.id, 'editor', new Date().toISOString());
    const teamCode = await t()
      .db.insertInto('qr_codes')
      .values({
        name: 'Team code',
        type: 'url',
        content: 'https://example.com/team',
        is_dynamic: true,
        customization: '{}',
        user_id: team.id,
        slug: 'teamcode1',
        created: new Date().toISOString(),
        updated: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expectRestError(await create({ qrCodeId: teamCode.id }, vicCookie, team.id), 403);
    const byEd = await create({ qrCodeId: teamCode.id }, edCookie, team.id);
    expect(byEd.statusCode, byEd.body).toBe(201);
    const listed = await call(t().app, 'GET', '/api/analytics-shares', {
      cookie: vicCookie,
      headers: { 'x-workspace': String(team.id) },
    });
    expect(listed.json<{ items: AnalyticsShare[] }>().items.map((s) => s.title)).toEqual(['Team code']);
    const id = byEd.json<AnalyticsShare>().id;
    expectRestError(
      await call(t().app, 'DELETE', `/api/analytics-shares/${id}`, {
        cookie: vicCookie,
        headers: { 'x-workspace': String(team.id) },
      }),
      403,
    );
    // A code moved to another workspace takes no link along: its old link is gone.
    const moving = await share({ qrCodeId: codes.B.id });
    expect((await open(tokenOf(moving))).statusCode).toBe(200);
    await t().db.updateTable('qr_codes').set({ user_id: team.id }).where('id', '=', codes.B.id).execute();
    expect(expectRestError(await open(tokenOf(moving)), 404).message).toBe(shareMessages.notFound);
    const left = (await get<{ items: AnalyticsShare[] }>('/api/analytics-shares')).items;
    expect(left.map((s) => s.id)).toEqual([made.id]);
    // Alice's own workspace does not hold the team's link.
    expectRestError(
      await call(t().app, 'DELETE', `/api/analytics-shares/${id}`, { cookie: signedIn.aliceCookie }),
      404,
    );
  });

  it('limits the public paths per address: 429 with Retry-After past the limit', async () => {
    const made = await share({ qrCodeId: codes.C.id });
    const ip = '192.0.2.80';
    for (let i = 0; i < PUBLIC_SHARE_REQUESTS; i++) {
      const res = await open(i % 2 ? tokenOf(made) : 'unknown-token-unknown-token', '', { ip });
      expect(res.statusCode).not.toBe(429);
    }
    const limited = await open(tokenOf(made), '', { ip });
    expectRestError(limited, 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-robots-tag']).toBe('noindex');
    // Another address still gets through; a minute later this one does too.
    expect((await open(tokenOf(made), '', { ip: '192.0.2.81' })).statusCode).toBe(200);
    t().clock.advance(60_000);
    expect((await open(tokenOf(made), '', { ip })).statusCode).toBe(200);
  });
});
