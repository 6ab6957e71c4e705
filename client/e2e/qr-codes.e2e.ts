import { decodeQr } from '../../server/test/qr-decode';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { QrCode } from '../../src/qr/qr.schema';
import {
  allowConsoleErrors,
  desktop,
  downloadBytes,
  newPage,
  phone,
  screenshot,
  signIn,
  startServer,
  withAppServer,
} from './harness';

const app = withAppServer({ FREE_PLAN_LIMIT: '50' });

async function listCodes(page: Page): Promise<QrCode[]> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  return (await res.json()) as QrCode[];
}

interface TypeCase {
  type: string;
  /** The tile's label, or the More menu's item. */
  tile: string;
  more?: boolean;
  fields: [RegExp, string][];
  select?: [RegExp, string];
  dynamic: boolean;
  expected: string;
}

const cases: TypeCase[] = [
  {
    type: 'url',
    tile: 'URL',
    fields: [[/^URL/, 'https://example.com/menu']],
    dynamic: true,
    expected: 'https://example.com/menu',
  },
  {
    type: 'email',
    tile: 'Email',
    fields: [
      [/^Email/, 'hello@example.com'],
      [/^Subject/, 'Table booking'],
    ],
    dynamic: true,
    expected: 'mailto:hello@example.com?subject=Table%20booking',
  },
  {
    type: 'text',
    tile: 'Text',
    fields: [[/^Text/, 'Free coffee on Fridays']],
    dynamic: false,
    expected: 'Free coffee on Fridays',
  },
  {
    type: 'sms',
    tile: 'SMS',
    fields: [
      [/^Phone number/, '+15551234567'],
      [/^Message/, 'Hi there'],
    ],
    dynamic: true,
    expected: 'SMSTO:+15551234567:Hi there',
  },
  {
    type: 'wifi',
    tile: 'Wi-Fi',
    fields: [
      [/^Network name/, 'Cafe; Guest'],
      [/^Password/, 'espresso'],
    ],
    dynamic: false,
    expected: 'WIFI:T:WPA;S:Cafe\\; Guest;P:espresso;;',
  },
  {
    type: 'vcard',
    tile: 'vCard',
    fields: [
      [/^First name/, 'Ada'],
      [/^Last name/, 'Lovelace'],
    ],
    dynamic: true,
    expected: 'BEGIN:VCARD',
  },
  {
    type: 'event',
    tile: 'Event',
    fields: [
      [/^Title/, 'Launch party'],
      [/^Start date/, '2026-12-24T18:00'],
    ],
    dynamic: true,
    expected: 'BEGIN:VCALENDAR',
  },
  {
    type: 'social',
    tile: 'Social',
    more: true,
    fields: [[/^Profile URL/, 'https://social.example/@cafe']],
    dynamic: true,
    expected: 'https://social.example/@cafe',
  },
  {
    type: 'pdf',
    tile: 'PDF',
    more: true,
    fields: [[/^PDF URL/, 'https://example.com/menu.pdf']],
    dynamic: true,
    expected: 'https://example.com/menu.pdf',
  },
  {
    type: 'video',
    tile: 'Video',
    more: true,
    fields: [[/^Video URL/, 'https://video.example/v/1']],
    dynamic: true,
    expected: 'https://video.example/v/1',
  },
  {
    type: 'image',
    tile: 'Image',
    more: true,
    fields: [[/^Image URL/, 'https://example.com/a.png']],
    dynamic: true,
    expected: 'https://example.com/a.png',
  },
  {
    type: 'phone',
    tile: 'Phone',
    more: true,
    fields: [[/^Phone number/, '+15557654321']],
    dynamic: false,
    expected: 'tel:+15557654321',
  },
];

describe('QR codes end to end', () => {
  // One code of each type, each a whole round trip through the designer: 15 s apiece (about 2 s quiet;
  // a CI run with every lane busy took over 60 s for the thirteen).
  it(
    'creates one code of every type through the designer',
    async () => {
      const { context, page } = await newPage(app.browser, app.server.url, desktop);
      await signIn(page, 'demo', 'demo123');
      for (const c of cases) {
        await page.goto('/create');
        const types = page.getByRole('group', { name: 'QR code type' });
        if (c.more) {
          await types.getByRole('button', { name: /^More types/ }).click();
          await page.getByRole('menuitem', { name: c.tile, exact: true }).click();
        } else {
          await types.getByRole('button', { name: c.tile, exact: true }).click();
        }
        await page.getByLabel(/^Name/).fill(`E2E ${c.type}`);
        const dynamic = page.getByLabel('Dynamic QR code');
        if ((await dynamic.isChecked()) !== c.dynamic) await dynamic.click({ force: true });
        for (const [label, value] of c.fields) await page.getByLabel(label).first().fill(value);
        if (c.type === 'url') await screenshot(page, 'create-1280');
        await page.getByRole('button', { name: 'Create QR Code' }).click();
        await page.waitForURL((u) => u.pathname === '/my-qr-codes');
        await page.getByText('QR Code Created').waitFor();
      }
      const codes = await listCodes(page);
      for (const c of cases) {
        const code = codes.find((x) => x.name === `E2E ${c.type}`);
        expect(code, c.type).toBeDefined();
        expect(code!.type).toBe(c.type);
        expect(code!.isDynamic).toBe(c.dynamic);
        expect(code!.content.startsWith(c.expected), `${c.type}: ${code!.content}`).toBe(true);
        expect(code!.shortUrl === null).toBe(!c.dynamic);
      }
      await page.getByRole('article', { name: 'E2E url' }).waitFor();
      await screenshot(page, 'my-qr-codes-1280');
      await context.close();
    },
    15_000 * cases.length,
  );

  it('shows the designer and the list at 375 px without horizontal scrolling', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, phone);
    await signIn(page, 'demo', 'demo123');
    await page.goto('/create');
    await page.getByRole('button', { name: 'Create QR Code' }).waitFor();
    await page
      .getByRole('img', { name: /QR code/ })
      .first()
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'create-375');
    await page.goto('/my-qr-codes');
    await page.getByRole('article', { name: 'E2E url' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'my-qr-codes-375');
    await context.close();
  });

  it('edits a dynamic code, moves it to a folder, downloads PNG, SVG and PDF, and deletes it', async () => {
    const { context, page } = await newPage(app.browser, app.server.url, desktop);
    await signIn(page, 'demo', 'demo123');
    await page.goto('/my-qr-codes');
    const card = page.getByRole('article', { name: 'E2E url' });
    await card.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/edit-qr/'));
    await page.getByRole('heading', { name: 'Edit QR Code' }).first().waitFor();
    await page.getByLabel(/^URL/).fill('https://example.com/new-menu');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByText('QR Code Updated').waitFor();
    const edited = (await listCodes(page)).find((x) => x.name === 'E2E url')!;
    expect(edited.content).toBe('https://example.com/new-menu');

    // A static code cannot be edited: the card has no Edit, the edit page sends the user back.
    const staticCode = (await listCodes(page)).find((x) => x.name === 'E2E text')!;
    expect(
      await page.getByRole('article', { name: 'E2E text' }).getByRole('link', { name: 'Edit' }).count(),
    ).toBe(0);
    await page.goto(`/edit-qr/${staticCode.id}`);
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await page.getByText('Cannot Edit Static QR Code').waitFor();

    await page.getByRole('button', { name: 'New Folder' }).click();
    await page.getByLabel('Folder name').fill('Print');
    await page.getByRole('button', { name: 'Create Folder' }).click();
    await page.getByText('Folder Created').waitFor();
    await card.getByRole('button', { name: 'Move' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Print' }).click();
    await page.getByText('QR Code Moved').waitFor();
    await page.getByRole('group', { name: 'Folder filter' }).getByText('Print (1)').click();
    await card.waitFor();
    expect((await listCodes(page)).find((x) => x.id === edited.id)!.folderId).not.toBeNull();

    const pngDownload = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Download' }).click();
    const png = await pngDownload;
    expect(png.suggestedFilename()).toBe('e2e-url.png');
    const pngBytes = await downloadBytes(png);
    expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
    // The downloaded image scans to the code's short link.
    expect((await decodeQr(pngBytes))[0]).toBe(edited.shortUrl);

    const svgDownload = page.waitForEvent('download');
    await card.getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Download SVG' }).click();
    const svg = await svgDownload;
    expect(svg.suggestedFilename()).toBe('e2e-url.svg');
    expect(await downloadBytes(svg).then((bytes) => bytes.toString('utf8'))).toMatch(/<svg[\s>]/);

    const pdfDownload = page.waitForEvent('download');
    await card.getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Download PDF' }).click();
    const pdf = await pdfDownload;
    expect(pdf.suggestedFilename()).toBe('e2e-url.pdf');
    expect((await downloadBytes(pdf)).subarray(0, 5).toString()).toBe('%PDF-');

    // The server renders the same design for REST callers, and it scans too.
    const image = await page.request.get(`/api/qr-codes/${edited.id}/image?format=png&size=512`);
    expect(image.status()).toBe(200);
    expect((await decodeQr(Buffer.from(await image.body())))[0]).toBe(edited.shortUrl);

    await card.getByRole('button', { name: /More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('Its scan analytics will also be deleted').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('QR Code Deleted').waitFor();
    await card.waitFor({ state: 'detached' });
    expect((await listCodes(page)).some((x) => x.id === edited.id)).toBe(false);
    await context.close();
  });
});

describe('the free plan limit', () => {
  it('opens the limit dialog when a free user creates one code too many', async () => {
    const limited = await startServer({});
    const { context, page } = await newPage(app.browser, limited.url, desktop);
    allowConsoleErrors(page, /status of 403 \(Forbidden\).*qr\.create/); // the refusal this test provokes
    try {
      await signIn(page, 'demo', 'demo123');
      for (let i = 0; i < 2; i++) {
        await page.goto('/create');
        await page.getByLabel(/^Name/).fill(`Limit ${i}`);
        await page.getByLabel(/^URL/).fill(`https://example.com/${i}`);
        await page.getByRole('button', { name: 'Create QR Code' }).click();
        if (i === 0) await page.waitForURL((u) => u.pathname === '/my-qr-codes');
      }
      const dialog = page.getByRole('dialog', { name: 'QR Code Limit Reached' });
      await dialog.waitFor();
      await dialog
        .getByText(
          "You've created 3 of 3 QR codes on the free plan. Upgrade to Pro to create up to 100 QR codes with advanced features.",
        )
        .waitFor();
      await screenshot(page, 'limit-dialog-1280');
      await dialog.getByRole('button', { name: 'Upgrade to Pro' }).click();
      await page.waitForURL((u) => u.pathname === '/upgrade');
    } finally {
      await context.close();
      await limited.stop();
    }
  });
});
