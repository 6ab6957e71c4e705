import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../../src/qr/qr.schema.js';
import type { AvailableDomains, ShortDomain } from '../../../src/qr/short-domain.schema.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { createCode, postCode, snapshot, urlBody } from '../qr/qr.test-helpers.js';

// Short domains (issue 35, item 2): an admin adds go.example.test for some workspaces; a code picks it; the
// server answers root-level links there by Host, and nothing of the app.

const GO = 'go.example.test';
const MENU = 'https://example.com/menu';

async function admin(t: TestApp) {
  return (await signedInUser(t, `admin${Math.random().toString(36).slice(2, 8)}`, { isAdmin: true })).cookie;
}

function addDomain(t: TestApp, cookie: string, json: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/admin/domains', { cookie, json });
}

async function domain(t: TestApp, cookie: string, json: Record<string, unknown>): Promise<ShortDomain> {
  const res = await addDomain(t, cookie, json);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ShortDomain>();
}

/** A request as it reaches the app for `host` (a reverse proxy keeps the Host header). */
const onHost = (t: TestApp, host: string, path: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
  call(t.app, method, path, { headers: { host } });

describeEachDb('short domains', (getDb) => {
  const t = useTestApp(getDb);

  describe('the admin adds, changes and deletes them', () => {
    it('adds a domain in lower case, lists it with its workspaces and codes, and audits it', async () => {
      const cookie = await admin(t());
      const team = await signedInUser(t(), 'cafe');
      const made = await domain(t(), cookie, {
        hostname: '  Go.Example.TEST. ',
        workspaceIds: [team.user.id],
        rootUrl: 'https://example.com/',
      });
      expect(made).toMatchObject({
        hostname: GO,
        shortLinkBase: `http://${GO}/`,
        allWorkspaces: false,
        workspaces: [{ id: team.user.id }],
        rootUrl: 'https://example.com/',
        notFoundUrl: null,
        codes: 0,
      });
      const list = await call(t().app, 'GET', '/api/admin/domains', { cookie });
      expect(list.json<{ items: ShortDomain[] }>().items.map((d) => d.hostname)).toEqual([GO]);
      const audit = await t().db.selectFrom('audit_log').select('action').execute();
      expect(audit.map((a) => a.action)).toContain('domain.create');
    });

    it.each([
      ['https://go.example.test', 'Domain must be a host name'],
      ['go.example.test:8080', 'Domain must be a host name'],
      ['go.example.test/menu', 'Domain must be a host name'],
      ['localhost', 'Domain must be a host name'],
      ['192.168.1.10', 'Domain must be a host name'],
      ['-go.example.test', 'Domain must be a host name'],
      ['', 'Domain is required'],
    ])('refuses %j with a 400 naming the field, adding nothing', async (hostname, message) => {
      const cookie = await admin(t());
      const body = expectRestError(await addDomain(t(), cookie, { hostname }), 400, 'VALIDATION_FAILED');
      expect(body.message).toContain(message);
      expect(JSON.stringify(body.issues)).toContain('hostname');
      expect(await countRows(t().db, 'short_domains')).toBe(0);
    });

    it("refuses the app's own host, a domain added twice, an unknown workspace and a bad URL", async () => {
      const cookie = await admin(t());
      expectRestError(await addDomain(t(), cookie, { hostname: 'localhost.' }), 400);
      const own = expectRestError(
        await addDomain(t(), cookie, { hostname: new URL(t().deps.config.publicUrl).hostname + '.' }),
        400,
      );
      expect(own.message).toMatch(/host name|own address/);
      await domain(t(), cookie, { hostname: GO, allWorkspaces: true });
      const twice = expectRestError(
        await addDomain(t(), cookie, { hostname: 'GO.example.test' }),
        409,
        'DOMAIN_TAKEN',
      );
      expect(twice.message).toBe('This domain is already added');
      const nobody = expectRestError(
        await addDomain(t(), cookie, { hostname: 'b.example.test', workspaceIds: [987654] }),
        400,
      );
      expect(nobody.message).toBe('Workspace 987654 does not exist');
      const url = expectRestError(
        await addDomain(t(), cookie, { hostname: 'c.example.test', rootUrl: 'javascript:alert(1)' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(url.message).toContain('Home page must be an http or https URL');
      expect(await countRows(t().db, 'short_domains')).toBe(1);
    });

    it('is for admins only: signed out 401, a user 403, a read token cannot add', async () => {
      const user = await signedInUser(t(), 'plain');
      expectRestError(await call(t().app, 'GET', '/api/admin/domains'), 401);
      expectRestError(await call(t().app, 'GET', '/api/admin/domains', { cookie: user.cookie }), 403);
      expectRestError(await addDomain(t(), user.cookie, { hostname: GO }), 403);
      expect(await countRows(t().db, 'short_domains')).toBe(0);
    });

    it('changes every field; refuses to delete a domain codes use, deletes one they do not', async () => {
      const cookie = await admin(t());
      const owner = await signedInUser(t(), 'owner');
      const made = await domain(t(), cookie, { hostname: GO, allWorkspaces: true });
      const changed = await call(t().app, 'PUT', `/api/admin/domains/${made.id}`, {
        cookie,
        json: { hostname: 'links.example.test', workspaceIds: [owner.user.id], notFoundUrl: MENU },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<ShortDomain>()).toMatchObject({
        hostname: 'links.example.test',
        allWorkspaces: false,
        workspaces: [{ id: owner.user.id }],
        rootUrl: null,
        notFoundUrl: MENU,
      });
      await createCode(t(), owner.cookie, { slug: 'menu', domainId: made.id });
      const inUse = expectRestError(
        await call(t().app, 'DELETE', `/api/admin/domains/${made.id}`, { cookie }),
        409,
        'DOMAIN_IN_USE',
      );
      expect(inUse.message).toBe('1 code uses this domain: give it another domain first');
      const spare = await domain(t(), cookie, { hostname: 'spare.example.test' });
      const gone = await call(t().app, 'DELETE', `/api/admin/domains/${spare.id}`, { cookie });
      expect(gone.statusCode, gone.body).toBe(200);
      expect(await countRows(t().db, 'short_domains')).toBe(1);
      expectRestError(await call(t().app, 'DELETE', `/api/admin/domains/${spare.id}`, { cookie }), 404);
      expectRestError(
        await call(t().app, 'PUT', '/api/admin/domains/abc', { cookie, json: { hostname: GO } }),
        400,
      );
    });
  });

  describe('a domain that codes print keeps them answering', () => {
    it('refuses a new name while codes use it, and a workspace id no database holds', async () => {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const go = await domain(t(), cookie, { hostname: GO, allWorkspaces: true });
      await createCode(t(), ada.cookie, { slug: 'menu', domainId: go.id });
      const renamed = expectRestError(
        await call(t().app, 'PUT', `/api/admin/domains/${go.id}`, {
          cookie,
          json: { hostname: 'go2.example.test', allWorkspaces: true },
        }),
        409,
        'DOMAIN_IN_USE',
      );
      expect(renamed.message).toBe('The name of a domain that codes use cannot change (1 code uses it)');
      expect((await onHost(t(), GO, '/menu')).statusCode).toBe(302);
      const huge = expectRestError(
        await addDomain(t(), cookie, { hostname: 'b.example.test', workspaceIds: [3_000_000_000] }),
        400,
        'VALIDATION_FAILED',
      );
      expect(huge.message).toContain('Workspaces must be workspace ids');
    });

    it('refuses to move a code into a team that may not use its domain; moves it once the team may', async () => {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const team = await call(t().app, 'POST', '/api/workspaces', {
        cookie: ada.cookie,
        json: { name: 'Bistro' },
      });
      expect(team.statusCode, team.body).toBe(201);
      const teamId = team.json<{ id: number }>().id;
      const mine = await domain(t(), cookie, { hostname: GO, workspaceIds: [ada.user.id] });
      const code = await createCode(t(), ada.cookie, { slug: 'menu', domainId: mine.id });
      const before = await snapshot(t());
      const move = () =>
        call(t().app, 'POST', `/api/qr-codes/${code.id}/move-to-workspace`, {
          cookie: ada.cookie,
          json: { workspaceId: teamId },
        });
      const refused = expectRestError(await move(), 400);
      expect(refused.message).toBe(
        "This code's short domain is not available in that workspace: give it another domain first",
      );
      expect(await snapshot(t())).toEqual(before);
      await call(t().app, 'PUT', `/api/admin/domains/${mine.id}`, {
        cookie,
        json: { hostname: GO, workspaceIds: [ada.user.id, teamId] },
      });
      expect((await move()).statusCode).toBe(200);
      expect((await onHost(t(), GO, '/menu')).statusCode).toBe(302);
    });
  });

  describe('the redirect export', () => {
    it("lists a code's printed link on its domain in the CSV, and says so in the server formats", async () => {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const go = await domain(t(), cookie, { hostname: GO, allWorkspaces: true });
      await createCode(t(), ada.cookie, { slug: 'menu', domainId: go.id, content: MENU });
      await createCode(t(), ada.cookie, { slug: 'home', content: MENU });
      const csv = await call(t().app, 'GET', '/api/qr-codes/redirects/export?format=csv', {
        cookie: ada.cookie,
      });
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body).toContain(`"menu","http://${GO}/menu","${MENU}"`);
      expect(csv.body).toContain(`"home","${t().deps.config.publicUrl}/r/home","${MENU}"`);
      const nginx = await call(t().app, 'GET', '/api/qr-codes/redirects/export?format=nginx', {
        cookie: ada.cookie,
      });
      expect(nginx.body).toContain("1 of them print a short domain's link");
      expect(nginx.body).toContain('"/r/menu"');
    });
  });

  describe('a reverse proxy asks before it gets a certificate', () => {
    it("says yes for a short domain and the app's host, no for any other, without signing in", async () => {
      await domain(t(), await admin(t()), { hostname: GO });
      for (const asked of [GO, 'GO.EXAMPLE.TEST', 'localhost']) {
        const res = await call(t().app, 'GET', `/api/short-domains/ask?domain=${asked}`);
        expect(res.statusCode, asked).toBe(200);
        expect(res.json()).toEqual({ domain: asked.toLowerCase(), allowed: true });
      }
      for (const asked of ['evil.example.test', 'example.test', `x.${GO}`, '..']) {
        expectRestError(
          await call(t().app, 'GET', `/api/short-domains/ask?domain=${asked}`),
          404,
          'NOT_FOUND',
        );
      }
      const missing = expectRestError(await call(t().app, 'GET', '/api/short-domains/ask'), 400);
      expect(missing.message).toBe('domain is required');
    });
  });

  describe('a code picks a domain', () => {
    it('lists the domains its workspace may use, and makes the short link on the chosen one', async () => {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const eve = await signedInUser(t(), 'eve');
      const everyone = await domain(t(), cookie, { hostname: GO, allWorkspaces: true });
      const adas = await domain(t(), cookie, { hostname: 'ada.example.test', workspaceIds: [ada.user.id] });
      const listed = (
        await call(t().app, 'GET', '/api/short-domains', { cookie: eve.cookie })
      ).json<AvailableDomains>();
      expect(listed).toEqual({
        defaultBase: `${t().deps.config.publicUrl}/r/`,
        items: [{ id: everyone.id, hostname: GO, shortLinkBase: `http://${GO}/` }],
      });
      const forAda = (
        await call(t().app, 'GET', '/api/short-domains', { cookie: ada.cookie })
      ).json<AvailableDomains>();
      expect(forAda.items.map((d) => d.hostname)).toEqual(['ada.example.test', GO]);

      const code = await createCode(t(), ada.cookie, { slug: 'Menu', domainId: adas.id, content: MENU });
      expect(code).toMatchObject({ domainId: adas.id, shortUrl: 'http://ada.example.test/menu' });
      const read = (
        await call(t().app, 'GET', `/api/qr-codes/${code.id}`, { cookie: ada.cookie })
      ).json<QrCode>();
      expect(read.shortUrl).toBe('http://ada.example.test/menu');
      // Back to the app's own address, and on again.
      const own = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie: ada.cookie,
        json: { domainId: null },
      });
      expect(own.json<QrCode>()).toMatchObject({
        domainId: null,
        shortUrl: `${t().deps.config.publicUrl}/r/menu`,
      });
      const moved = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie: ada.cookie,
        json: { domainId: everyone.id },
      });
      expect(moved.json<QrCode>().shortUrl).toBe(`http://${GO}/menu`);
      // Each move is a version, its change named as the link reads.
      const history = await call(t().app, 'GET', `/api/qr-codes/${code.id}/history`, { cookie: ada.cookie });
      const changes = history
        .json<{ changes: { field: string; before: string; after: string }[] }[]>()
        .flatMap((v) => v.changes.filter((c) => c.field === 'shortLink'));
      expect(changes).toEqual([
        { field: 'shortLink', before: '/r/menu', after: `${GO}/menu` },
        { field: 'shortLink', before: 'ada.example.test/menu', after: '/r/menu' },
      ]);
    });

    it('refuses a domain the workspace may not use, an unknown one, and one for a static code; nothing changes', async () => {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const eve = await signedInUser(t(), 'eve');
      const adas = await domain(t(), cookie, { hostname: GO, workspaceIds: [ada.user.id] });
      const code = await createCode(t(), eve.cookie, { slug: 'eves' });
      const before = await snapshot(t());
      for (const domainId of [adas.id, 424242]) {
        const body = expectRestError(await postCode(t(), eve.cookie, urlBody({ domainId })), 400);
        expect(body.message).toBe('This domain is not available in this workspace');
        const put = expectRestError(
          await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, { cookie: eve.cookie, json: { domainId } }),
          400,
        );
        expect(put.message).toBe('This domain is not available in this workspace');
      }
      const fixed = expectRestError(
        await postCode(t(), ada.cookie, urlBody({ isDynamic: false, domainId: adas.id })),
        400,
      );
      expect(fixed.message).toBe('Only dynamic codes have a short link');
      expectRestError(await postCode(t(), ada.cookie, urlBody({ domainId: 'go' })), 400, 'VALIDATION_FAILED');
      expect(await snapshot(t())).toEqual(before);
    });
  });

  describe('the short domain answers by Host', () => {
    async function setUp() {
      const cookie = await admin(t());
      const ada = await signedInUser(t(), 'ada');
      const eve = await signedInUser(t(), 'eve');
      const go = await domain(t(), cookie, {
        hostname: GO,
        workspaceIds: [ada.user.id],
        rootUrl: 'https://example.com/home',
      });
      const code = await createCode(t(), ada.cookie, { slug: 'menu', domainId: go.id, content: MENU });
      return { cookie, ada, eve, go, code };
    }

    it('redirects root-level links in any case and port, and /r/ ones, each a scan; the app address too', async () => {
      await setUp();
      for (const [host, path] of [
        [GO, '/menu'],
        [GO, '/MENU?utm=1'],
        [`${GO}:8080`, '/menu'],
        ['GO.Example.Test', '/r/menu'],
        ['localhost:3000', '/r/menu'],
      ] as const) {
        const res = await onHost(t(), host, path);
        expect(res.statusCode, `${host}${path}`).toBe(302);
        expect(res.headers.location).toBe(MENU);
      }
      expect(await countRows(t().db, 'qr_scans')).toBe(5);
    });

    it('sends its root to the home page, and shows no page of the app: not its pages, API, or files', async () => {
      await setUp();
      const root = await onHost(t(), GO, '/');
      expect(root.statusCode).toBe(302);
      expect(root.headers.location).toBe('https://example.com/home');
      for (const path of [
        '/create',
        '/auth',
        '/api/user',
        '/api/short-domains/ask?domain=go.example.test',
        '/trpc/auth.me',
        '/assets/index.js',
        '/healthz',
        '/nope',
        '/menu/extra',
        '/r/menu/x',
      ]) {
        const res = await onHost(t(), GO, path);
        expect(res.statusCode, path).toBe(404);
        expect(res.headers['content-type'], path).toMatch(/^text\/html/);
        expect(res.body, path).not.toContain('<div id="root">');
      }
      const post = await call(t().app, 'POST', '/api/auth/login', {
        headers: { host: GO },
        json: { username: 'ada', password: 'x' },
      });
      expect(post.statusCode).toBe(404);
      // Nothing of that was a scan.
      expect(await countRows(t().db, 'qr_scans')).toBe(0);
      // The internal paths are nothing on the app's own address.
      expect((await call(t().app, 'GET', '/_short-domain/root')).statusCode).toBe(404);
    });

    it("sends unknown links to the domain's page for them when it has one", async () => {
      const { cookie, go } = await setUp();
      expect((await onHost(t(), GO, '/unknown-one')).statusCode).toBe(404);
      await call(t().app, 'PUT', `/api/admin/domains/${go.id}`, {
        cookie,
        json: { hostname: GO, allWorkspaces: true, notFoundUrl: 'https://example.com/lost' },
      });
      for (const path of ['/unknown-one', '/api/user']) {
        const res = await onHost(t(), GO, path);
        expect(res.statusCode, path).toBe(302);
        expect(res.headers.location).toBe('https://example.com/lost');
      }
      // With no home page now, its root is not found.
      expect((await onHost(t(), GO, '/')).statusCode).toBe(404);
    });

    it("answers only for the codes of the workspaces that may use it, and keeps a moved code's old link", async () => {
      const { cookie, ada, eve, go } = await setUp();
      // Eve's code on the app's address is not on Ada's domain.
      await createCode(t(), eve.cookie, { slug: 'eves', content: MENU });
      expect((await onHost(t(), GO, '/eves')).statusCode).toBe(404);
      expect((await onHost(t(), 'localhost:3000', '/r/eves')).statusCode).toBe(302);
      // Ada's code moved to another of her domains still answers at the old one (it may be printed).
      const other = await domain(t(), cookie, {
        hostname: 'other.example.test',
        workspaceIds: [ada.user.id],
      });
      const code = await createCode(t(), ada.cookie, { slug: 'poster', domainId: go.id, content: MENU });
      await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
        cookie: ada.cookie,
        json: { domainId: other.id },
      });
      expect((await onHost(t(), 'other.example.test', '/poster')).statusCode).toBe(302);
      expect((await onHost(t(), GO, '/poster')).statusCode).toBe(302);
      // Taken from Ada's workspaces, the domain still answers for the codes that use it.
      await call(t().app, 'PUT', `/api/admin/domains/${go.id}`, { cookie, json: { hostname: GO } });
      expect((await onHost(t(), GO, '/menu')).statusCode).toBe(302);
      expect((await onHost(t(), GO, '/poster')).statusCode).toBe(404);
    });

    it('refuses a destination on one of its short domains (each hop would be a scan), but not its root', async () => {
      const { ada } = await setUp();
      for (const content of [
        `http://${GO}/menu`,
        `https://GO.example.test:8443/anything`,
        `http://${GO}/r/x`,
      ]) {
        const body = expectRestError(await postCode(t(), ada.cookie, urlBody({ content })), 400);
        expect(body.message, content).toBe('A dynamic QR code cannot point to its own short link');
      }
      await createCode(t(), ada.cookie, { content: `https://${GO}/` });
    });

    it("asks a protected code's password at its root-level link", async () => {
      const { ada, go } = await setUp();
      await createCode(t(), ada.cookie, { slug: 'secret', domainId: go.id, password: 'open sesame' });
      const form = await onHost(t(), GO, '/secret?x=1');
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('action="/secret?x=1"');
      const wrong = await call(t().app, 'POST', '/secret?x=1', {
        headers: { host: GO, 'content-type': 'application/x-www-form-urlencoded', origin: `http://${GO}` },
        payload: 'password=nope',
      });
      expect(wrong.statusCode).toBe(200);
      expect(wrong.body).toContain('action="/secret?x=1"');
      // From a foreign page: refused.
      const foreign = await call(t().app, 'POST', '/secret', {
        headers: {
          host: GO,
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
        },
        payload: 'password=open+sesame',
      });
      expect(foreign.statusCode).toBe(403);
      // Its own page over https, behind a proxy that ends TLS (the request itself is http).
      const right = await call(t().app, 'POST', '/secret', {
        headers: { host: GO, 'content-type': 'application/x-www-form-urlencoded', origin: `https://${GO}` },
        payload: 'password=open+sesame',
      });
      expect(right.statusCode).toBe(200);
      const cookie = String(right.headers['set-cookie']);
      expect(cookie).toContain('Path=/;');
    });
  });
});
