import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkConfig } from '../../config.js';

// SSO_CONFIG names a JSON file; a bad one stops the start with one line per problem, naming the file
// and the field, never a secret's value.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function ssoFile(content: unknown, extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-config-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(extra)) fs.writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'sso.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const check = (file: string) => checkConfig({ DATA_DIR: '/tmp/x', SSO_CONFIG: file, ADMIN_USERNAME: 'boss' });

describe('SSO_CONFIG', () => {
  it('reads providers, secrets from files, and defaults', () => {
    const file = ssoFile(
      {
        oidc: [
          {
            id: 'keycloak',
            name: 'Keycloak',
            issuer: 'https://sso.example.com/realms/acme/',
            clientId: 'qr',
            clientSecretFile: 'secret.txt',
            scopes: 'profile email',
          },
        ],
        ldap: {
          url: 'ldaps://dc1.example.com:636',
          bindDn: 'cn=svc,dc=example,dc=com',
          bindPasswordFile: 'bind.txt',
          searchBase: 'ou=people,dc=example,dc=com',
        },
        proxy: { trustedAddresses: ['127.0.0.1'] },
        groups: {
          admin: ['qr-admins'],
          workspaces: [{ group: 'marketing', workspace: 'Marketing', role: 'editor' }],
        },
        ssoOnly: true,
      },
      { 'secret.txt': 's3cret\n', 'bind.txt': 'bindpw\n' },
    );
    const result = check(file);
    expect(result.problems).toEqual([]);
    const sso = result.config!.sso!;
    expect(sso.oidc[0]).toEqual({
      id: 'keycloak',
      name: 'Keycloak',
      issuer: 'https://sso.example.com/realms/acme/',
      clientId: 'qr',
      clientSecret: 's3cret',
      scopes: 'openid profile email',
      groupsClaim: 'groups',
      usernameClaim: 'preferred_username',
    });
    expect(sso.ldap).toMatchObject({
      bindPassword: 'bindpw',
      searchFilter: '(&(objectClass=person)(uid={{username}}))',
      groups: 'memberOf',
      emailVerified: true,
    });
    expect(sso.proxy).toMatchObject({ userHeader: 'Remote-User', groupsHeader: 'Remote-Groups' });
    expect(sso).toMatchObject({
      ssoOnly: true,
      breakGlassAdmin: 'boss',
      twoFactor: false,
      recheckMs: 300_000,
    });
  });

  it('says what is wrong, field by field, without echoing secrets', () => {
    const file = ssoFile({
      oidc: [
        { id: 'Key Cloak', name: 'K', issuer: 'ftp://x', clientId: 'qr', clientSecret: 'topsecret' },
        { id: 'google', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'g', colour: 'red' },
      ],
      groups: { workspaces: [{ group: 'x', workspace: 'X', role: 'boss' }] },
    });
    const { problems, config } = check(file);
    expect(config).toBeUndefined();
    const lines = problems.join('\n');
    expect(lines).toContain(`Invalid configuration: SSO_CONFIG ${file}: oidc.0.id must be 1–32 lowercase`);
    expect(lines).toContain('oidc.0.issuer must be an http(s) URL');
    expect(lines).toMatch(/oidc\.1.*colour/);
    expect(lines).toContain('groups.workspaces.0.role must be one of viewer, editor, admin, owner');
    expect(lines).not.toContain('topsecret');
  });

  it('refuses a file that is missing, not JSON, or names no provider', () => {
    expect(check('/nonexistent/sso.json').problems).toEqual([
      'Invalid configuration: SSO_CONFIG /nonexistent/sso.json cannot be read: no such file',
    ]);
    expect(check(ssoFile('{ not json')).problems[0]).toMatch(/is not JSON/);
    expect(check(ssoFile({})).problems[0]).toMatch(/names no provider/);
  });

  it('warns when the sign-in proxy believes no address', () => {
    const result = check(ssoFile({ proxy: {} }));
    expect(result.problems).toEqual([]);
    expect(result.warnings.join('\n')).toMatch(/proxy\.trustedAddresses is empty/);
  });
});
