import { Secret, TOTP } from 'otpauth';
import { expect, it } from 'vitest';
import type { User } from '../../../src/auth/auth.schema.js';
import type { AdminUser } from '../../../src/admin/admin.schema.js';
import type { SsoConfig } from './sso.config.js';
import { TEST_PASSWORD, insertTestUser } from '../../test/fixtures.js';
import {
  call,
  cookieValue,
  createTestClock,
  expectRestError,
  useTestApp,
  type Response,
  type TestApp,
} from '../../test/test-app.js';
import { testSsoConfig } from '../../test/sso-config.js';
import { describeEachDb } from '../../test/test-db.js';
import { recheckSsoSessions } from './sso-recheck.js';

// Company accounts through a trusted sign-in proxy: the proxy's headers are the provider, so these
// tests exercise everything SSO shares (accounts made just in time, linking, groups → roles, SSO-only
// mode, re-checks) without an outside server. OIDC and LDAP have their own tests against real ones.

const PROXY = '10.0.0.5';
const START = new Date('2026-12-01T09:00:00Z');

function ssoConfig(overrides: Partial<SsoConfig> = {}): SsoConfig {
  return testSsoConfig({
    proxy: {
      trustedAddresses: ['10.0.0.0/24'],
      userHeader: 'Remote-User',
      emailHeader: 'Remote-Email',
      nameHeader: 'Remote-Name',
      groupsHeader: 'Remote-Groups',
      logoutUrl: 'https://auth.example.com/logout',
    },
    groups: {
      admin: ['qr-admins'],
      workspaces: [
        { group: 'marketing', workspace: 'Marketing', role: 'editor' },
        { group: 'marketing-leads', workspace: 'Marketing', role: 'admin' },
      ],
    },
    breakGlassAdmin: 'root',
    ...overrides,
  });
}

function viaProxy(
  t: TestApp,
  url: string,
  who: { user?: string; email?: string; groups?: string; name?: string },
  options: { cookie?: string; from?: string; method?: 'GET' | 'POST'; json?: unknown } = {},
): Promise<Response> {
  return call(t.app, options.method ?? 'GET', url, {
    remoteAddress: options.from ?? PROXY,
    cookie: options.cookie,
    json: options.json,
    headers: {
      ...(who.user ? { 'remote-user': who.user } : {}),
      ...(who.email ? { 'remote-email': who.email } : {}),
      ...(who.groups !== undefined ? { 'remote-groups': who.groups } : {}),
      ...(who.name ? { 'remote-name': who.name } : {}),
    },
  });
}

/** The person's team workspaces, asked through the proxy (which names them on every request). */
async function workspacesOf(t: TestApp, user: string, cookie: string) {
  const res = await viaProxy(t, '/api/workspaces', { user }, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ name: string; kind: string; role: string }[]>().filter((w) => w.kind === 'team');
}

describeEachDb('sign-in through a trusted proxy', (getDb) => {
  const clock = createTestClock(START);
  const getApp = useTestApp(getDb, { clock, config: { sso: ssoConfig() } });

  it('makes the person at first sign-in, with the roles their groups grant, and keeps them signed in', async () => {
    const t = getApp();
    clock.set(START);
    const first = await viaProxy(t, '/api/user', {
      user: 'ada',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      groups: 'qr-admins | marketing',
    });
    expect(first.statusCode, first.body).toBe(200);
    const ada = first.json<User>();
    expect(ada).toMatchObject({
      username: 'ada',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      isAdmin: true,
    });
    const cookie = cookieValue(first, 'qr_session')!;
    expect(cookie).toBeTruthy();
    expect(await workspacesOf(t, 'ada', cookie)).toEqual([
      expect.objectContaining({ name: 'Marketing', role: 'editor' }),
    ]);

    // The next request of that browser is the same session, no second account.
    const again = await viaProxy(t, '/api/user', { user: 'ada', groups: 'qr-admins,marketing' }, { cookie });
    expect(again.statusCode).toBe(200);
    expect(again.json<User>().id).toBe(ada.id);
    expect(cookieValue(again, 'qr_session')).toBeUndefined();

    // The admin's list says how each person signs in.
    const list = await viaProxy(t, '/api/admin/users?search=ada', { user: 'ada' }, { cookie });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<AdminUser[]>()[0]).toMatchObject({ username: 'ada', signInMethods: ['proxy'] });

    // A person made by a provider has no password here: the login form never signs them in.
    const password = await call(t.app, 'POST', '/api/login', { json: { username: 'ada', password: '!sso' } });
    expectRestError(password, 401);
  });

  it('believes the headers only from the listed proxy addresses', async () => {
    const t = getApp();
    // Another client sending the same headers is nobody.
    const forged = await viaProxy(
      t,
      '/api/user',
      { user: 'mallory', groups: 'qr-admins' },
      { from: '203.0.113.9' },
    );
    expectRestError(forged, 401);
    // Nor does a forged X-Forwarded-For make a client the proxy.
    const forwarded = await call(t.app, 'GET', '/api/user', {
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': PROXY, 'remote-user': 'mallory' },
    });
    expectRestError(forwarded, 401);
    const people = await t.db
      .selectFrom('users')
      .select('username')
      .where('username', '=', 'mallory')
      .execute();
    expect(people).toEqual([]);
  });

  it('ends the session when the proxy stops vouching, or names someone else', async () => {
    const t = getApp();
    const first = await viaProxy(t, '/api/user', { user: 'bob', email: 'bob@example.com' });
    const cookie = cookieValue(first, 'qr_session')!;
    // The cookie alone, without the proxy's header (straight to the app): signed out, session gone.
    expectRestError(await call(t.app, 'GET', '/api/user', { cookie, remoteAddress: '203.0.113.9' }), 401);
    const sessions = await t.db.selectFrom('sessions').select('id').execute();
    expect(sessions).toHaveLength(0);
    // The proxy naming another person in a browser signed in as bob: that person, not bob.
    const bob = await viaProxy(t, '/api/user', { user: 'bob' });
    const carol = await viaProxy(
      t,
      '/api/user',
      { user: 'carol' },
      { cookie: cookieValue(bob, 'qr_session')! },
    );
    expect(carol.json<User>().username).toBe('carol');
  });

  it('takes a role away with its group, keeps a membership given by hand, and revokes admin', async () => {
    const t = getApp();
    const first = await viaProxy(t, '/api/user', { user: 'dan', groups: 'marketing-leads,qr-admins' });
    const cookie = cookieValue(first, 'qr_session')!;
    expect(first.json<User>().isAdmin).toBe(true);
    expect(await workspacesOf(t, 'dan', cookie)).toEqual([
      expect.objectContaining({ name: 'Marketing', role: 'admin' }),
    ]);
    // A team dan was invited to by hand.
    const owner = await insertTestUser(t.db, { username: 'erin' });
    const team = await t.db
      .insertInto('users')
      .values({
        username: 'team~posters',
        password: '!team',
        name: 'Posters',
        kind: 'team',
        created_at: START.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('workspace_members')
      .values([
        { workspace_id: team.id, user_id: owner.id, role: 'owner', created_at: START.toISOString() },
        {
          workspace_id: team.id,
          user_id: first.json<User>().id,
          role: 'viewer',
          created_at: START.toISOString(),
        },
      ])
      .execute();

    // Signed in again (a new browser) without the groups: the granted role and admin go, Posters stays.
    const later = await viaProxy(t, '/api/user', { user: 'dan', groups: '' });
    expect(later.json<User>().isAdmin).toBe(false);
    expect(await workspacesOf(t, 'dan', cookieValue(later, 'qr_session')!)).toEqual([
      expect.objectContaining({ name: 'Posters', role: 'viewer' }),
    ]);
    // The directory's decision is in the audit log.
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_username']).execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'user.admin-granted', actor_username: 'directory' },
        { action: 'user.admin-revoked', actor_username: 'directory' },
      ]),
    );
  });

  it('links an existing account only after its password, and only for a verified address', async () => {
    const t = getApp();
    await insertTestUser(t.db, { username: 'frank', email: 'frank@example.com' });
    // The proxy names frank.sso with frank's address: a link request, not a session.
    const first = await viaProxy(t, '/api/user', { user: 'frank.sso', email: 'frank@example.com' });
    expectRestError(first, 401);
    const link = cookieValue(first, 'qr_sso_link')!;
    expect(link).toBeTruthy();
    const headers = { cookie: `qr_sso_link=${link}` };
    const pending = await call(t.app, 'GET', '/api/auth/sso/link', { headers });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toEqual({
      email: 'frank@example.com',
      username: 'frank',
      provider: 'Sign-in proxy',
    });

    const wrong = await call(t.app, 'POST', '/api/auth/sso/link', { headers, json: { password: 'not it' } });
    expect(expectRestError(wrong, 401).message).toBe('Wrong password for the existing account.');
    expectRestError(await call(t.app, 'POST', '/api/auth/sso/link', { headers, json: {} }), 400);

    const right = await call(t.app, 'POST', '/api/auth/sso/link', {
      headers,
      json: { password: TEST_PASSWORD },
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json<User>().username).toBe('frank');
    // Linked: the proxy's next first request signs frank in straight away; his password still works.
    const next = await viaProxy(t, '/api/user', { user: 'frank.sso', email: 'frank@example.com' });
    expect(next.json<User>().username).toBe('frank');
    const list = await t.db.selectFrom('user_identities').select(['provider', 'subject']).execute();
    expect(list).toEqual([{ provider: 'proxy', subject: 'frank.sso' }]);
    const local = await call(t.app, 'POST', '/api/login', {
      json: { username: 'frank', password: TEST_PASSWORD },
    });
    expect(local.statusCode).toBe(200);
    // The request is used up.
    const used = await call(t.app, 'GET', '/api/auth/sso/link', { headers });
    expect(used.statusCode).toBe(200);
    expect(used.json()).toBeNull();
    expectRestError(
      await call(t.app, 'POST', '/api/auth/sso/link', { headers, json: { password: TEST_PASSWORD } }),
      404,
    );
  });

  it('links an account with two-factor on only once its code is given too', async () => {
    const t = getApp();
    const row = await insertTestUser(t.db, { username: 'mo', email: 'mo@example.com' });
    const secret = new Secret({ size: 20 });
    await t.db
      .updateTable('users')
      .set({ totp_secret: secret.base32, totp_enabled: true })
      .where('id', '=', row.id)
      .execute();
    const first = await viaProxy(t, '/api/user', { user: 'mo.sso', email: 'mo@example.com' });
    const headers = { cookie: `qr_sso_link=${cookieValue(first, 'qr_sso_link')!}` };
    const linked = await call(t.app, 'POST', '/api/auth/sso/link', {
      headers,
      json: { password: TEST_PASSWORD },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({
      requiresTwoFactor: true,
      message: 'Enter the 6-digit code from your authenticator app.',
    });
    // Not linked yet: the proxy's next request is a new link request, not mo.
    expect(await t.db.selectFrom('user_identities').select('subject').execute()).toEqual([]);
    const code = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({
      timestamp: t.clock.now().getTime(),
    });
    const done = await call(t.app, 'POST', '/api/login/two-factor', {
      json: { code },
      headers: { cookie: `qr_2fa=${cookieValue(linked, 'qr_2fa')!}` },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<User>().username).toBe('mo');
    expect(await t.db.selectFrom('user_identities').select(['provider', 'subject']).execute()).toEqual([
      { provider: 'proxy', subject: 'mo.sso' },
    ]);
    const session = await t.db.selectFrom('sessions').select(['sso_provider', 'sso_subject']).execute();
    expect(session).toEqual([{ sso_provider: 'proxy', sso_subject: 'mo.sso' }]);
  });

  it('gives up a link request after five wrong passwords', async () => {
    const t = getApp();
    await insertTestUser(t.db, { username: 'gina', email: 'gina@example.com' });
    const first = await viaProxy(t, '/api/user', { user: 'gina.sso', email: 'gina@example.com' });
    const headers = { cookie: `qr_sso_link=${cookieValue(first, 'qr_sso_link')!}` };
    for (let i = 0; i < 5; i++) {
      expectRestError(
        await call(t.app, 'POST', '/api/auth/sso/link', { headers, json: { password: 'nope' } }),
        401,
      );
    }
    const last = await call(t.app, 'POST', '/api/auth/sso/link', {
      headers,
      json: { password: TEST_PASSWORD },
    });
    expect(expectRestError(last, 401).message).toBe(
      'Too many wrong passwords. Sign in with your company account again.',
    );
    expect(await t.db.selectFrom('user_identities').select('subject').execute()).toEqual([]);
  });

  it('names the proxy sign-out at logout', async () => {
    const t = getApp();
    const first = await viaProxy(t, '/api/user', { user: 'hal' });
    const cookie = cookieValue(first, 'qr_session')!;
    const out = await viaProxy(t, '/api/logout', { user: 'hal' }, { cookie, method: 'POST' });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({
      message: 'You have been logged out successfully.',
      logoutUrl: 'https://auth.example.com/logout',
    });
  });

  it('re-checks sessions on its timer: a provider no longer configured ends them', async () => {
    const t = getApp();
    clock.set(START);
    const first = await viaProxy(t, '/api/user', { user: 'ivy' });
    expect(first.statusCode).toBe(200);
    // Not due yet: nothing ends.
    expect(await recheckSsoSessions(t.deps)).toBe(0);
    clock.advance(6 * 60_000);
    expect(await recheckSsoSessions(t.deps)).toBe(0);
    const checked = await t.db.selectFrom('sessions').select('sso_checked_at').executeTakeFirstOrThrow();
    expect(new Date(String(checked.sso_checked_at)).getTime()).toBe(clock.now().getTime());
    // The same database under a configuration without the proxy: nobody vouches, the session ends.
    clock.advance(6 * 60_000);
    const withoutProxy = { ...t.deps, config: { ...t.deps.config, sso: ssoConfig({ proxy: undefined }) } };
    expect(await recheckSsoSessions(withoutProxy)).toBe(1);
    expect(await t.db.selectFrom('sessions').select('id').execute()).toEqual([]);
  });
});

describeEachDb('the twoFactor setting behind a proxy', (getDb) => {
  const getApp = useTestApp(getDb, { config: { sso: ssoConfig({ twoFactor: true }) } });

  it('never asks the proxy for a code: it asks its own factors on every request', async () => {
    const t = getApp();
    const first = await viaProxy(t, '/api/user', { user: 'nia' });
    const id = first.json<User>().id;
    await t.db
      .updateTable('users')
      .set({ totp_secret: new Secret({ size: 20 }).base32, totp_enabled: true })
      .where('id', '=', id)
      .execute();
    const again = await viaProxy(t, '/api/user', { user: 'nia' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<User>().id).toBe(id);
  });
});

describeEachDb('SSO-only mode', (getDb) => {
  const getApp = useTestApp(getDb, { config: { sso: ssoConfig({ ssoOnly: true }) } });

  it('refuses passwords and registration but for the break-glass admin', async () => {
    const t = getApp();
    await insertTestUser(t.db, { username: 'root', isAdmin: true });
    await insertTestUser(t.db, { username: 'jane' });
    const refused = await call(t.app, 'POST', '/api/login', {
      json: { username: 'jane', password: TEST_PASSWORD },
    });
    expect(expectRestError(refused, 403).message).toBe(
      'Sign-in with a password is turned off on this server. Use your company account.',
    );
    const admin = await call(t.app, 'POST', '/api/login', {
      json: { username: 'root', password: TEST_PASSWORD },
    });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json<User>().isAdmin).toBe(true);
    const registration = await call(t.app, 'POST', '/api/register', {
      json: { username: 'kim', password: TEST_PASSWORD, name: 'Kim', email: 'kim@example.com' },
    });
    expectRestError(registration, 403);
    const config = await call(t.app, 'GET', '/api/config');
    expect(config.json()).toMatchObject({
      registrationOpen: false,
      sso: { providers: [], ldap: null, passwordSignIn: false, proxy: true },
    });
  });

  it('still lets the proxy sign people in', async () => {
    const t = getApp();
    const res = await viaProxy(t, '/api/user', { user: 'lee' });
    expect(res.statusCode, res.body).toBe(200);
  });
});
