// Short domains (issue 35, item 2) as the admin meets them on /admin/domains: the empty page and its set-up
// text, a domain refused on its field (a URL typed instead of a host name, then one already added, nothing
// typed lost), one added for all workspaces and then narrowed to a chosen team found by searching, the
// reverse proxy's ask answering for it, a delete refused while a code uses it and done once none does.
// Screenshots at 1280 and 375 px, with a WCAG audit of the page with its table.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { domainMessages } from '../../src/qr/short-domain.schema';
import { audit } from './a11y';
import { allowConsoleErrors, desktop, newPage, phone, screenshot, signIn, withAppServer } from './harness';

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });

const DOMAIN = 'go.example.test';

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

/** The table's body row of a domain. */
const row = (page: Page, hostname: string) =>
  page
    .getByRole('table', { name: 'Short domains' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: hostname, exact: true }) });

/** The dialog's Domain field (its name ends with the required mark). */
const domainField = (page: Page) => page.getByRole('dialog').getByRole('textbox', { name: /^Domain/ });

/** The Domain field's own error line under the input. */
const domainError = (page: Page, text: string) =>
  page
    .getByRole('dialog')
    .locator('.mantine-InputWrapper-root')
    .filter({ has: page.getByRole('textbox', { name: /^Domain/ }) })
    .getByText(text, { exact: true });

async function asAdmin(viewport = desktop) {
  const { context, page } = await newPage(app.browser, app.server.url, viewport);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  return { context, page };
}

/** A tRPC mutation as the page's user (their session cookie), answering its data. */
async function mutate<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/trpc/${path}`, { data: input });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

const ask = async (page: Page, domain: string) =>
  (await page.request.get(`/api/short-domains/ask?domain=${encodeURIComponent(domain)}`)).status();

describe('/admin/domains', () => {
  it('adds a domain, narrows it to a chosen team, answers the ask for it and deletes it once no code uses it', async () => {
    const { context, page } = await asAdmin();
    const team = await mutate<{ id: number; name: string }>(page, 'workspaces.create', {
      name: `Bistro ${Date.now() % 10000}`,
    });

    // Reached from the admin's navigation; nothing added yet.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Short domains' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/domains');
    await page.getByRole('heading', { name: 'Short domains', level: 2 }).waitFor();
    await page.getByText('No short domains yet').waitFor();
    await screenshot(page, 'admin-domains-empty-1280', { fullPage: false });
    await page.getByText(`${app.server.url}/api/short-domains/ask`, { exact: true }).waitFor();
    // The Caddyfile asks the app on its own port, over HTTP (no certificate needed to ask).
    await page.getByText('ask http://127.0.0.1:3000/api/short-domains/ask').waitFor();
    expect(await page.getByRole('button', { name: 'Copy the ask URL' }).count()).toBe(1);

    // A URL instead of a host name: refused on the Domain field, before the server is asked.
    await page.getByRole('button', { name: 'Add domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add domain' });
    await domainField(page).fill(`https://${DOMAIN}/menu`);
    await dialog.getByLabel('Home page').fill('https://example.com/');
    await dialog.getByRole('button', { name: 'Add domain' }).click();
    await domainError(page, domainMessages.hostName).waitFor();
    expect(await dialog.getByLabel('Home page').inputValue()).toBe('https://example.com/');

    // Fixed, for all workspaces (the default).
    await domainField(page).fill(DOMAIN);
    expect(await domainError(page, domainMessages.hostName).count()).toBe(0);
    expect(await dialog.getByRole('radio', { name: 'All workspaces' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Add domain' }).click();
    await toast(page, 'Domain added').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await row(page, DOMAIN).getByRole('cell', { name: 'All workspaces' }).waitFor();

    // The same domain again: the server's 409 on the Domain field, the dialog and its text kept.
    allowConsoleErrors(page, /409 \(Conflict\)/);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await domainField(page).fill(DOMAIN.toUpperCase());
    await dialog.getByRole('button', { name: 'Add domain' }).click();
    await domainError(page, domainMessages.taken).waitFor();
    expect(await domainField(page).inputValue()).toBe(DOMAIN.toUpperCase());
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Narrowed to the team, found by searching its name.
    await page.getByRole('button', { name: `Edit ${DOMAIN}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${DOMAIN}` });
    expect(await edit.getByLabel('Home page').inputValue()).toBe('https://example.com/');
    await edit.getByRole('radio', { name: 'Chosen workspaces' }).check();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.getByText('Choose at least one workspace', { exact: false }).waitFor();
    await edit.getByRole('combobox', { name: /^Workspaces/ }).fill('bistro');
    await page.getByRole('option', { name: team.name }).click();
    await edit.getByLabel('Unknown links').fill('https://example.com/lost');
    await screenshot(page, 'admin-domains-dialog-1280');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Domain saved').waitFor();
    await edit.waitFor({ state: 'detached' });
    await row(page, DOMAIN).getByRole('cell', { name: team.name }).waitFor();
    await row(page, DOMAIN).getByRole('cell', { name: 'https://example.com/lost' }).waitFor();

    // The reverse proxy's question before a certificate: yes for it, no for a stranger.
    expect(await ask(page, DOMAIN)).toBe(200);
    expect(await ask(page, 'unknown.example.test')).toBe(404);

    await screenshot(page, 'admin-domains-1280');
    expect(await audit(page), '/admin/domains at 1280 px').toEqual([]);

    // A phone: a card per domain, nothing wider than the screen.
    const narrow = await asAdmin(phone);
    await narrow.page.goto('/admin/domains');
    const card = narrow.page.getByRole('list', { name: 'Short domains' }).getByRole('listitem');
    await card.filter({ hasText: team.name }).waitFor();
    expect(await card.getByRole('button', { name: `Edit ${DOMAIN}` }).count()).toBe(1);
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(narrow.page, 'admin-domains-375');
    await narrow.context.close();

    // A code of the team on the domain: the delete is refused with the server's message.
    const listed = (await (await page.request.get('/api/admin/domains')).json()) as {
      items: { id: number; hostname: string }[];
    };
    const domainId = listed.items.find((d) => d.hostname === DOMAIN)?.id;
    const made = await page.request.post('/api/qr-codes', {
      headers: { 'X-Workspace': String(team.id) },
      data: {
        name: 'Menu',
        type: 'url',
        content: 'https://example.com/menu',
        isDynamic: true,
        domainId,
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const code = (await made.json()) as { id: number; shortUrl: string };
    expect(code.shortUrl.startsWith(`http://${DOMAIN}/`)).toBe(true);
    await page.reload();
    await row(page, DOMAIN).getByRole('cell', { name: '1', exact: true }).waitFor();
    await page.getByRole('button', { name: `Delete ${DOMAIN}` }).click();
    const remove = page.getByRole('dialog', { name: `Delete ${DOMAIN}?` });
    await remove.getByRole('button', { name: 'Delete domain' }).click();
    await remove.getByRole('alert').getByText(domainMessages.inUse(1)).waitFor();
    await screenshot(page, 'admin-domains-in-use-1280', { fullPage: false });

    // The code back on the app's own address: deleted, and the ask no longer answers for it.
    const moved = await page.request.put(`/api/qr-codes/${code.id}`, {
      headers: { 'X-Workspace': String(team.id) },
      data: { domainId: null },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await remove.getByRole('button', { name: 'Delete domain' }).click();
    await toast(page, 'Domain deleted').waitFor();
    await page.getByText('No short domains yet').waitFor();
    expect(await ask(page, DOMAIN)).toBe(404);
    await context.close();
  });
});
