import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// Sign-in with the company's accounts: the file named by SSO_CONFIG (JSON), checked with the rest of the
// configuration at start (and by `check-config`), one line per bad value naming where it is. Secrets may
// be read from files (`clientSecretFile`, `bindPasswordFile`), as every other secret setting may.
// docs/sso.md documents every field, with setups for Keycloak, Entra ID, Google, Authentik and AD.

const id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be 1–32 lowercase letters, digits or dashes');
const text = z.string().trim().min(1, 'must not be empty');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const roles = ['viewer', 'editor', 'admin', 'owner'] as const;

const oidcProvider = z
  .object({
    id,
    name: text.max(60),
    issuer: httpUrl,
    clientId: text,
    clientSecret: text.optional(),
    clientSecretFile: text.optional(),
    scopes: text.default('openid profile email'),
    /** The claim holding the person's groups (ID token or userinfo); unset: no groups. */
    groupsClaim: text.default('groups'),
    /** The claim the username is made of (falls back to the e-mail's local part, then `sub`). */
    usernameClaim: text.default('preferred_username'),
  })
  .strict();

const ldapConfig = z
  .object({
    name: text.max(60).default('Company directory'),
    url: z.string().regex(/^ldaps?:\/\/[^\s]+$/, 'must be an ldap:// or ldaps:// URL'),
    startTls: z.boolean().default(false),
    /** A PEM file of the CA that signed the directory's certificate (else the system's CAs). */
    tlsCaFile: text.optional(),
    bindDn: text,
    bindPassword: text.optional(),
    bindPasswordFile: text.optional(),
    searchBase: text,
    /** `{{username}}` is replaced by the escaped name typed at sign-in. */
    searchFilter: text
      .default('(&(objectClass=person)(uid={{username}}))')
      .refine((v) => v.includes('{{username}}'), 'must contain {{username}}'),
    usernameAttribute: text.default('uid'),
    emailAttribute: text.default('mail'),
    nameAttribute: text.default('cn'),
    /** Groups from the entry's `memberOf`, or from a search of group entries naming the person. */
    groups: z
      .union([
        z.literal('memberOf'),
        z
          .object({
            base: text,
            /** `{{dn}}` is the person's entry, `{{username}}` the name. */
            filter: text.default('(member={{dn}})'),
            nameAttribute: text.default('cn'),
          })
          .strict(),
      ])
      .default('memberOf'),
    /** Whether the directory's `mail` counts as verified (it does in a company directory). */
    emailVerified: z.boolean().default(true),
    timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
  })
  .strict();

const proxyConfig = z
  .object({
    /** Addresses or CIDRs of the proxy: the headers of any other client are ignored. */
    trustedAddresses: z.array(text).default([]),
    userHeader: text.default('Remote-User'),
    emailHeader: text.default('Remote-Email'),
    nameHeader: text.default('Remote-Name'),
    groupsHeader: text.default('Remote-Groups'),
    /** Where the proxy signs people out (Authelia: https://auth.example.com/logout). */
    logoutUrl: httpUrl.optional(),
  })
  .strict();

const workspaceGrant = z
  .object({
    group: text,
    /** A team workspace's name (made at the first sign-in that needs it) or id. */
    workspace: z.union([text, z.number().int().positive()]),
    role: z.enum(roles, { error: `must be one of ${roles.join(', ')}` }),
  })
  .strict();

const ssoFileSchema = z
  .object({
    oidc: z.array(oidcProvider).default([]),
    ldap: ldapConfig.optional(),
    proxy: proxyConfig.optional(),
    groups: z
      .object({
        /** Members of any of these groups are instance admins; others signed in by SSO are not. */
        admin: z.array(text).default([]),
        workspaces: z.array(workspaceGrant).default([]),
      })
      .strict()
      .default({ admin: [], workspaces: [] }),
    /** Only company accounts may sign in; the break-glass admin keeps a local password. */
    ssoOnly: z.boolean().default(false),
    /** The local admin who may sign in with a password when `ssoOnly` is on (default ADMIN_USERNAME). */
    breakGlassAdmin: text.optional(),
    /** Ask a person's own two-factor code after an SSO sign-in too (the provider usually asks its own). */
    twoFactor: z.boolean().default(false),
    /** How often a signed-in company account is checked again with its provider, in minutes. */
    recheckMinutes: z.number().int().min(1).max(15).default(5),
  })
  .strict();

export interface OidcProviderConfig {
  /** 'keycloak' — the provider's id in URLs; its sessions and identities are 'oidc:keycloak'. */
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  scopes: string;
  groupsClaim: string;
  usernameClaim: string;
}

export interface LdapConfig extends Omit<
  z.infer<typeof ldapConfig>,
  'bindPassword' | 'bindPasswordFile' | 'tlsCaFile'
> {
  bindPassword: string;
  /** The CA certificate's PEM, read at start. */
  tlsCa: string | undefined;
}

export type ProxyConfig = z.infer<typeof proxyConfig>;
export type WorkspaceGrant = z.infer<typeof workspaceGrant>;

export interface SsoConfig {
  oidc: OidcProviderConfig[];
  ldap: LdapConfig | undefined;
  proxy: ProxyConfig | undefined;
  groups: { admin: string[]; workspaces: WorkspaceGrant[] };
  ssoOnly: boolean;
  breakGlassAdmin: string;
  twoFactor: boolean;
  recheckMs: number;
}

/** The provider id of sessions and identities: 'oidc:<id>', 'ldap' or 'proxy'. */
export type ProviderKey = `oidc:${string}` | 'ldap' | 'proxy';

/** What a provider is called on screens: the configured name, 'Sign-in proxy', or 'Password'. */
export function providerName(config: SsoConfig | undefined, provider: string | null): string {
  if (!provider) return 'Password';
  if (provider === 'ldap') return config?.ldap?.name ?? 'LDAP';
  if (provider === 'proxy') return 'Sign-in proxy';
  const oidc = config?.oidc.find((p) => `oidc:${p.id}` === provider);
  return oidc?.name ?? provider.replace(/^oidc:/, '');
}

/**
 * Reads and checks the SSO_CONFIG file. Each problem is a line `SSO_CONFIG <file>: <path> <what is wrong>`
 * (the caller prefixes "Invalid configuration:"); a secret's value is never echoed.
 */
export function readSsoConfig(
  file: string,
  adminUsername: string,
): { sso: SsoConfig | undefined; problems: string[] } {
  const where = `SSO_CONFIG ${file}`;
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : error instanceof SyntaxError
            ? `is not JSON (${error.message})`
            : String(error);
    return { sso: undefined, problems: [`${where} cannot be read: ${why}`] };
  }
  const parsed = ssoFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      sso: undefined,
      problems: parsed.error.issues.map((issue) => {
        const at = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the file)';
        return `${where}: ${at} ${issue.message}`;
      }),
    };
  }
  const f = parsed.data;
  const problems: string[] = [];
  const dir = path.dirname(file);
  const secret = (label: string, value: string | undefined, secretFile: string | undefined) => {
    if (value !== undefined && secretFile !== undefined) {
      problems.push(`${where}: ${label} and ${label}File are both set: set one of them`);
      return undefined;
    }
    if (secretFile === undefined) return value;
    try {
      const content = fs.readFileSync(path.resolve(dir, secretFile), 'utf8').replace(/\r?\n$/, '');
      if (content.trim() === '') problems.push(`${where}: ${label}File ${secretFile} is empty`);
      return content;
    } catch {
      problems.push(`${where}: ${label}File ${secretFile} cannot be read`);
      return undefined;
    }
  };

  const ids = new Set<string>();
  const oidc = f.oidc.map((p, i) => {
    if (ids.has(p.id)) problems.push(`${where}: oidc.${i}.id "${p.id}" is used twice`);
    ids.add(p.id);
    return {
      id: p.id,
      name: p.name,
      // As written: discovery requires the issuer to match exactly, and some end with a slash (Authentik).
      issuer: p.issuer,
      clientId: p.clientId,
      clientSecret: secret(`oidc.${i}.clientSecret`, p.clientSecret, p.clientSecretFile),
      scopes: p.scopes.split(/\s+/).includes('openid') ? p.scopes : `openid ${p.scopes}`,
      groupsClaim: p.groupsClaim,
      usernameClaim: p.usernameClaim,
    };
  });

  let ldap: LdapConfig | undefined;
  if (f.ldap) {
    const { bindPassword, bindPasswordFile, tlsCaFile, ...rest } = f.ldap;
    const password = secret('ldap.bindPassword', bindPassword, bindPasswordFile);
    if (password === undefined && bindPasswordFile === undefined) {
      problems.push(`${where}: ldap.bindPassword (or ldap.bindPasswordFile) is required`);
    }
    let tlsCa: string | undefined;
    if (tlsCaFile !== undefined) {
      try {
        tlsCa = fs.readFileSync(path.resolve(dir, tlsCaFile), 'utf8');
      } catch {
        problems.push(`${where}: ldap.tlsCaFile ${tlsCaFile} cannot be read`);
      }
    }
    if (rest.startTls && rest.url.startsWith('ldaps:')) {
      problems.push(`${where}: ldap.startTls is for ldap:// URLs (ldaps:// is TLS already)`);
    }
    ldap = { ...rest, bindPassword: password ?? '', tlsCa };
  }

  if (oidc.length === 0 && !ldap && !f.proxy) {
    problems.push(`${where}: names no provider: add "oidc", "ldap" or "proxy"`);
  }
  if (problems.length > 0) return { sso: undefined, problems };
  return {
    sso: {
      oidc,
      ldap,
      proxy: f.proxy,
      groups: f.groups,
      ssoOnly: f.ssoOnly,
      breakGlassAdmin: f.breakGlassAdmin ?? adminUsername,
      twoFactor: f.twoFactor,
      recheckMs: f.recheckMinutes * 60_000,
    },
    problems: [],
  };
}

/** Said once at start: a proxy sign-in that believes nobody is on, but does nothing. */
export function ssoWarnings(sso: SsoConfig | undefined): string[] {
  if (sso?.proxy && sso.proxy.trustedAddresses.length === 0) {
    return [
      "SSO_CONFIG turns the sign-in proxy on, but proxy.trustedAddresses is empty: no request's " +
        `${sso.proxy.userHeader} header is believed. List the proxy's addresses (e.g. "127.0.0.1").`,
    ];
  }
  return [];
}
