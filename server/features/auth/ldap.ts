import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import {
  Client,
  Filter,
  InvalidCredentialsError,
  NoSuchObjectError,
  ResultCodeError,
  type Entry,
} from 'ldapts';
import type { ExternalProfile } from './sso-sign-in.js';
import type { LdapConfig } from './sso.config.js';

// LDAP and Active Directory: the service account finds the person by the configured filter, the person's
// own bind checks the password, and the groups come from `memberOf` or from a search of group entries.
// A directory that cannot be reached, or that refuses the service account, is LdapUnavailableError (a
// 503 at sign-in; the re-check tries again later): never "wrong password", never a signed-out company.
// Passwords are never logged; the entry's DN and the reason are, at debug.

/** The directory cannot be reached (or refused the service account): not the person's fault. */
export class LdapUnavailableError extends Error {}

/** Where the reasons a person is refused go (the request's or the app's logger), at debug. */
export type LdapLog = Pick<FastifyBaseLogger, 'debug'>;

/** AD's userAccountControl ACCOUNTDISABLE bit. */
const ACCOUNT_DISABLED = 0x2;

/** The person if `username` is in the directory within the filter and `password` binds; else null. */
export async function ldapSignIn(
  config: LdapConfig,
  username: string,
  password: string,
  log?: LdapLog,
): Promise<ExternalProfile | null> {
  // An empty password is an "unauthenticated bind" (RFC 4513 5.1.2): many directories answer it with
  // success, which would let anyone in under any name.
  if (password === '' || username.trim() === '') return null;
  return withServiceBind(config, async (client) => {
    const entry = await findPerson(client, config, username, log);
    if (!entry) return null;
    if (disabled(entry)) {
      log?.debug({ dn: entry.dn }, 'LDAP sign-in refused: the account is disabled');
      return null;
    }
    const profile = await profileOf(client, config, entry, username);
    try {
      await client.bind(entry.dn, password);
    } catch (error) {
      // The person's bind: any answer of the directory is "no" (a wrong password, an expired or locked
      // account); only a lost connection is the directory's fault.
      if (!(error instanceof ResultCodeError)) throw unavailable('did not answer the person’s bind', error);
      const reason = error instanceof InvalidCredentialsError ? 'wrong password' : error.message;
      log?.debug({ dn: entry.dn, reason }, 'LDAP sign-in refused');
      return null;
    }
    return profile;
  });
}

/** The person named by `subject` (their entry's DN) if still in the directory, within the filter and not disabled. */
export async function ldapLookup(
  config: LdapConfig,
  subject: string,
  log?: LdapLog,
): Promise<ExternalProfile | null> {
  return withServiceBind(config, async (client) => {
    let entry: Entry | undefined;
    try {
      const result = await client.search(subject, {
        scope: 'base',
        filter: '(objectClass=*)',
        attributes: attributesOf(config),
      });
      entry = result.searchEntries[0];
    } catch (error) {
      if (!(error instanceof NoSuchObjectError)) throw unavailable('did not answer a lookup', error);
    }
    if (!entry) {
      log?.debug({ dn: subject }, 'LDAP re-check: the entry is gone');
      return null;
    }
    const username = first(entry, config.usernameAttribute);
    // The entry must still be the one the sign-in filter finds for its name: someone moved out of the
    // filter (another OU, a "former staff" mark, a group the filter requires) is gone for us too.
    const found = username === null ? null : await findPerson(client, config, username, log);
    if (!found || !sameDn(found.dn, entry.dn)) {
      log?.debug({ dn: subject }, 'LDAP re-check: the entry is no longer within the search filter');
      return null;
    }
    if (disabled(found)) {
      log?.debug({ dn: subject }, 'LDAP re-check: the account is disabled');
      return null;
    }
    return profileOf(client, config, found, username!);
  });
}

/** Connects (LDAPS, or LDAP with StartTLS when asked), binds as the service account, runs `fn`, unbinds. */
async function withServiceBind<T>(config: LdapConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const url = new URL(config.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const tlsOptions: ConnectionOptions = {
    ...(config.tlsCa ? { ca: [config.tlsCa] } : {}),
    // SNI takes a host name only; the certificate is still checked against an address.
    ...(isIP(host) === 0 ? { servername: host } : {}),
  };
  const client = new Client({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    // ldapts speaks TLS from the first byte whenever it is given TLS options: an ldap:// URL gets them
    // only at StartTLS.
    ...(url.protocol === 'ldaps:' ? { tlsOptions } : {}),
  });
  try {
    if (config.startTls) {
      try {
        await client.startTLS({ ...tlsOptions, host });
      } catch (error) {
        throw unavailable('refused StartTLS', error);
      }
    }
    try {
      await client.bind(config.bindDn, config.bindPassword);
    } catch (error) {
      const what =
        error instanceof InvalidCredentialsError
          ? 'refused the service account (ldap.bindDn and its password)'
          : error instanceof ResultCodeError
            ? 'refused the service account’s bind'
            : 'did not answer';
      throw unavailable(what, error);
    }
    try {
      return await fn(client);
    } catch (error) {
      if (error instanceof LdapUnavailableError) throw error;
      throw unavailable('failed a search', error);
    }
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

function unavailable(what: string, cause: unknown): LdapUnavailableError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new LdapUnavailableError(`The LDAP directory ${what}: ${why}`, { cause });
}

function attributesOf(config: LdapConfig): string[] {
  return [
    config.usernameAttribute,
    config.emailAttribute,
    config.nameAttribute,
    'userAccountControl',
    ...(config.groups === 'memberOf' ? ['memberOf'] : []),
  ];
}

/** The one entry the configured filter finds for `username` under the search base; null for none or several. */
async function findPerson(
  client: Client,
  config: LdapConfig,
  username: string,
  log: LdapLog | undefined,
): Promise<Entry | null> {
  const filter = config.searchFilter.replaceAll('{{username}}', Filter.escape(username));
  // Two are enough to know the name is ambiguous (ldapts answers the first two when more match).
  const { searchEntries } = await client.search(config.searchBase, {
    scope: 'sub',
    filter,
    attributes: attributesOf(config),
    sizeLimit: 2,
  });
  if (searchEntries.length === 1) return searchEntries[0]!;
  log?.debug(
    { username },
    searchEntries.length === 0
      ? 'LDAP: nobody within the search filter has this name'
      : 'LDAP: several entries within the search filter have this name: none is signed in',
  );
  return null;
}

async function profileOf(
  client: Client,
  config: LdapConfig,
  entry: Entry,
  typedUsername: string,
): Promise<ExternalProfile> {
  const email = first(entry, config.emailAttribute);
  return {
    provider: 'ldap',
    subject: entry.dn,
    username: first(entry, config.usernameAttribute) ?? typedUsername,
    email,
    emailVerified: config.emailVerified && email !== null,
    name: first(entry, config.nameAttribute),
    groups: await groupsOf(client, config, entry, typedUsername),
  };
}

/** Group DNs from `memberOf`, or the names (nameAttribute) of the group entries the group search finds. */
async function groupsOf(
  client: Client,
  config: LdapConfig,
  entry: Entry,
  username: string,
): Promise<string[]> {
  if (config.groups === 'memberOf') return values(entry, 'memberOf');
  const { base, filter, nameAttribute } = config.groups;
  const { searchEntries } = await client.search(base, {
    scope: 'sub',
    filter: filter
      .replaceAll('{{dn}}', Filter.escape(entry.dn))
      .replaceAll('{{username}}', Filter.escape(username)),
    attributes: [nameAttribute],
  });
  return searchEntries.flatMap((group) => values(group, nameAttribute).slice(0, 1));
}

/** AD's flag for a disabled account (other directories have no such attribute: never disabled here). */
function disabled(entry: Entry): boolean {
  const flags = Number(first(entry, 'userAccountControl') ?? 0);
  return Number.isInteger(flags) && (flags & ACCOUNT_DISABLED) !== 0;
}

/** An attribute's values as text; attribute names are case-insensitive (AD answers `mail` as `Mail`). */
function values(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined || key === 'dn' ? undefined : entry[key];
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v)).filter((v) => v.trim() !== '');
}

function first(entry: Entry, attribute: string): string | null {
  return values(entry, attribute)[0]?.trim() ?? null;
}

/** DNs compared as a directory does for ours: case and the spaces around `,` and `=` do not count. */
function sameDn(a: string, b: string): boolean {
  const norm = (dn: string) => dn.replace(/\s*([,=+])\s*/g, '$1').toLowerCase();
  return norm(a) === norm(b);
}
