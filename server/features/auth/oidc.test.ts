import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../../src/auth/auth.schema.js';
import type { Workspace } from '../../../src/workspaces/workspace.schema.js';
import { TEST_PASSWORD, insertTestUser } from '../../test/fixtures.js';
import {
  ProviderBrowser,
  startOidcTestProvider,
  type TestAccount,
  type TestOidcProvider,
} from '../../test/oidc-test-provider.js';
import {
  call,
  cookieValue,
  createTestApp,
  expectRestError,
  sessionCookie,
  type Response,
  type TestApp,
} from '../../test/test-app.js';
import { testSsoConfig } from '../../test/sso-config.js';
import { countRows, describeEachDb } from '../../test/test-db.js';
import { recheckSsoSessions } from './sso-recheck.js';
import { ssoMessages } from './sso-sign-in.js';
import type { SsoConfig } from './sso.config.js';

// Sign-in with an OpenID Provider, against a real one (oidc-provider) on a loopback port: the person's
// browser is played by ProviderBrowser at the provider (its login page) and by app.inject at ours.

const CLIENT = { clientId: 'qr-creator', clientSecret: 'a-test-client-secret' };
const PROVIDER_NAME = 'Example SSO';

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function ssoConfig(issuer: string): SsoConfig {
  return testSsoConfig({
    oidc: [
      {
        id: 'example',
        name: PROVIDER_NAME,
        issuer,
        ...CLIENT,
        scopes: 'openid profile email groups',
        groupsClaim: 'groups',
        usernameClaim: 'preferred_username',
      },
    ],
  });
}

const ada: TestAccount = {
  sub: 'ada-0001',
  email: 'ada@corp.example',
  emailVerified: true,
  name: 'Ada Lovelace',
  preferredUsername: 'ada',
  groups: [],
};

describeEachDb('OpenID Connect sign-in', (getDb) => {
  let op: TestOidcProvider;
  let publicUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    publicUrl = `http://127.0.0.1:${await freePort()}`;
    op = await startOidcTestProvider({
      ...CLIENT,
      redirectUris: [`${publicUrl}/api/auth/oidc/example/callback`],
      postLogoutRedirectUris: [`${publicUrl}/auth`],
      backchannelLogoutUri: `${publicUrl}/api/auth/oidc/example/backchannel-logout`,
    });
  });
  afterAll(() => op.close());

  beforeEach(async () => {
    op.accounts.set(ada.sub, { ...ada });
    op.tamperIdTokens = false;
    t = await createTestApp(getDb(), { config: { publicUrl, sso: ssoConfig(op.issuer) } });
  });
  afterEach(() => t.close());

  interface Landing {
    res: Response;
    /** Where our callback sends the browser. */
    location: string;
    session: string | undefined;
  }

  /** GET /start, the provider's login page as `sub`, then our callback: where the browser lands. */
  async function signIn(
    sub: string,
    options: { redirect?: string; browser?: ProviderBrowser; changeCallback?: (url: URL) => void } = {},
  ): Promise<Landing> {
    const start = await call(
      t.app,
      'GET',
      `/api/auth/oidc/example/start${options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : ''}`,
    );
    expect(start.statusCode, start.body).toBe(302);
    const flow = cookieValue(start, 'qr_oidc');
    expect(flow).toBeDefined();
    const back = await (options.browser ?? new ProviderBrowser()).follow(
      start.headers.location!,
      `${publicUrl}/api/auth/oidc/example/callback`,
      { login: sub, password: 'any password' },
    );
    const url = new URL(back);
    options.changeCallback?.(url);
    const res = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      cookies: { qr_oidc: flow! },
    });
    expect(res.statusCode, res.body).toBe(302);
    return { res, location: res.headers.location!, session: cookieValue(res) };
  }

  async function currentUser(cookie: string | undefined): Promise<Response> {
    return call(t.app, 'GET', '/api/user', { cookie });
  }

  async function me(cookie: string | undefined): Promise<User> {
    const res = await currentUser(cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<User>();
  }

  function ssoError(location: string): string | null {
    return new URL(location, publicUrl).searchParams.get('sso_error');
  }

  describe('GET /api/auth/oidc/:id/start', () => {
    it('sends the browser to the provider with PKCE (S256), state, nonce and the configured scopes', async () => {
      const res = await call(t.app, 'GET', '/api/auth/oidc/example/start?redirect=/codes');
      expect(res.statusCode).toBe(302);
      const url = new URL(res.headers.location!);
      expect(url.origin).toBe(op.issuer);
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
      expect(url.searchParams.get('redirect_uri')).toBe(`${publicUrl}/api/auth/oidc/example/callback`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
      expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
      // oidc-provider lists offline_access: asked for, so that the re-check can refresh.
      expect(url.searchParams.get('scope')!.split(' ').sort()).toEqual(
        ['email', 'groups', 'offline_access', 'openid', 'profile'].sort(),
      );
      const cookie = res.cookies.find((c) => c.name === 'qr_oidc')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc/', maxAge: 600 });
      // Neither the state nor the verifier travels in an address the browser shows.
      expect(res.headers.location).not.toContain(cookie.value);
    });

    it('answers 404 in the error shape for a provider that is not configured', async () => {
      const res = await call(t.app, 'GET', '/api/auth/oidc/nope/start');
      expectRestError(res, 404, 'NOT_FOUND');
    });

    it('starts while the provider is down, and says so to whoever tries to sign in with it', async () => {
      const down = await createTestApp(getDb(), {
        config: { publicUrl, sso: ssoConfig(`http://127.0.0.1:${await freePort()}`) },
      });
      try {
        const res = await call(down.app, 'GET', '/api/auth/oidc/example/start');
        expect(res.statusCode).toBe(302);
        expect(ssoError(res.headers.location!)).toBe(
          `${PROVIDER_NAME} is not answering. Try again in a minute.`,
        );
      } finally {
        await down.close();
      }
    });

    it('lands on / when the wished page is another site', async () => {
      for (const redirect of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
        const landing = await signIn(ada.sub, { redirect });
        expect(landing.location).toBe('/');
      }
    });
  });

  describe('GET /api/auth/oidc/:id/callback', () => {
    it('signs a new person in just in time and lands on the page they asked for; a second sign-in is the same account', async () => {
      const first = await signIn(ada.sub, { redirect: '/codes?page=2' });
      expect(first.location).toBe('/codes?page=2');
      // The round trip's cookie is spent.
      const cleared = first.res.cookies.find((c) => c.name === 'qr_oidc');
      expect(cleared?.value).toBe('');
      const user = await me(first.session);
      expect(user).toMatchObject({
        username: 'ada',
        name: 'Ada Lovelace',
        email: 'ada@corp.example',
        emailVerified: true,
        isAdmin: false,
      });
      const users = await countRows(t.db, 'users');

      const second = await signIn(ada.sub);
      expect(second.location).toBe('/');
      expect(second.session).not.toBe(first.session);
      expect((await me(second.session)).id).toBe(user.id);
      expect(await countRows(t.db, 'users')).toBe(users);
    });

    it('maps groups to admin and workspace roles, and a group removed at the provider takes its role away at the re-check', async () => {
      op.accounts.set(ada.sub, { ...ada, groups: ['qr-admins', 'marketing'] });
      const { session } = await signIn(ada.sub);
      expect((await me(session)).isAdmin).toBe(true);
      const workspaces = await call(t.app, 'GET', '/api/workspaces', { cookie: session });
      expect(workspaces.json<Workspace[]>().map((w) => [w.name, w.kind, w.role])).toContainEqual([
        'Marketing',
        'team',
        'editor',
      ]);

      op.accounts.set(ada.sub, { ...ada, groups: [] });
      t.clock.advance(6 * 60_000);
      expect(await recheckSsoSessions(t.deps)).toBe(0);
      expect((await me(session)).isAdmin).toBe(false);
      const after = await call(t.app, 'GET', '/api/workspaces', { cookie: session });
      expect(after.json<Workspace[]>().map((w) => w.name)).not.toContain('Marketing');
    });

    it('refuses an ID token whose signature was tampered with', async () => {
      op.tamperIdTokens = true;
      const users = await countRows(t.db, 'users');
      const landing = await signIn(ada.sub);
      expect(ssoError(landing.location)).toBe(`Sign-in with ${PROVIDER_NAME} failed. Try again.`);
      expect(landing.session).toBeUndefined();
      expect(await countRows(t.db, 'users')).toBe(users);
    });

    it('refuses a callback whose state is not the one this browser was given', async () => {
      const landing = await signIn(ada.sub, {
        changeCallback: (url) => url.searchParams.set('state', 'a-state-of-someone-else'),
      });
      expect(ssoError(landing.location)).toBe(`Sign-in with ${PROVIDER_NAME} failed. Try again.`);
      expect(landing.session).toBeUndefined();
    });

    it('refuses a callback without the round trip cookie (another browser, or too late)', async () => {
      const res = await call(t.app, 'GET', '/api/auth/oidc/example/callback?code=abc&state=def');
      expect(res.statusCode).toBe(302);
      expect(ssoError(res.headers.location!)).toBe(
        `Sign-in with ${PROVIDER_NAME} took too long or was started in another browser. Try again.`,
      );
      expect(cookieValue(res)).toBeUndefined();
    });

    it('refuses to link an unverified address to the existing local account that has it', async () => {
      await insertTestUser(t.db, { username: 'ada-local', email: 'ada@corp.example' });
      op.accounts.set(ada.sub, { ...ada, emailVerified: false });
      const landing = await signIn(ada.sub);
      expect(ssoError(landing.location)).toBe(ssoMessages.unverifiedEmail);
      expect(landing.session).toBeUndefined();
    });

    it('links a verified address to the existing local account once its password is given', async () => {
      const local = await insertTestUser(t.db, { username: 'ada-local', email: 'ada@corp.example' });
      const landing = await signIn(ada.sub);
      expect(landing.location).toBe('/auth/link');
      expect(landing.session).toBeUndefined();
      const link = cookieValue(landing.res, 'qr_sso_link');
      expect(link).toBeDefined();

      const pending = await t.app.inject({
        method: 'GET',
        url: '/api/auth/sso/link',
        cookies: { qr_sso_link: link! },
      });
      expect(pending.json()).toMatchObject({ email: 'ada@corp.example', provider: PROVIDER_NAME });
      const linked = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sso/link',
        cookies: { qr_sso_link: link! },
        payload: { password: TEST_PASSWORD },
      });
      expect(linked.statusCode, linked.body).toBe(200);
      expect((await me(sessionCookie(linked))).id).toBe(local.id);

      // From now on the company account signs in to the local one without asking.
      const again = await signIn(ada.sub);
      expect(again.location).toBe('/');
      expect((await me(again.session)).id).toBe(local.id);
    });

    it('ends the session when the provider refuses the refresh (the grant was revoked there)', async () => {
      const { session } = await signIn(ada.sub);
      await me(session);
      t.clock.advance(6 * 60_000);
      // Still welcome: the refresh goes through and the session stays.
      expect(await recheckSsoSessions(t.deps)).toBe(0);
      await me(session);

      expect(await op.revokeGrantsOf(ada.sub)).toBeGreaterThan(0);
      t.clock.advance(6 * 60_000);
      expect(await recheckSsoSessions(t.deps)).toBe(1);
      expectRestError(await currentUser(session), 401);
    });
  });

  describe('POST /api/auth/oidc/:id/backchannel-logout', () => {
    it('signing out at the provider ends our session through the back channel', async () => {
      await t.app.listen({ port: Number(new URL(publicUrl).port), host: '127.0.0.1' });
      const browser = new ProviderBrowser();
      const { session } = await signIn(ada.sub, { browser });
      await me(session);
      // Another person's session is left alone.
      op.accounts.set('grace-0002', { sub: 'grace-0002', email: 'grace@corp.example', emailVerified: true });
      const grace = await signIn('grace-0002');

      const logout = await call(t.app, 'POST', '/api/logout', { cookie: session, json: {} });
      const logoutUrl = new URL(logout.json<{ logoutUrl: string }>().logoutUrl);
      expect(logoutUrl.origin).toBe(op.issuer);
      expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${publicUrl}/auth`);
      expect(logoutUrl.searchParams.get('id_token_hint')).toBeTruthy();

      // A second session of Ada's at the provider's same session, ended by the provider only.
      const kept = await signIn(ada.sub, { browser });
      await me(kept.session);
      const back = await browser.follow(logoutUrl.href, `${publicUrl}/auth`);
      expect(back).toBe(`${publicUrl}/auth`);
      expect(op.backchannelErrors).toEqual([]);
      expectRestError(await currentUser(kept.session), 401);
      await me(grace.session);
    });

    it('answers 400 in the error shape for a missing or forged logout token, and ends nothing', async () => {
      const { session } = await signIn(ada.sub);
      const idToken = await t.db
        .selectFrom('sessions')
        .select('sso_id_token')
        .where('sso_provider', '=', 'oidc:example')
        .executeTakeFirstOrThrow();
      for (const payload of ['', 'logout_token=not.a.jwt', `logout_token=${idToken.sso_id_token}`]) {
        const answer = await call(t.app, 'POST', '/api/auth/oidc/example/backchannel-logout', {
          payload,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(expectRestError(answer, 400, 'BAD_REQUEST').message).toContain('logout_token');
      }
      await me(session);
    });

    it('does not take form bodies anywhere else', async () => {
      const res = await call(t.app, 'POST', '/api/login', {
        payload: 'username=ada&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectRestError(res, 415);
    });
  });
});
