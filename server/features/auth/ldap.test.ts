import { Client } from 'ldapts';
import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../src/workspaces/workspace.schema.js';
import { insertTestUser } from '../../test/fixtures.js';
import { testSsoConfig } from '../../test/sso-config.js';
import { describeOnSqlite } from '../../test/test-db.js';
import {
  call,
  expectRestError,
  login,
  sessionCookie,
  useTestApp,
  userBody,
  type TestApp,
} from '../../test/test-app.js';
import {
  describeWithLdap,
  testDirectory as dir,
  testLdapConfig,
  testLdapTls,
  testLdapUrl,
  useDirectoryChanges,
} from '../../test/test-ldap.js';
import { LdapUnavailableError, ldapLookup, ldapSignIn } from './ldap.js';
import { startSession } from './sessions.js';
import { recheckSsoSessions } from './sso-recheck.js';
import type { LdapConfig, SsoConfig } from './sso.config.js';

const RECHECK_MS = 5 * 60_000;

function ssoWith(ldap: LdapConfig): SsoConfig {
  return testSsoConfig({ ldap, recheckMs: RECHECK_MS });
}

async function workspaces(t: TestApp, cookie: string): Promise<{ name: string; role: string }[]> {
  const res = await call(t.app, 'GET', '/api/workspaces', { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Workspace[]>().map((w) => ({ name: w.name, role: w.role }));
}

/** The next re-check of company-account sessions, as its timer would run it once they are due. */
async function recheckLater(t: TestApp): Promise<number> {
  t.clock.advance(RECHECK_MS + 1_000);
  return recheckSsoSessions(t.deps);
}

describeWithLdap('LDAP sign-in against the test directory', () => {
  describeOnSqlite('POST /api/login with a directory account', (getDb) => {
    const t = useTestApp(getDb, { config: { sso: ssoWith(testLdapConfig()) } });
    const directory = useDirectoryChanges();

    it('signs in with the right password: the person is made from the entry, admin and editor of Marketing as the groups say', async () => {
      const res = await login(t().app, 'alice', dir.alice.password);
      expect(res.statusCode, res.body).toBe(200);
      const cookie = sessionCookie(res);
      const me = userBody(await call(t().app, 'GET', '/api/user', { cookie }));
      expect(me).toMatchObject({
        username: 'alice',
        name: 'Alice Archer',
        email: 'alice@example.org',
        emailVerified: true,
        isAdmin: true,
      });
      expect(await workspaces(t(), cookie)).toContainEqual({ name: 'Marketing', role: 'editor' });
    });

    it('signs in by the directory’s name whatever the case typed, into the same account', async () => {
      const first = userBody(await login(t().app, 'alice', dir.alice.password));
      const again = await login(t().app, 'ALICE', dir.alice.password);
      expect(again.statusCode, again.body).toBe(200);
      expect(userBody(again)).toMatchObject({ id: first.id, username: 'alice' });
    });

    it('gives a member of marketing only (bob) the editor role and not admin', async () => {
      const res = await login(t().app, 'bob', dir.bob.password);
      expect(res.statusCode, res.body).toBe(200);
      expect(userBody(res).isAdmin).toBe(false);
      const mine = await workspaces(t(), sessionCookie(res));
      expect(mine).toContainEqual({ name: 'Marketing', role: 'editor' });
      expect(mine.filter((w) => w.name !== 'Marketing').map((w) => w.role)).toEqual(['owner']);
    });

    it('refuses a wrong password with 401 "Invalid username or password", signing nobody in', async () => {
      const res = await login(t().app, 'alice', 'not-alices-password');
      expect(expectRestError(res, 401).message).toBe('Invalid username or password');
      expect(res.cookies.find((c) => c.name === 'qr_session' && c.value)).toBeUndefined();
    });

    it('refuses a person outside the search filter, even with their right password', async () => {
      const res = await login(t().app, 'carol', dir.carol.password);
      expect(expectRestError(res, 401).message).toBe('Invalid username or password');
    });

    it('refuses someone the directory does not know', async () => {
      expectRestError(await login(t().app, 'mallory', 'whatever-password'), 401);
    });

    it('matches a username with a filter wildcard against nobody (al* is not alice)', async () => {
      for (const name of ['al*', '*)(uid=*', 'alice)(|(uid=*']) {
        const res = await login(t().app, name, dir.alice.password);
        expect(expectRestError(res, 401).message).toBe('Invalid username or password');
      }
    });

    it('refuses an empty password with 400 naming the password', async () => {
      const res = await login(t().app, 'alice', '');
      expect(expectRestError(res, 400).message).toMatch(/password/i);
    });

    it('re-reads the groups at the next sign-in: out of qr-admins, no longer admin', async () => {
      expect(userBody(await login(t().app, 'alice', dir.alice.password)).isAdmin).toBe(true);
      await directory.removeMember(dir.qrAdmins, dir.alice.dn);
      const again = await login(t().app, 'alice', dir.alice.password);
      expect(again.statusCode, again.body).toBe(200);
      expect(userBody(again).isAdmin).toBe(false);
    });

    it('takes the role away at the re-check when the group is removed, keeping the session', async () => {
      const cookie = sessionCookie(await login(t().app, 'bob', dir.bob.password));
      expect(await workspaces(t(), cookie)).toContainEqual({ name: 'Marketing', role: 'editor' });
      await directory.removeMember(dir.marketing, dir.bob.dn);
      expect(await recheckLater(t())).toBe(0);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      expect((await workspaces(t(), cookie)).map((w) => w.name)).not.toContain('Marketing');
    });

    it('ends the sessions of a person deleted from the directory at the re-check', async () => {
      const dn = await directory.addPerson('temp-erin', 'erin-secret');
      const cookie = sessionCookie(await login(t().app, 'temp-erin', 'erin-secret'));
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
      await directory.deleteEntry(dn);
      expect(await recheckLater(t())).toBe(1);
      expectRestError(await call(t().app, 'GET', '/api/user', { cookie }), 401);
    });

    it('ends the sessions of a person moved outside the search filter at the re-check', async () => {
      const cookie = sessionCookie(await login(t().app, 'bob', dir.bob.password));
      await directory.setAttribute(dir.bob.dn, 'employeeType', ['former']);
      expect(await recheckLater(t())).toBe(1);
      expectRestError(await call(t().app, 'GET', '/api/user', { cookie }), 401);
    });

    it('ends the sessions of an Active Directory account disabled (userAccountControl 0x2), and refuses its sign-in', async () => {
      const cookie = sessionCookie(await login(t().app, 'dave', dir.dave.password));
      await directory.setAttribute(dir.dave.dn, 'userAccountControl', ['514']);
      expect(await recheckLater(t())).toBe(1);
      expectRestError(await call(t().app, 'GET', '/api/user', { cookie }), 401);
      expectRestError(await login(t().app, 'dave', dir.dave.password), 401);
    });

    it('keeps the sessions of a person still in the directory through the re-check', async () => {
      const cookie = sessionCookie(await login(t().app, 'alice', dir.alice.password));
      expect(await recheckLater(t())).toBe(0);
      expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
    });
  });

  describeOnSqlite('POST /api/login when the service account is refused', (getDb) => {
    const t = useTestApp(getDb, {
      config: { sso: ssoWith(testLdapConfig({ bindPassword: 'not-the-service-password' })) },
    });

    it('answers 503: the directory, not the person, is at fault', async () => {
      const res = await login(t().app, 'alice', dir.alice.password);
      expect(expectRestError(res, 503).message).toBe(
        'The company directory is not answering. Try again in a minute.',
      );
    });
  });

  describe('ldapSignIn and ldapLookup', () => {
    const directory = useDirectoryChanges();

    it('answers the entry’s DN, name, address and group DNs from memberOf', async () => {
      const profile = await ldapSignIn(testLdapConfig(), 'alice', dir.alice.password);
      expect(profile).toEqual({
        provider: 'ldap',
        subject: dir.alice.dn,
        username: 'alice',
        email: 'alice@example.org',
        emailVerified: true,
        name: 'Alice Archer',
        groups: expect.arrayContaining([dir.qrAdmins, dir.marketing]) as unknown,
      });
      expect(profile?.groups).toHaveLength(2);
    });

    it('reads the group names from a group search when configured so', async () => {
      const config = testLdapConfig({
        groups: {
          base: dir.groups,
          filter: '(&(objectClass=groupOfNames)(member={{dn}}))',
          nameAttribute: 'cn',
        },
      });
      expect((await ldapSignIn(config, 'alice', dir.alice.password))?.groups.sort()).toEqual([
        'marketing',
        'qr-admins',
      ]);
      expect((await ldapSignIn(config, 'bob', dir.bob.password))?.groups).toEqual(['marketing']);
      expect((await ldapLookup(config, dir.bob.dn))?.groups).toEqual(['marketing']);
    });

    it('calls an address unverified when the configuration says the directory’s are not', async () => {
      const profile = await ldapSignIn(testLdapConfig({ emailVerified: false }), 'bob', dir.bob.password);
      expect(profile).toMatchObject({ email: 'bob@example.org', emailVerified: false });
    });

    it('never tries an empty password, which this directory would take as an anonymous bind', async () => {
      // The directory itself says yes to a name with an empty password…
      const client = new Client({ url: testLdapUrl()! });
      try {
        await expect(client.bind(dir.alice.dn, '')).resolves.toBeUndefined();
      } finally {
        await client.unbind();
      }
      // …QR Creator does not.
      expect(await ldapSignIn(testLdapConfig(), 'alice', '')).toBeNull();
    });

    it('looks a signed-in person up by DN, and finds nobody for a DN that is gone, outside the filter, or not a person’s', async () => {
      expect(await ldapLookup(testLdapConfig(), dir.alice.dn)).toMatchObject({
        subject: dir.alice.dn,
        username: 'alice',
      });
      expect(await ldapLookup(testLdapConfig(), `uid=nobody,${dir.people}`)).toBeNull();
      expect(await ldapLookup(testLdapConfig(), dir.service.dn)).toBeNull();
      expect(await ldapLookup(testLdapConfig(), dir.carol.dn)).toBeNull();
    });

    it('finds nobody when two or more entries within the filter share the name', async () => {
      // More "bob"s under the search base: none is signed in, rather than perhaps the wrong one.
      for (const twin of ['bob-twin', 'bob-triplet']) {
        await directory.addPerson(twin, 'twin-secret');
        await directory.setAttribute(`uid=${twin},${dir.people}`, 'uid', [twin, 'bob']);
        expect(await ldapSignIn(testLdapConfig(), 'bob', dir.bob.password)).toBeNull();
        expect(await ldapLookup(testLdapConfig(), dir.bob.dn)).toBeNull();
      }
    });

    it('throws LdapUnavailableError when the directory is down, for a sign-in and a lookup', async () => {
      const down = testLdapConfig({ url: 'ldap://127.0.0.1:1', timeoutMs: 2_000 });
      await expect(ldapSignIn(down, 'alice', dir.alice.password)).rejects.toBeInstanceOf(
        LdapUnavailableError,
      );
      await expect(ldapLookup(down, dir.alice.dn)).rejects.toBeInstanceOf(LdapUnavailableError);
    });

    it('throws LdapUnavailableError, never "no such person", when the search base does not exist', async () => {
      const config = testLdapConfig({ searchBase: `ou=nowhere,${dir.suffix}` });
      await expect(ldapSignIn(config, 'alice', dir.alice.password)).rejects.toBeInstanceOf(
        LdapUnavailableError,
      );
    });
  });

  const tls = testLdapTls();
  const describeTls = tls ? describe : describe.skip;
  describeTls(`TLS with the directory's CA${tls ? '' : ' (skipped: TEST_LDAP_CA not set)'}`, () => {
    it('signs in over StartTLS with the CA, and refuses a certificate it was not given the CA of', async () => {
      const config = testLdapConfig({ startTls: true, tlsCa: tls?.ca });
      expect(await ldapSignIn(config, 'alice', dir.alice.password)).toMatchObject({ subject: dir.alice.dn });
      expect(await ldapLookup(config, dir.alice.dn)).toMatchObject({ subject: dir.alice.dn });
      await expect(
        ldapSignIn({ ...config, tlsCa: undefined }, 'alice', dir.alice.password),
      ).rejects.toBeInstanceOf(LdapUnavailableError);
    });

    const ldaps = tls?.ldapsUrl ? it : it.skip;
    ldaps(
      `signs in over LDAPS with the CA${tls?.ldapsUrl ? '' : ' (skipped: TEST_LDAPS_URL not set)'}`,
      async () => {
        const config = testLdapConfig({ url: tls!.ldapsUrl!, tlsCa: tls!.ca });
        expect(await ldapSignIn(config, 'bob', dir.bob.password)).toMatchObject({ subject: dir.bob.dn });
        await expect(
          ldapSignIn({ ...config, tlsCa: undefined }, 'bob', dir.bob.password),
        ).rejects.toBeInstanceOf(LdapUnavailableError);
      },
    );
  });
});

describeOnSqlite('POST /api/login when the LDAP directory is down', (getDb) => {
  // Nothing listens on port 1: the connection is refused at once.
  const config = testLdapConfig({ url: 'ldap://127.0.0.1:1', timeoutMs: 2_000 });
  const t = useTestApp(getDb, { config: { sso: ssoWith(config) } });

  it('answers 503 "The company directory is not answering"', async () => {
    const res = await login(t().app, 'alice', 'alice-secret');
    expect(expectRestError(res, 503).message).toBe(
      'The company directory is not answering. Try again in a minute.',
    );
  });

  it('ends nobody’s session at the re-check while it is down', async () => {
    // A session the directory signed in earlier, when it was up.
    const user = await insertTestUser(t().db, { username: 'alice' });
    let cookie = '';
    const cookies = {
      read: () => undefined,
      set: (_: string, v: string) => void (cookie = v),
      clear: () => {},
    };
    await startSession(
      t().deps,
      cookies,
      user.id,
      { ip: '127.0.0.1', userAgent: 'vitest' },
      {
        provider: 'ldap',
        subject: dir.alice.dn,
      },
    );
    await expect(ldapLookup(config, dir.alice.dn)).rejects.toBeInstanceOf(LdapUnavailableError);
    // An outage must not sign the company out: the session stays until the directory says otherwise.
    expect(await recheckLater(t())).toBe(0);
    expect((await call(t().app, 'GET', '/api/user', { cookie })).statusCode).toBe(200);
  });
});
