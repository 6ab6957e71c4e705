// Sign-in with the company's OpenID Provider in the browser (issue 32): a real oidc-provider runs in the
// test process, the built server is told about it by an SSO_CONFIG file, and a new person signs in on
// the provider's own login page and lands on the dashboard, made just in time with the groups' roles.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/auth/auth.schema';
import { startOidcTestProvider, type TestOidcProvider } from '../../server/test/oidc-test-provider';
import {
  allowConsoleErrors,
  desktop,
  launchBrowser,
  newPage,
  phone,
  screenshot,
  startServer,
  type RunningServer,
} from './harness';

const PROVIDER = { id: 'corp', name: 'Corp SSO' };
const CLIENT = { clientId: 'qr-creator', clientSecret: 'e2e-client-secret' };

let op: TestOidcProvider;
let server: RunningServer;
let browser: Browser;
let configDir: string;
let appUrl: string;

beforeAll(async () => {
  op = await startOidcTestProvider();
  configDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-sso-'));
  const file = path.join(configDir, 'sso.json');
  await fs.writeFile(
    file,
    JSON.stringify({
      oidc: [{ ...PROVIDER, issuer: op.issuer, ...CLIENT, scopes: 'openid profile email groups' }],
      groups: {
        admin: ['qr-admins'],
        workspaces: [{ group: 'marketing', workspace: 'Marketing', role: 'editor' }],
      },
    }),
  );
  [server, browser] = await Promise.all([startServer({ SSO_CONFIG: file }), launchBrowser()]);
  // PUBLIC_URL is the server's default, http://localhost:<port>: the address its callback is at, and
  // the one the browser must use so that the round trip's cookie comes back with it.
  appUrl = `http://localhost:${server.port}`;
  op.registerClient({
    ...CLIENT,
    redirectUris: [`${appUrl}/api/auth/oidc/${PROVIDER.id}/callback`],
    postLogoutRedirectUris: [`${appUrl}/auth`],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await op?.close();
  if (configDir) await fs.rm(configDir, { recursive: true, force: true });
});

/** From /auth through the provider's login page, as `sub`, back to the app. */
async function signInWithProvider(page: Page, sub: string, name: string) {
  // The provider's development pages import a web font from the internet, which the test run has not.
  allowConsoleErrors(page, /fonts\.googleapis\.com|Failed to load resource/);
  // Refused at once rather than left to time out: on a loaded machine a hanging font request held the
  // click's wait for the provider's page past its time-out (CI of b75a1cd).
  await page.route(/fonts\.(googleapis|gstatic)\.com/, (route) => route.abort());
  await page.goto('/auth');
  await page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).click({ noWaitAfter: true });
  await page.waitForURL((u) => u.origin === op.issuer, { timeout: 60_000 });
  await screenshot(page, `sso-oidc-provider-login-${name}`, { fullPage: false });
  await page.getByPlaceholder('Enter any login').fill(sub);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((u) => u.origin === appUrl && u.pathname === '/');
  await page.getByRole('main').getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
}

async function currentUser(page: Page): Promise<User> {
  const res = await page.request.get('/api/user');
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as User;
}

describe('sign-in with an OpenID Provider', () => {
  it('a new person signs in on the provider’s login page and lands on the dashboard, with the roles of their groups', async () => {
    op.accounts.set('grace-1', {
      sub: 'grace-1',
      email: 'grace@corp.example',
      emailVerified: true,
      name: 'Grace Hopper',
      preferredUsername: 'grace',
      groups: ['marketing'],
    });
    const { page } = await newPage(browser, appUrl, desktop);
    await signInWithProvider(page, 'grace-1', '1280');
    expect(await currentUser(page)).toMatchObject({ username: 'grace', email: 'grace@corp.example' });
    const workspaces = await page.request.get('/api/workspaces');
    expect(
      ((await workspaces.json()) as { name: string; role: string }[]).map((w) => [w.name, w.role]),
    ).toContainEqual(['Marketing', 'editor']);
    await screenshot(page, 'sso-oidc-dashboard-1280');
    await page.close();
  });

  it('works on a phone, and a second sign-in is the same account', async () => {
    op.accounts.set('linus-2', {
      sub: 'linus-2',
      email: 'linus@corp.example',
      emailVerified: true,
      name: 'Linus Pauling',
      preferredUsername: 'linus',
    });
    const first = await newPage(browser, appUrl, phone);
    await signInWithProvider(first.page, 'linus-2', '375');
    const user = await currentUser(first.page);
    await screenshot(first.page, 'sso-oidc-dashboard-375');
    await first.page.close();

    const second = await newPage(browser, appUrl, phone);
    await signInWithProvider(second.page, 'linus-2', '375-again');
    expect((await currentUser(second.page)).id).toBe(user.id);
    await second.page.close();
  });
});
