import type { ExternalProfile } from './sso-sign-in.js';
import type { LdapConfig } from './sso.config.js';

// PLACEHOLDER — the LDAP helper replaces this whole file (same exports).

/** The directory cannot be reached (or refused the service account): not the person's fault. */
export class LdapUnavailableError extends Error {}

/** The person if `username` is in the directory within the filter and `password` binds; else null. */
export function ldapSignIn(
  config: LdapConfig,
  username: string,
  password: string,
): Promise<ExternalProfile | null> {
  void config;
  void username;
  void password;
  return Promise.reject(new LdapUnavailableError('LDAP sign-in is not built yet'));
}

/** The person named by `subject` (their entry's DN) if still in the directory, within the filter and not disabled. */
export function ldapLookup(config: LdapConfig, subject: string): Promise<ExternalProfile | null> {
  void config;
  void subject;
  return Promise.reject(new LdapUnavailableError('LDAP lookup is not built yet'));
}
