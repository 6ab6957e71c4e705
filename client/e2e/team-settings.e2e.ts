import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit, installAxe, type Finding } from './a11y';
import {
  allowConsoleErrors,
  desktop,
  phone,
  screenshot,
  signIn,
  signUpNewUser,
  withAppServer,
} from './harness';

// /workspace (a team's settings, and the personal workspace's), /admin/workspaces and the admin's deletion
// dialog, driven in the browser against the real server. Teams, invitations and codes that are only the
// setting of a test are made through the API, as a script would.

const ADMIN_PASSWORD = 'admin-e2e-password';
const app = withAppServer({ ADMIN_PASSWORD });
let serial = 0;

const toast = (page: Page, title: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: title }).first();

/** A tRPC mutation as the signed-in user of `page`: its answer's data. */
async function mutate<T>(page: Page, path: string, input: unknown): Promise<T> {
  const res = await page.request.post(`/trpc/${path}`, { data: input });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

/** A tRPC query as the signed-in user of `page`. */
async function query<T>(page: Page, path: string, input?: unknown): Promise<T> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await page.request.get(`/trpc/${path}${search}`);
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

async function newUser(prefix: string, viewport = desktop) {
  const user = await signUpNewUser(app, prefix, viewport);
  await installAxe(user.context);
  return user;
}

/** A team made by `owner`, with `members` invited by username and accepting as `role`. */
async function teamWith(
  owner: { page: Page },
  name: string,
  members: { page: Page; username: string; role: 'viewer' | 'editor' | 'admin' }[] = [],
) {
  const team = await mutate<{ id: number; name: string }>(owner.page, 'workspaces.create', { name });
  for (const member of members) {
    await mutate(owner.page, 'workspaces.invite', {
      workspaceId: team.id,
      username: member.username,
      role: member.role,
    });
    const mine = await query<{ id: number; workspaceId: number }[]>(member.page, 'workspaces.myInvitations');
    const invitation = mine.find((i) => i.workspaceId === team.id);
    expect(invitation).toBeDefined();
    await mutate(member.page, 'workspaces.accept', { invitationId: invitation!.id });
  }
  return team;
}

/** The team's settings as `page`'s user: the switcher's choice remembered, and the address naming it. */
async function openTeamSettings(page: Page, workspaceId: number) {
  await mutate(page, 'workspaces.switch', { workspaceId });
  await page.goto(`/workspace?workspace=${workspaceId}`);
  await page.getByRole('heading', { name: 'Team settings', level: 2 }).waitFor();
}

/** Lazy pages loaded, queries answered: no skeleton, loader or busy region left. */
async function settle(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector(
        '.mantine-Skeleton-root[data-visible], .mantine-Loader-root, [aria-busy="true"]',
      ) === null,
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function setScheme(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
  await page.waitForFunction(
    (s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s,
    scheme,
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The page as it is, at 1280 and 375 px, light and dark: axe's findings (WCAG 2.2 AA) of each, the page
 * never wider than the phone, and a picture of each with SCREENSHOTS=1.
 */
async function checkEverywhere(page: Page, name: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const viewport of [desktop, phone]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await setScheme(page, scheme);
      await settle(page);
      let found = await audit(page);
      // A frame caught mid-repaint (the old scheme's colour on the new background) is looked at again.
      if (found.length > 0) {
        await page.waitForTimeout(500);
        found = await audit(page);
      }
      findings.push(...found.map((f) => ({ ...f, summary: `${scheme} ${viewport.width}px: ${f.summary}` })));
      if (viewport === phone) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          phone.width,
        );
      }
      await screenshot(page, `${name}-${scheme}-${viewport.width}`);
    }
  }
  await page.setViewportSize(desktop);
  await setScheme(page, 'light');
  return findings;
}

describe('/workspace', () => {
  it('an owner invites by username, changes a role, sees the feed and renames; the last owner cannot leave', async () => {
    serial += 1;
    const owner = await newUser('owner');
    const colleague = await newUser('colleague');
    const invitee = await newUser('invitee');
    const team = await teamWith(owner, `Marketing ${serial}`, [{ ...colleague, role: 'viewer' }]);
    const { page } = owner;

    await openTeamSettings(page, team.id);
    await page.getByText(team.name, { exact: true }).first().waitFor();
    await page.getByText('Your role: Owner').waitFor();

    // Members: the owner is 'You'; the colleague's role is a choice the owner may change.
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByRole('listitem').filter({ hasText: owner.username }).getByText('You').waitFor();
    const roleOf = members.getByRole('combobox', { name: `Role of ${colleague.username}` });
    expect(await roleOf.inputValue()).toBe('Viewer');
    await roleOf.click();
    await page.getByRole('option', { name: 'Editor' }).click();
    await toast(page, 'Role changed').waitFor();
    await expect.poll(() => roleOf.inputValue()).toBe('Editor');
    const after = await query<{ username: string; role: string }[]>(page, 'workspaces.members', {
      workspaceId: team.id,
    });
    expect(after.find((m) => m.username === colleague.username)?.role).toBe('editor');

    // Invitations: by username; the role's meaning is said under the choice.
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await page.getByText('By username').click();
    await page.getByText('Also creates, edits, moves and deletes codes and folders').waitFor();
    // An unknown name: the server's words under the field.
    allowConsoleErrors(page, /404 \(Not Found\)/);
    await page.getByRole('textbox', { name: 'Username' }).fill('nobody-by-that-name');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('No user with that username').waitFor();
    await page.getByRole('textbox', { name: 'Username' }).fill(invitee.username);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await toast(page, 'Invitation sent').waitFor();
    const pending = page.getByRole('list', { name: 'Pending invitations' });
    await pending.getByRole('listitem').filter({ hasText: invitee.username }).getByText('Editor').waitFor();
    expect(await checkEverywhere(page, 'team-settings-invitations')).toEqual([]);

    // The feed says, in words, who did what.
    await page.getByRole('tab', { name: 'Activity' }).click();
    await page
      .getByText(`${owner.username} changed the role of ${colleague.username} from viewer to editor`)
      .waitFor();
    await page.getByText(`${owner.username} invited ${invitee.username} as editor`).waitFor();
    await page.getByText(`${colleague.username} joined the workspace as viewer`).waitFor();
    await screenshot(page, 'team-settings-activity-1280');

    // General: rename; the header follows.
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByText(`Deleting ${team.name} deletes its 0 QR codes`, { exact: false }).waitFor();
    const renamed = `Growth ${serial}`;
    await page.getByLabel('Workspace name').fill(renamed);
    await page.getByRole('button', { name: 'Rename' }).click();
    await toast(page, 'Workspace renamed').waitFor();
    await page.getByText(renamed, { exact: true }).first().waitFor();
    expect((await query<{ name: string }>(page, 'workspaces.get', { workspaceId: team.id })).name).toBe(
      renamed,
    );

    // The only owner may not leave: the server's reason shows in the dialog.
    await page.getByRole('tab', { name: 'Members' }).click();
    expect(await checkEverywhere(page, 'team-settings-members')).toEqual([]);
    allowConsoleErrors(page, /409 \(Conflict\)/);
    await page.getByRole('button', { name: 'Leave workspace' }).click();
    const leave = page.getByRole('dialog', { name: `Leave ${renamed}?` });
    await leave.getByRole('button', { name: 'Leave workspace' }).click();
    await leave
      .getByRole('alert')
      .getByText('A workspace needs at least one owner: make another member owner first')
      .waitFor();
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor({ state: 'detached' });

    // Typing the name is what unlocks the deletion.
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByRole('button', { name: 'Delete workspace' }).click();
    const del = page.getByRole('dialog', { name: `Delete ${renamed}?` });
    const confirm = del.getByRole('button', { name: 'Delete workspace' });
    expect(await confirm.isDisabled()).toBe(true);
    await del.getByLabel(`Type ${renamed} to confirm`).fill(renamed);
    await expect.poll(() => confirm.isDisabled()).toBe(false);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'team-settings-delete-dialog-1280', { fullPage: false });
    await confirm.click();
    await toast(page, 'Workspace deleted').waitFor();
    // Back in the personal workspace, on the dashboard.
    await page.waitForURL((u) => u.pathname === '/');
    expect((await query<{ kind: string }>(page, 'workspaces.current')).kind).toBe('personal');
    const left = await query<{ id: number }[]>(page, 'workspaces.list');
    expect(left.map((w) => w.id)).not.toContain(team.id);

    for (const user of [owner, colleague, invitee]) await user.context.close();
  });

  it('an editor sees the team but none of the controls their role may not use', async () => {
    serial += 1;
    const owner = await newUser('boss');
    const editor = await newUser('editor');
    const team = await teamWith(owner, `Print ${serial}`, [{ ...editor, role: 'editor' }]);
    const { page } = editor;
    // 18 role changes and the team's first three entries: more than the feed's page of 20.
    const { id: userId } = await query<{ id: number }>(editor.page, 'auth.me');
    for (let i = 0; i < 18; i++) {
      await mutate(owner.page, 'workspaces.changeRole', {
        workspaceId: team.id,
        userId,
        role: i % 2 === 0 ? 'viewer' : 'editor',
      });
    }

    await openTeamSettings(page, team.id);
    await page.getByText('Your role: Editor').waitFor();
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByRole('listitem').filter({ hasText: owner.username }).getByText('Owner').waitFor();
    expect(await page.getByRole('combobox', { name: /^Role of/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Invitations' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'General' }).count()).toBe(0);
    expect(await page.getByText('Transfer ownership').count()).toBe(0);
    await page.getByRole('button', { name: 'Leave workspace' }).waitFor();
    await page.getByRole('tab', { name: 'Plan' }).click();
    await page.getByText('Only an owner can change the plan.').waitFor();
    expect(await page.getByRole('link', { name: 'Change plan' }).count()).toBe(0);

    // The feed, 20 at a time: the oldest entry comes with "Load more".
    await page.getByRole('tab', { name: 'Activity' }).click();
    const lines = page.getByRole('tabpanel').getByRole('listitem');
    await expect.poll(() => lines.count()).toBe(20);
    expect(await page.getByText(`created the workspace “${team.name}”`).count()).toBe(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`${owner.username} created the workspace “${team.name}”`).waitFor();
    expect(await lines.count()).toBe(21);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // Leaving works for a member who is not the last owner: back to the personal workspace.
    await page.getByRole('tab', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Leave workspace' }).click();
    await page
      .getByRole('dialog', { name: `Leave ${team.name}?` })
      .getByRole('button', { name: 'Leave workspace' })
      .click();
    await toast(page, 'You left the workspace').waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    const current = await query<{ kind: string }>(page, 'workspaces.current');
    expect(current.kind).toBe('personal');

    await owner.context.close();
    await editor.context.close();
  });

  it('the personal workspace says it has no members and makes a team, then an owner transfers it', async () => {
    const user = await newUser('solo');
    const colleague = await newUser('heir');
    const { page } = user;
    await page.goto('/workspace');
    await page.getByRole('heading', { name: 'Team settings', level: 2 }).waitFor();
    await page.getByText('it has no members', { exact: false }).waitFor();
    await page.getByText('Nothing has happened here yet.', { exact: false }).waitFor();
    expect(await checkEverywhere(page, 'team-settings-personal')).toEqual([]);

    // A name too short is refused in the form, before the server is asked.
    await page.getByRole('button', { name: 'Create team workspace' }).click();
    await page.getByText('Name must be at least 2 characters').waitFor();
    serial += 1;
    const name = `Events ${serial}`;
    await page.getByLabel('Team name').fill(name);
    await page.getByRole('button', { name: 'Create team workspace' }).click();
    await toast(page, 'Workspace created').waitFor();
    await page.getByText('Your role: Owner').waitFor();
    await page.getByText(name, { exact: true }).first().waitFor();
    const team = await query<{ id: number; kind: string }>(page, 'workspaces.current');
    expect(team.kind).toBe('team');
    expect(new URL(page.url()).searchParams.get('workspace')).toBe(String(team.id));

    // Transfer: the colleague becomes owner, the caller an admin (the General tab goes away).
    await mutate(page, 'workspaces.invite', {
      workspaceId: team.id,
      username: colleague.username,
      role: 'admin',
    });
    const [invitation] = await query<{ id: number }[]>(colleague.page, 'workspaces.myInvitations');
    await mutate(colleague.page, 'workspaces.accept', { invitationId: invitation!.id });
    await page.reload();
    await page.getByRole('combobox', { name: 'New owner' }).click();
    await page.getByRole('option', { name: new RegExp(`^${colleague.username}`) }).click();
    await page.getByRole('button', { name: 'Transfer ownership' }).click();
    await page
      .getByRole('dialog', { name: `Make ${colleague.username} the owner?` })
      .getByRole('button', { name: 'Transfer ownership' })
      .click();
    await toast(page, 'Ownership transferred').waitFor();
    await page.getByText('Your role: Admin').waitFor();
    await expect.poll(() => page.getByRole('tab', { name: 'General' }).count()).toBe(0);

    await user.context.close();
    await colleague.context.close();
  });
});

describe('/admin/workspaces and the deletion dialog', () => {
  it('the admin finds a team by its name or an owner, and may not delete the sole owner of a team with codes', async () => {
    serial += 1;
    const owner = await newUser('founder');
    const team = await teamWith(owner, `Menus ${serial}`);
    const code = await owner.page.request.post('/api/qr-codes', {
      headers: { 'X-Workspace': String(team.id) },
      data: { name: 'Lunch menu', type: 'url', content: 'https://example.com/lunch', isDynamic: true },
    });
    expect(code.status(), await code.text()).toBe(201);

    const context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: desktop,
      colorScheme: 'light',
    });
    await installAxe(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, 'admin', ADMIN_PASSWORD);

    await page.goto('/admin/workspaces');
    await page.getByRole('heading', { name: 'Workspaces', level: 2 }).waitFor();
    const search = page.getByLabel('Search workspaces');
    await search.fill(team.name);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .filter({ hasText: team.name });
    await row.waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2); // the header and the team
    await row.getByText(owner.username).waitFor();
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('1');
    await search.fill(owner.username);
    await row.waitFor();
    await search.fill('no-team-is-called-this');
    await page.getByText('No workspaces match “no-team-is-called-this”.').waitFor();
    await search.fill(team.name);
    await row.waitFor();
    expect(await checkEverywhere(page, 'admin-workspaces')).toEqual([]);

    // Its plan, as on /admin/subscriptions.
    await row.getByRole('button', { name: `Plan actions for ${team.name}` }).click();
    await page.getByRole('menuitem', { name: 'Upgrade' }).click();
    const upgrade = page.getByRole('dialog', { name: `Upgrade subscription: ${team.name}` });
    await upgrade.getByRole('button', { name: 'Upgrade subscription' }).click();
    await upgrade.waitFor({ state: 'detached' });
    await row.getByText('Pro', { exact: true }).waitFor();

    // The founder alone owns a team with a code: the dialog says why the deletion must wait.
    await page.goto('/admin/users');
    await page.getByLabel('Search users').fill(owner.username);
    const userRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
      .filter({ hasText: owner.username });
    await userRow.getByRole('button', { name: `Actions for ${owner.username}`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: `Delete ${owner.username}?` });
    await del
      .getByRole('alert')
      .getByText(`${team.name} has 1 code and no other owner: make another member owner first.`)
      .waitFor();
    expect(await del.getByRole('button', { name: 'Delete user' }).isDisabled()).toBe(true);
    expect(await audit(page)).toEqual([]);
    await screenshot(page, 'admin-delete-user-blocked-1280', { fullPage: false });

    await context.close();
    await owner.context.close();
  });
});
