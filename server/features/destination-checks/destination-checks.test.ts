import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertQrRow } from '../../test/fixtures.js';
import { readParsedOutbox } from '../../test/smtp-capture.js';
import { call, createTestClock, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { toUser } from '../users/users.mapper.js';
import { insertMember } from '../workspaces/workspaces.repository.js';
import { createTeam } from '../workspaces/workspaces.service.js';
import { checkDestination } from './destination-checker.js';
import { claimDueUrls } from './destination-checks.repository.js';
import {
  reloadDownDestinations,
  runDestinationChecks,
  type CheckJobOptions,
} from './destination-checks.service.js';

/** A site whose pages answer as the test sets them, logging each request (path, method, time, agent). */
let site: http.Server;
let base: string;
const pages = new Map<string, number>();
const requests: { path: string; method: string; at: number; agent: string }[] = [];

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, method: req.method ?? '', at: Date.now(), agent: req.headers['user-agent'] ?? '' });
    // A server that refuses HEAD but serves the page to a GET.
    if (path === '/head-refused') return res.writeHead(req.method === 'HEAD' ? 405 : 200).end('ok');
    res.writeHead(pages.get(path) ?? 200).end('page');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(() => {
  site.closeAllConnections();
  site.close();
});

const fast: CheckJobOptions = {
  batch: 50,
  hostGapMs: 0,
  timeoutMs: 3000,
  lanes: 4,
  leaseMs: 600_000,
  syncEveryMs: 0,
};
const DAY = 86_400_000;
let serial = 0;
/** A path of its own per test: the site's log and pages are shared by both databases' runs. */
const page = (name: string, status = 200) => {
  serial += 1;
  const path = `/${name}-${serial}`;
  pages.set(path, status);
  return { path, url: `${base}${path}` };
};
const hits = (path: string) => requests.filter((r) => r.path === path);

describe('checkDestination', () => {
  it('never reaches a private address unless its host is allowed', async () => {
    const { url } = page('private');
    expect(await checkDestination({ allowedHosts: [] }, url, { timeoutMs: 2000 })).toEqual({
      kind: 'skipped',
    });
    expect(await checkDestination({ allowedHosts: ['127.0.0.1'] }, url, { timeoutMs: 2000 })).toEqual({
      kind: 'ok',
      httpStatus: 200,
    });
  });

  it('asks with HEAD, and with GET where HEAD is refused; names what fails', async () => {
    const policy = { allowedHosts: ['127.0.0.1'] };
    expect(await checkDestination(policy, `${base}/head-refused`, { timeoutMs: 2000 })).toEqual({
      kind: 'ok',
      httpStatus: 200,
    });
    const gone = page('gone', 404);
    expect(await checkDestination(policy, gone.url, { timeoutMs: 2000 })).toEqual({
      kind: 'failed',
      problem: 'Opens a 404',
      cause: { kind: 'http', status: 404 },
      httpStatus: 404,
    });
    expect(hits(gone.path).map((r) => r.method)).toEqual(['HEAD', 'GET']);
    const broken = page('broken', 503);
    expect(await checkDestination(policy, broken.url, { timeoutMs: 2000 })).toMatchObject({
      problem: 'Server error 503',
      cause: { kind: 'http', status: 503 },
    });
    expect(await checkDestination(policy, 'http://no-such-host.invalid/', { timeoutMs: 2000 })).toMatchObject(
      {
        kind: 'failed',
        problem: 'Its address does not resolve',
        cause: { kind: 'dns' },
      },
    );
  });
});

describeEachDb('dead destinations', (getDb) => {
  const t = useTestApp(getDb, {
    clock: createTestClock(new Date('2026-12-01T04:00:00Z')),
    config: { outbound: { allowedHosts: ['127.0.0.1'] } },
  });

  async function owner(name: string) {
    const { user, cookie } = await signedInUser(t(), name);
    return { user, cookie };
  }

  async function issues(cookie: string) {
    const res = await call(t().app, 'GET', '/api/destination-issues', { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: { codeId: number; state: string; problem: string; since: string | null }[] }>()
      .items;
  }

  it('marks a destination failing twice in a row as down, mails its owner once, and clears it when it answers', async () => {
    const { user, cookie } = await owner('ada');
    const gone = page('menu', 404);
    const fine = page('fine');
    const menu = await insertQrRow(t().db, {
      userId: user.id,
      name: 'Menu',
      isDynamic: true,
      content: gone.url,
    });
    await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: fine.url });
    await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: `${base}/head-refused` });
    // A static code encodes its text itself, and a paused code sends nobody anywhere: neither is checked.
    const staticGone = page('static', 404);
    await insertQrRow(t().db, { userId: user.id, content: staticGone.url });
    const paused = await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: staticGone.url });
    await t()
      .db.updateTable('qr_codes')
      .set({ redirect_options: '{"paused":true}' })
      .where('id', '=', paused.id)
      .execute();

    expect(await runDestinationChecks(t().deps, fast)).toBe(3);
    expect(hits(staticGone.path)).toEqual([]);
    expect(hits(fine.path)[0]!.agent).toMatch(/^QR-Creator\//);
    // Once is not yet down.
    expect(await issues(cookie)).toMatchObject([
      { codeId: menu.id, state: 'failing', problem: 'Opens a 404' },
    ]);
    // Checked at most once a day.
    expect(await runDestinationChecks(t().deps, fast)).toBe(0);
    t().clock.advance(DAY + 60_000);
    expect(await runDestinationChecks(t().deps, fast)).toBe(3);
    expect(await issues(cookie)).toEqual([
      expect.objectContaining({ codeId: menu.id, state: 'down', since: '2026-12-01T04:00:00.000Z' }),
    ]);
    let mails = await readParsedOutbox(t().outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('"Menu": Opens a 404');
    expect(mails[0]!.text).toContain(gone.url);
    expect(mails[0]!.text).toContain(`/qr-details/${menu.id}?check=destination`);

    // Still down the next day: no second mail. Then the page is back: nothing is marked.
    t().clock.advance(DAY + 60_000);
    await runDestinationChecks(t().deps, fast);
    mails = await readParsedOutbox(t().outbox);
    expect(mails).toHaveLength(1);
    pages.set(gone.path, 200);
    t().clock.advance(DAY + 60_000);
    await runDestinationChecks(t().deps, fast);
    expect(await issues(cookie)).toEqual([]);
  });

  it("tells a team's owner and editors, not its viewers; another workspace sees nothing of it", async () => {
    const { user: ada } = await owner('ada');
    const { user: bob } = await owner('bob');
    const { user: cara, cookie: caraCookie } = await owner('cara');
    const { cookie: eveCookie } = await owner('eve');
    const team = await createTeam(
      { ...t().deps, log: t().app.log, ip: '127.0.0.1', userAgent: null },
      toUser(ada),
      'Marketing',
    );
    await insertMember(t().db, team.id, bob.id, 'viewer', new Date().toISOString());
    await insertMember(t().db, team.id, cara.id, 'editor', new Date().toISOString());
    const gone = page('team', 410);
    const flyer = await insertQrRow(t().db, {
      userId: team.id,
      name: 'Flyer',
      isDynamic: true,
      content: gone.url,
    });
    await runDestinationChecks(t().deps, fast);
    t().clock.advance(DAY + 60_000);
    await runDestinationChecks(t().deps, fast);
    const mails = await readParsedOutbox(t().outbox);
    const to = mails.map((m) => (Array.isArray(m.to) ? m.to[0]?.text : m.to?.text)).sort();
    expect(to).toEqual(['ada@example.com', 'cara@example.com']);
    expect(mails[0]!.text).toContain(`workspace=${team.id}`);
    expect(await issues(eveCookie)).toEqual([]);
    const res = await call(t().app, 'GET', '/api/destination-issues', {
      cookie: caraCookie,
      headers: { 'x-workspace': String(team.id) },
    });
    expect(res.json()).toMatchObject({
      items: [{ codeId: flyer.id, state: 'down', problem: 'Opens a 410' }],
    });
  });

  it('paces requests to one host', async () => {
    const { user } = await owner('ada');
    const paths = [page('a'), page('b'), page('c')];
    for (const p of paths) await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: p.url });
    await runDestinationChecks(t().deps, { ...fast, hostGapMs: 150 });
    const times = paths.map((p) => hits(p.path)[0]!.at).sort((a, b) => a - b);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(140);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(140);
  });

  it('lets two instances claim different URLs', async () => {
    const { user } = await owner('ada');
    for (const name of ['x', 'y', 'z'])
      await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: page(name).url });
    await runDestinationChecks(t().deps, { ...fast, batch: 0 });
    const now = t().clock.now();
    const lease = new Date(now.getTime() + 600_000).toISOString();
    const first = await claimDueUrls(t().db, now.toISOString(), lease, 2);
    const second = await claimDueUrls(t().db, now.toISOString(), lease, 2);
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(1);
    expect(first.map((r) => r.url)).not.toContain(second[0]!.url);
    expect(await claimDueUrls(t().db, now.toISOString(), lease, 2)).toEqual([]);
  });

  it('sends scans to the fallback URL while the destination is down, when the code asks for it', async () => {
    const { user } = await owner('ada');
    const gone = page('sale', 404);
    const optedIn = await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: gone.url });
    const notOptedIn = await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: gone.url });
    const fallback = 'https://example.com/closed';
    await t()
      .db.updateTable('qr_codes')
      .set({ redirect_options: JSON.stringify({ fallbackUrl: fallback, fallbackWhenDown: true }) })
      .where('id', '=', optedIn.id)
      .execute();
    await t()
      .db.updateTable('qr_codes')
      .set({ redirect_options: JSON.stringify({ fallbackUrl: fallback }) })
      .where('id', '=', notOptedIn.id)
      .execute();
    const scan = async (slug: string | null) => (await call(t().app, 'GET', `/r/${slug}`)).headers.location;
    expect(await scan(optedIn.slug)).toBe(gone.url);
    await runDestinationChecks(t().deps, fast);
    t().clock.advance(DAY + 60_000);
    await runDestinationChecks(t().deps, fast);
    await reloadDownDestinations(t().db);
    expect(await scan(optedIn.slug)).toBe(fallback);
    expect(await scan(notOptedIn.slug)).toBe(gone.url);
  });

  it('checks a code again on demand, at most once a minute per URL', async () => {
    const { user, cookie } = await owner('ada');
    const gone = page('now', 404);
    const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true, content: gone.url });
    const check = () => call(t().app, 'POST', `/api/qr-codes/${code.id}/destination-check`, { cookie });
    const res = await check();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ items: [{ url: gone.url, state: 'failing', label: 'Destination' }] });
    const asked = hits(gone.path).length;
    await check();
    expect(hits(gone.path).length).toBe(asked);
    t().clock.advance(61_000);
    pages.set(gone.path, 200);
    expect((await check()).json()).toMatchObject({ items: [{ state: 'ok', problem: null }] });

    const staticCode = await insertQrRow(t().db, { userId: user.id });
    expectRestError(
      await call(t().app, 'POST', `/api/qr-codes/${staticCode.id}/destination-check`, { cookie }),
      403,
    );
    const { cookie: eve } = await owner('eve');
    expectRestError(
      await call(t().app, 'POST', `/api/qr-codes/${code.id}/destination-check`, { cookie: eve }),
      404,
    );
  });
});
