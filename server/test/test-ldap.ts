import fs from 'node:fs';
import { Attribute, Change, Client, NoSuchObjectError } from 'ldapts';
import { afterEach, describe } from 'vitest';
import type { LdapConfig } from '../features/auth/sso.config.js';

// The real OpenLDAP the LDAP tests sign in against: started by scripts/ci/slapd/start-slapd.sh (which
// .ci/run calls) and named by TEST_LDAP_URL, TEST_LDAPS_URL and TEST_LDAP_CA. Without TEST_LDAP_URL the
// tests are reported skipped, with the reason in their title; they never pass without a directory.
// The people below are scripts/ci/slapd/directory.ldif's.

const suffix = 'dc=example,dc=org';

export const testDirectory = {
  suffix,
  people: `ou=people,${suffix}`,
  groups: `ou=groups,${suffix}`,
  service: { dn: `cn=qr-creator,ou=services,${suffix}`, password: 'service-secret' },
  /** The directory's root: the tests change entries as the company's administrator would. */
  admin: { dn: `cn=admin,${suffix}`, password: 'admin-secret' },
  alice: { dn: `uid=alice,ou=people,${suffix}`, password: 'alice-secret' },
  bob: { dn: `uid=bob,ou=people,${suffix}`, password: 'bob-secret' },
  /** Right password, outside the sign-in filter (employeeType=former). */
  carol: { dn: `uid=carol,ou=people,${suffix}`, password: 'carol-secret' },
  /** An Active Directory-style account (userAccountControl 512). */
  dave: { dn: `uid=dave,ou=people,${suffix}`, password: 'dave-secret' },
  qrAdmins: `cn=qr-admins,ou=groups,${suffix}`,
  marketing: `cn=marketing,ou=groups,${suffix}`,
  /** Anyone staff: carol, a former employee, is outside it. */
  filter: '(&(objectClass=inetOrgPerson)(uid={{username}})(!(employeeType=former)))',
} as const;

/** Read at call time, so a run decides by its own environment. */
export function testLdapUrl(): string | undefined {
  return process.env.TEST_LDAP_URL?.trim() || undefined;
}

/** LDAPS and the CA certificate's PEM, when the run names them. */
export function testLdapTls(): { ldapsUrl: string | undefined; ca: string } | undefined {
  const caFile = process.env.TEST_LDAP_CA?.trim();
  if (!caFile) return undefined;
  return { ldapsUrl: process.env.TEST_LDAPS_URL?.trim() || undefined, ca: fs.readFileSync(caFile, 'utf8') };
}

/** `describe` when TEST_LDAP_URL is set, else `describe.skip` saying why in its title. */
export function describeWithLdap(title: string, fn: () => void): void {
  if (testLdapUrl()) describe(title, fn);
  else describe.skip(`${title} (skipped: TEST_LDAP_URL not set; run scripts/ci/slapd/start-slapd.sh)`, fn);
}

/** The test directory's LDAP settings, as readSsoConfig would make them from an SSO_CONFIG file. */
export function testLdapConfig(overrides: Partial<LdapConfig> = {}): LdapConfig {
  return {
    name: 'Example directory',
    url: testLdapUrl() ?? 'ldap://127.0.0.1:1',
    startTls: false,
    tlsCa: undefined,
    bindDn: testDirectory.service.dn,
    bindPassword: testDirectory.service.password,
    searchBase: testDirectory.people,
    searchFilter: testDirectory.filter,
    usernameAttribute: 'uid',
    emailAttribute: 'mail',
    nameAttribute: 'cn',
    groups: 'memberOf',
    emailVerified: true,
    timeoutMs: 5_000,
    ...overrides,
  };
}

/** Runs `fn` with a client bound as the directory's administrator. */
export async function asDirectoryAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ url: testLdapUrl()!, timeout: 5_000, connectTimeout: 5_000 });
  try {
    await client.bind(testDirectory.admin.dn, testDirectory.admin.password);
    return await fn(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/**
 * Changes to the test directory that are undone after each test (in reverse order), so that the next test
 * — and the next run against the same slapd — finds directory.ldif's people as they were.
 */
export function useDirectoryChanges() {
  const undo: (() => Promise<void>)[] = [];
  afterEach(async () => {
    const failures: unknown[] = [];
    for (const step of undo.splice(0).reverse()) await step().catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw new AggregateError(failures, 'the test directory could not be restored');
  });
  const modify = (dn: string, operation: 'add' | 'delete' | 'replace', type: string, values: string[]) =>
    asDirectoryAdmin((client) =>
      client.modify(dn, new Change({ operation, modification: new Attribute({ type, values }) })),
    );
  const read = (dn: string, attribute: string) =>
    asDirectoryAdmin(async (client) => {
      const { searchEntries } = await client.search(dn, { scope: 'base', attributes: [attribute] });
      const value = searchEntries[0]?.[attribute];
      return value === undefined ? [] : ([] as (string | Buffer)[]).concat(value).map(String);
    });
  return {
    /** Takes `memberDn` out of the group `groupDn`. */
    async removeMember(groupDn: string, memberDn: string) {
      await modify(groupDn, 'delete', 'member', [memberDn]);
      undo.push(() => modify(groupDn, 'add', 'member', [memberDn]));
    },
    /** Sets an attribute of an entry (its former values come back after the test). */
    async setAttribute(dn: string, type: string, values: string[]) {
      const before = await read(dn, type);
      await modify(dn, 'replace', type, values);
      undo.push(() => modify(dn, 'replace', type, before));
    },
    /** Adds a person to the people OU (removed after the test); answers its DN. */
    async addPerson(uid: string, password: string) {
      const dn = `uid=${uid},${testDirectory.people}`;
      await asDirectoryAdmin((client) =>
        client.add(dn, {
          objectClass: 'inetOrgPerson',
          uid,
          cn: `Temporary ${uid}`,
          sn: uid,
          mail: `${uid}@example.org`,
          userPassword: password,
        }),
      );
      // The test may have deleted it already.
      undo.push(() =>
        asDirectoryAdmin((client) => client.del(dn)).catch((error: unknown) => {
          if (!(error instanceof NoSuchObjectError)) throw error;
        }),
      );
      return dn;
    },
    /** Deletes an entry the test added itself. */
    deleteEntry(dn: string) {
      return asDirectoryAdmin((client) => client.del(dn));
    },
  };
}
