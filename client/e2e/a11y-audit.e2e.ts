import type { AnyRoute } from '@tanstack/react-router';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import * as routeTable from '../routes';
import { audit, Findings, go, installAxe, reflow, settle } from './a11y';
import { allowConsoleErrors, desktop, phone, screenshot, signIn, withAppServer } from './harness';

/**
 * WCAG 2.2 AA (axe-core) on every route of the router, for each role that may open it, in light and dark,
 * at 1280 and 375 px, and reflow at 320 and 640 px (200 % zoom); then each dialog and menu the pages open, once. One page per role: routes are
 * reached client-side and the scheme and width change in place, so the whole audit takes about two
 * minutes. With the free limit at 2 the demo account (two codes) is at its limit: 'Create' opens the limit
 * dialog.
 */
const ADMIN_PASSWORD = 'admin-a11y-password';
const app = withAppServer({ ADMIN_PASSWORD, FREE_PLAN_LIMIT: '2' });

type Role = 'public' | 'user' | 'admin';

interface AuditedRoute {
  path: string;
  role: Role;
}

/**
 * Every addressable route of client/routes.ts (where each route object lives, router.tsx only wires pages
 * to them), with the role its ancestors demand: a new page is audited the day it is added. Layout routes
 * (an id, no path) are not addresses; their pages are.
 */
function routesOfTheApp(): AuditedRoute[] {
  const all = (Object.values(routeTable) as unknown[]).filter(
    (value): value is AnyRoute => typeof value === 'object' && value !== null && 'options' in value,
  );
  const result: AuditedRoute[] = [];
  for (const route of all) {
    const options = route.options as { path?: string; getParentRoute?: () => AnyRoute };
    if (!options.path) continue;
    const chain: AnyRoute[] = [];
    for (let r: AnyRoute | undefined = route; r;) {
      chain.push(r);
      r = (r.options as { getParentRoute?: () => AnyRoute }).getParentRoute?.();
    }
    const role: Role = chain.includes(routeTable.adminRoute as AnyRoute)
      ? 'admin'
      : chain.includes(routeTable.appRoute as AnyRoute)
        ? 'user'
        : 'public';
    const path = chain
      .map((r) => (r.options as { path?: string }).path)
      .filter((p): p is string => !!p)
      .reverse()
      .join('')
      .replace(/\/+/g, '/');
    result.push({ path, role });
  }
  return result;
}

const routes = routesOfTheApp();
const themes = ['light', 'dark'] as const;
const widths = [desktop, phone];
const findings = new Findings();

async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.waitForFunction(
    (s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s,
    scheme,
  );
  // Two frames: React's re-render for the new scheme, then its paint.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * axe's findings that last: a page caught in the frame where a scheme or width change repaints (seen
 * once in a while on a loaded machine: the previous scheme's text colour on the new background) is
 * audited again half a second later, and only what is still there counts.
 */
async function steadyAudit(page: Page) {
  const first = await audit(page);
  if (first.length === 0) return first;
  await page.waitForTimeout(500);
  return audit(page);
}

/** The route in both schemes at both widths. */
async function auditRoute(page: Page, label: string, shots?: string) {
  for (const width of widths) {
    await page.setViewportSize(width);
    for (const scheme of themes) {
      await setScheme(page, scheme);
      await settle(page);
      findings.add(`${label} ${scheme} ${width.width}px`, await steadyAudit(page));
      if (shots) await screenshot(page, `a11y-${shots}-${scheme}-${width.width}`, { fullPage: false });
    }
  }
  await page.setViewportSize(desktop);
  await setScheme(page, 'light');
}

/** A dialog or menu opened once by `open`, audited in both schemes, then closed with Escape. */
async function auditOverlay(page: Page, label: string, open: () => Promise<Locator>) {
  const overlay = await open();
  await overlay.waitFor();
  for (const scheme of themes) {
    await setScheme(page, scheme);
    await settle(page);
    findings.add(`${label} ${scheme}`, await steadyAudit(page));
  }
  await setScheme(page, 'light');
  await page.keyboard.press('Escape');
  await overlay.waitFor({ state: 'hidden' });
}

async function newRolePage(role: Role): Promise<Page> {
  const context = await app.browser.newContext({
    baseURL: app.server.url,
    viewport: desktop,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  await installAxe(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (role === 'user') await signIn(page, 'demo', 'demo123');
  if (role === 'admin') await signIn(page, 'admin', ADMIN_PASSWORD);
  return page;
}

/** A real id of one of the signed-in user's dynamic codes, for /qr-details/$id and /edit-qr/$id. */
async function firstDynamicCodeId(page: Page): Promise<string> {
  const codes = (await (await page.request.get('/api/qr-codes')).json()) as {
    id: number;
    isDynamic: boolean;
  }[];
  const code = codes.find((c) => c.isDynamic);
  if (code) return String(code.id);
  // The admin starts with none: one of their own, so the pages show a code, not an error.
  const created = await page.request.post('/api/qr-codes', {
    data: { name: 'Admin link', type: 'url', content: 'https://example.com/admin', isDynamic: true },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return String(((await created.json()) as { id: number }).id);
}

async function auditRoutesAs(page: Page, role: Role, allowed: Role[], shotsOf: string[] = []) {
  const id = role === 'public' ? '1' : await firstDynamicCodeId(page);
  // A shared dashboard's address with no real token: its not-found page, after the 404 of its API call.
  allowConsoleErrors(page, /status of 404 .*\/api\/public\/shares\//);
  for (const route of routes.filter((r) => allowed.includes(r.role))) {
    const path = route.path.replace('$id', id);
    await go(page, path);
    await settle(page);
    const shot = shotsOf.includes(route.path) ? `${role}${route.path.replace(/\W+/g, '-')}` : undefined;
    await auditRoute(page, `${path} (${role})`, shot);
    findings.add(`${path} (${role}) reflow`, await reflow(page));
  }
}

describe('WCAG 2.2 AA on every route', () => {
  it('enumerates the route table', () => {
    const paths = routes.map((r) => r.path);
    // The table is read, not copied: these are samples of each role, not the list.
    expect(paths).toEqual(expect.arrayContaining(['/auth', '/', '/qr-details/$id', '/admin/users']));
    expect(routes.find((r) => r.path === '/admin')?.role).toBe('admin');
    expect(routes.find((r) => r.path === '/analytics')?.role).toBe('user');
  });

  it('signed out: the public pages and Page Not Found', async () => {
    const page = await newRolePage('public');
    await page.goto('/auth');
    await settle(page);
    await auditRoutesAs(page, 'public', ['public'], ['/auth']);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await auditRoute(page, '/no/such/page (public)');
    await page.context().close();
  }, 180_000);

  it('the demo user: every page, then the dialogs and menus', async () => {
    const page = await newRolePage('user');
    await auditRoutesAs(page, 'user', ['user'], ['/', '/analytics', '/my-qr-codes']);

    await go(page, '/my-qr-codes');
    await settle(page);
    await auditOverlay(page, 'New Folder dialog', async () => {
      await page.getByRole('button', { name: 'New Folder' }).click();
      return page.getByRole('dialog', { name: 'New Folder' });
    });
    const card = page.getByRole('article').first();
    await auditOverlay(page, 'Move dialog', async () => {
      await card.getByRole('button', { name: 'Move' }).click();
      return page.getByRole('dialog', { name: /^Move/ });
    });
    await auditOverlay(page, 'download menu', async () => {
      await card.getByRole('button', { name: /^More actions for/ }).click();
      return page.getByRole('menu');
    });
    await auditOverlay(page, 'delete confirmation', async () => {
      await card.getByRole('button', { name: /^More actions for/ }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      return page.getByRole('dialog', { name: 'Delete QR code?' });
    });
    await auditOverlay(page, 'account menu', async () => {
      await page.getByRole('button', { name: /^Account menu/ }).click();
      return page.getByRole('menu');
    });
    await auditOverlay(page, 'Help dialog', async () => {
      await page.getByRole('banner').getByRole('button', { name: 'Help' }).click();
      return page.getByRole('dialog');
    });

    await go(page, '/create');
    await settle(page);
    allowConsoleErrors(page, /status of 403 .*qr\.create/); // the refusal that opens the limit dialog
    await auditOverlay(page, 'limit dialog', async () => {
      await page.getByLabel(/^URL/).fill('https://example.com/a11y');
      const dialog = page.getByRole('dialog', { name: 'QR Code Limit Reached' });
      // The demo user is at the limit, so every create is refused: clicking again is harmless, and a click
      // that lands while a loaded machine is still drawing the form is sometimes lost.
      await expect
        .poll(
          async () => {
            if (!(await dialog.isVisible()))
              await page
                .getByRole('button', { name: 'Create QR Code' })
                .click({ timeout: 3000 })
                .catch(() => undefined);
            return dialog.isVisible();
          },
          { timeout: 45_000, interval: 3000 },
        )
        .toBe(true);
      return dialog;
    });

    await go(page, '/settings');
    await settle(page);
    await auditOverlay(page, 'API token dialog', async () => {
      await page.getByRole('button', { name: 'Create token' }).click();
      return page.getByRole('dialog', { name: 'Create API token' });
    });
    await auditOverlay(page, 'two-factor dialog', async () => {
      // The switch stays off until the dialog's steps are done.
      await page.getByRole('switch', { name: /Two-factor authentication/ }).click();
      return page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
    });

    await page.setViewportSize(phone);
    await auditOverlay(page, 'navigation drawer (375 px)', async () => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      return page.getByRole('dialog');
    });
    await page.context().close();
  }, 180_000);

  it('the admin: every page, then the admin dialogs', async () => {
    const page = await newRolePage('admin');
    await auditRoutesAs(page, 'admin', ['user', 'admin'], ['/admin']);

    await go(page, '/admin/users');
    await settle(page);
    await auditOverlay(page, 'Create User dialog', async () => {
      await page.getByRole('button', { name: 'Create User' }).click();
      return page.getByRole('dialog', { name: 'Create User' });
    });
    for (const [item, dialog] of [
      ['Edit', 'Edit demo'],
      ['Reset password', 'Reset password of demo'],
      ['Delete', 'Delete demo?'],
    ] as const) {
      await auditOverlay(page, `${dialog} dialog`, async () => {
        await page.getByRole('button', { name: 'Actions for demo', exact: true }).click();
        await page.getByRole('menuitem', { name: item, exact: true }).click();
        return page.getByRole('dialog', { name: dialog });
      });
    }
    await auditOverlay(page, 'user actions menu', async () => {
      await page.getByRole('button', { name: 'Actions for demo', exact: true }).click();
      return page.getByRole('menu');
    });

    await go(page, '/admin/subscriptions');
    await settle(page);
    await auditOverlay(page, 'plan change dialog', async () => {
      await page.getByRole('button', { name: 'Subscription actions for demo' }).click();
      await page.getByRole('menuitem', { name: 'Upgrade' }).click();
      return page.getByRole('dialog');
    });
    await page.context().close();
  }, 180_000);

  it('found no violation', () => {
    console.info(`a11y audit: ${findings.audits} audits over ${routes.length} routes`, findings.byRule());
    expect(findings.count, findings.report()).toBe(0);
  });
});
