import type { SsoConfig } from '../features/auth/sso.config.js';

/**
 * An SSO configuration for tests, as SSO_CONFIG would give it: no provider, `qr-admins` → admin and
 * `marketing` → editor of Marketing, the break-glass admin `admin`, re-checks every 5 minutes. Each test
 * adds its provider (`oidc`, `ldap`, `proxy`) and what it changes.
 */
export function testSsoConfig(overrides: Partial<SsoConfig> = {}): SsoConfig {
  return {
    oidc: [],
    ldap: undefined,
    proxy: undefined,
    groups: {
      admin: ['qr-admins'],
      workspaces: [{ group: 'marketing', workspace: 'Marketing', role: 'editor' }],
    },
    ssoOnly: false,
    breakGlassAdmin: 'admin',
    twoFactor: false,
    recheckMs: 5 * 60_000,
    ...overrides,
  };
}
