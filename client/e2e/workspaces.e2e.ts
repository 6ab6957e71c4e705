// Team workspaces in the browser (issue 31): a user creates a team from the header's switcher (the address
// carries the workspace), makes a code in it, and invites a colleague by username; the colleague accepts
// on /invitations and, as a viewer, sees the code with no control that would change it. A code of the
// personal workspace moves to the team and its short link keeps redirecting. An address naming someone
// else's workspace says so and leads back to the user's own.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import { audit } from './a11y';
import {
  allowConsoleErrors,
  desktop,
  phone,
  screenshot,
  signUpNewUser,
  waitForMailLink,
  withAppServer,
} from './harness';

const app = withAppServer({ SCANS_PER_CLIENT_MINUTE: '0' });

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const switcher = (page: Page) => page.locator('[data-workspace-switcher]');

/** The workspace the address names (`?workspace=`), once it names one. */
async function addressWorkspace(page: Page): Promise<number> {
  await page.waitForURL((u) => u.searchParams.has('workspace'));
  return Number(new URL(page.url()).searchParams.get('workspace'));
}

/** A tRPC mutation as the page's user (their session cookie), answering its data. */
async function mutate<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/trpc/${path}`, { data: input });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

/** The codes of a workspace as the REST API lists them for the page's user. */
async function codesIn(page: Page, workspaceId: number): Promise<string[]> {
  const res = await page.request.get('/api/qr-codes', { headers: { 'X-Workspace': String(workspaceId) } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as QrCode[]).map((c) => c.name);
}

async function expectNoAxeViolations(page: Page, where: string) {
  expect(await audit(page), where).toEqual([]);
}

/** Light and dark, as the system asks (the app follows it until the user picks a scheme). */
async function inBothSchemes(page: Page, name: string, check: (scheme: string) => Promise<void>) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    await check(scheme);
    await screenshot(page, `${name}-${scheme}`, { fullPage: false });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('team workspaces', () => {
  it('a team made from the switcher, a code in it, a viewer invited by username who sees it but cannot change it, and a code moved to the team', async () => {
    // The owner: the app opens in their personal workspace and says so in the header.
    const owner = await signUpNewUser(app, 'owner');
    const { page } = owner;
    // Reduced motion: menus and drawers open at once, so they are audited and pictured open, not
    // half-way through their fade.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const personalId = await addressWorkspace(page);
    await expect.poll(() => switcher(page).textContent()).toContain('Personal · Owner');

    // The switcher: a real button opening a menu, their own workspace first with its role.
    await switcher(page).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: /Personal/ }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Create team workspace' }).count()).toBe(1);
    expect(await menu.getByRole('menuitem', { name: 'Team settings' }).count()).toBe(1);
    await inBothSchemes(page, 'workspace-switcher-open-1280', async (scheme) =>
      expectNoAxeViolations(page, `switcher open, ${scheme}, 1280`),
    );

    // A new team, from the switcher: named in a dialog, then the app is in it.
    await menu.getByRole('menuitem', { name: 'Create team workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create team workspace' });
    await dialog.getByLabel(/^Name/).fill('M');
    await dialog.getByRole('button', { name: 'Create workspace' }).click();
    await dialog.getByText('Name must be at least 2 characters').waitFor();
    await dialog.getByLabel(/^Name/).fill('Marketing');
    await dialog.getByRole('button', { name: 'Create workspace' }).click();
    await toast(page, 'Workspace created').waitFor();
    await page.waitForURL(
      (u) =>
        u.pathname === '/' &&
        u.searchParams.has('workspace') &&
        u.searchParams.get('workspace') !== String(personalId),
    );
    const teamId = await addressWorkspace(page);
    await expect.poll(() => switcher(page).textContent()).toContain('Marketing · Owner');

    // A code made in the team, through the designer: the address keeps the workspace from page to page.
    await nav(page).getByRole('link', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/create');
    expect(await addressWorkspace(page)).toBe(teamId);
    const nameInput = page.getByLabel(/^Name/);
    await expect.poll(() => nameInput.inputValue()).toBe('URL QR Code');
    await nameInput.fill('Team menu');
    const dynamic = page.getByLabel('Dynamic QR code');
    if (!(await dynamic.isChecked())) await dynamic.click({ force: true });
    await page.getByLabel(/^URL/).fill('https://example.com/team-menu');
    await page.getByRole('button', { name: 'Create QR Code' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    expect(await addressWorkspace(page)).toBe(teamId);
    await page.getByRole('article', { name: 'Team menu' }).waitFor();
    expect(await codesIn(page, teamId)).toEqual(['Team menu']);
    expect(await codesIn(page, personalId)).toEqual([]);

    // A colleague, invited by username as a viewer (an intranet without mail).
    const viewer = await signUpNewUser(app, 'viewer');
    await mutate(page, 'workspaces.invite', {
      workspaceId: teamId,
      username: viewer.username,
      role: 'viewer',
    });

    // The colleague sees the invitation waiting: a badge on the switcher, an entry in its menu.
    const v = viewer.page;
    await v.emulateMedia({ reducedMotion: 'reduce' });
    await v.goto('/');
    const viewerPersonalId = await addressWorkspace(v);
    await expect.poll(() => switcher(v).textContent()).toContain('1 pending invitation');
    await switcher(v).click();
    await v.getByRole('menuitem', { name: /^Invitations/ }).click();
    await v.waitForURL((u) => u.pathname === '/invitations');
    const card = v.getByRole('article', { name: 'Marketing' });
    await card.getByText(`${owner.username} invited you as`).waitFor();
    await card.getByText('Viewer', { exact: true }).waitFor();
    await card.getByText(/Expires in 6 days|Expires in 7 days/).waitFor();
    for (const [viewport, width] of [
      [desktop, 1280],
      [phone, 375],
    ] as const) {
      await v.setViewportSize(viewport);
      await inBothSchemes(v, `invitations-${width}`, async (scheme) =>
        expectNoAxeViolations(v, `/invitations, ${scheme}, ${width}`),
      );
      expect(await v.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(
        viewport.width,
      );
    }

    // On a phone the switcher is in the navigation drawer.
    await v.getByRole('button', { name: 'Open menu' }).click();
    const drawerSwitcher = v.getByRole('dialog').locator('[data-workspace-switcher]');
    await drawerSwitcher.click();
    await v.getByRole('menuitem', { name: 'Create team workspace' }).waitFor();
    await inBothSchemes(v, 'workspace-switcher-open-375', async (scheme) =>
      expectNoAxeViolations(v, `switcher open, ${scheme}, 375`),
    );
    await v.keyboard.press('Escape');
    await v.setViewportSize(desktop);
    await v.goto('/invitations');

    // Accepting switches to the team, as a viewer.
    await v.getByRole('button', { name: 'Accept the invitation to Marketing' }).click();
    await toast(v, 'Invitation accepted').waitFor();
    await v.waitForURL((u) => u.pathname === '/' && u.searchParams.get('workspace') === String(teamId));
    await expect.poll(() => switcher(v).textContent()).toContain('Marketing · Viewer');

    // A viewer sees the team's code and downloads it, but nothing that would change codes.
    expect(await nav(v).getByRole('link', { name: 'Create QR Code' }).count()).toBe(0);
    expect(await v.getByRole('link', { name: 'Create New QR Code' }).count()).toBe(0);
    // The plan is the team's, and only its owners buy it: a viewer is offered no upgrade (their own Free
    // plan does not show here).
    expect(await v.getByRole('link', { name: /^Upgrade to/ }).count()).toBe(0);
    await nav(v).getByRole('link', { name: 'My QR Codes' }).click();
    await v.waitForURL((u) => u.pathname === '/my-qr-codes');
    const teamCard = v.getByRole('article', { name: 'Team menu' });
    await teamCard.waitFor();
    expect(await teamCard.getByRole('button', { name: 'Download' }).count()).toBe(1);
    for (const name of ['Edit', 'Move']) {
      expect(await teamCard.getByRole('link', { name, exact: true }).count(), name).toBe(0);
      expect(await teamCard.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    for (const name of ['New Folder', 'Bulk create', 'Create New QR Code']) {
      expect(await v.getByRole('main').getByText(name, { exact: true }).count(), name).toBe(0);
    }
    await screenshot(v, 'workspace-viewer-codes-1280', { fullPage: false });
    await teamCard.getByRole('button', { name: 'More actions for Team menu' }).click();
    await v.getByRole('menuitem', { name: 'Share' }).waitFor();
    expect(await v.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
    await v.keyboard.press('Escape');
    // The designer, reached by its address, says why it is not offered.
    await v.goto(`/create?workspace=${teamId}`);
    await v.getByText('Your role in this workspace cannot create or edit codes').waitFor();
    expect(await v.getByRole('button', { name: 'Create QR Code' }).count()).toBe(0);
    await screenshot(v, 'workspace-viewer-create-1280', { fullPage: false });

    // A link to someone else's workspace: said plainly, with the way back to the user's own.
    allowConsoleErrors(v, /status of 404.*workspaces\.current/); // the refusal this step provokes
    await v.goto(`/my-qr-codes?workspace=${personalId}`);
    await v.getByRole('heading', { name: 'Workspace not found' }).waitFor();
    await v.getByRole('button', { name: 'Go to my personal workspace' }).click();
    await v.waitForURL((u) => u.searchParams.get('workspace') === String(viewerPersonalId));
    await expect.poll(() => switcher(v).textContent()).toContain('Personal · Owner');
    // Their own workspace: their own Free plan, which they may upgrade.
    await nav(v).getByRole('link', { name: 'Upgrade to Pro' }).waitFor();

    // A code of the owner's personal workspace (made through the API) moves to the team, its short link
    // unchanged.
    const created = await page.request.post('/api/qr-codes', {
      headers: { 'X-Workspace': String(personalId) },
      data: { name: 'Flyer', type: 'url', content: 'https://example.com/flyer', isDynamic: true },
    });
    expect(created.status(), await created.text()).toBe(201);
    const flyer = (await created.json()) as QrCode;
    // Back in the personal workspace from the switcher, which lists both with the role in each.
    await switcher(page).click();
    await page.getByRole('menuitem', { name: /^Marketing/ }).waitFor();
    await expectNoAxeViolations(page, 'switcher with a team, light, 1280');
    await screenshot(page, 'workspace-switcher-teams-1280', { fullPage: false });
    await page.getByRole('menuitem', { name: /^Personal/ }).click();
    await page.waitForURL(
      (u) => u.pathname === '/' && u.searchParams.get('workspace') === String(personalId),
    );
    await expect.poll(() => switcher(page).textContent()).toContain('Personal · Owner');
    await nav(page).getByRole('link', { name: 'My QR Codes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByRole('button', { name: 'More actions for Flyer' }).click();
    await page.getByRole('menuitem', { name: 'Move to team…' }).click();
    const move = page.getByRole('dialog', { name: 'Move "Flyer" to a team' });
    await move.getByText('The short link and printed codes keep working.').waitFor();
    expect(await move.getByRole('radio', { name: /Marketing/ }).isChecked()).toBe(true);
    await move.getByRole('button', { name: 'Move to team' }).click();
    await toast(page, 'QR code moved').waitFor();
    await expect.poll(() => page.getByRole('article', { name: 'Flyer' }).count()).toBe(0);
    expect(await codesIn(page, personalId)).toEqual([]);
    expect((await codesIn(page, teamId)).sort()).toEqual(['Flyer', 'Team menu']);
    const scan = await page.request.get(`/r/${flyer.slug}`, { maxRedirects: 0 });
    expect(scan.status()).toBe(302);
    expect(scan.headers().location).toBe('https://example.com/flyer');

    await owner.context.close();
    await viewer.context.close();
  });

  it('a mailed invitation link opened signed out comes back to the invitation after signing in', async () => {
    const owner = await signUpNewUser(app, 'mailer');
    const team = await mutate<{ id: number }>(owner.page, 'workspaces.create', { name: 'Kitchen' });
    const invitee = await signUpNewUser(app, 'invitee');
    const inviteeEmail = `${invitee.username}@example.com`;
    await mutate(owner.page, 'workspaces.invite', {
      workspaceId: team.id,
      email: inviteeEmail,
      role: 'editor',
    });
    const link = await waitForMailLink(
      app.server.dataDir,
      /https?:\/\/[^\s"<>]+\/invitations#token=[^\s"<>]+/,
    );

    // A fresh browser, signed out: to /auth first, then back to the invitation.
    const context = await app.browser.newContext({ baseURL: app.server.url, viewport: desktop });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(link);
    await page.waitForURL((u) => u.pathname === '/auth');
    await page.getByLabel('Username').fill(invitee.username);
    await page.getByLabel(/^Password/).fill('secret123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/invitations');
    // The token has left the address bar.
    expect(new URL(page.url()).hash).toBe('');
    const card = page.getByRole('article', { name: 'Kitchen' });
    await card.getByText('Editor', { exact: true }).waitFor();
    // Shown once, though it is also in the user's own list (sent to their address).
    expect(await page.getByRole('article', { name: 'Kitchen' }).count()).toBe(1);
    await card.getByRole('button', { name: 'Accept the invitation to Kitchen' }).click();
    await toast(page, 'Invitation accepted').waitFor();
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('workspace') === String(team.id));
    await expect.poll(() => switcher(page).textContent()).toContain('Kitchen · Editor');

    // The same link again: answered, so no longer valid.
    await page.goto(link);
    await page.getByText('This invitation is no longer valid').waitFor();

    await context.close();
    await owner.context.close();
    await invitee.context.close();
  });
});
