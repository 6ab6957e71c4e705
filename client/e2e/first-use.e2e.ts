// What a new user does in the first ten minutes, on the production build with its production headers
// (the harness fails every test on a console error, a page error or a CSP violation): a logo in every
// place it travels, a dynamic code's download, bare domains, Wi-Fi's default, suggested names, the phone
// layout and dark mode.
import { Resvg } from '@resvg/resvg-js';
import type { Download, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfPageToPng } from '../../server/test/pdf-raster';
import { decodeQr } from '../../server/test/qr-decode';
import type { QrCode } from '../../src/qr/qr.schema';
import { downloadBytes, phone, screenshot, withAppServer } from './harness';

const app = withAppServer({ FREE_PLAN_LIMIT: '50' });

let users = 0;

/** A new account, signed in through the API in a fresh context (2× pixels so previews decode reliably). */
async function newUser(viewport = { width: 1280, height: 800 }, colorScheme: 'light' | 'dark' = 'light') {
  const context = await app.browser.newContext({
    baseURL: app.server.url,
    viewport,
    colorScheme,
    deviceScaleFactor: 2,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  users += 1;
  const username = `firstuse${users}${Date.now() % 100000}`;
  const res = await page.request.post('/api/register', {
    data: { username, password: 'secret123', name: 'First User', email: `${username}@example.com` },
  });
  expect(res.status()).toBe(201);
  return { context, page };
}

/** A 240 px PNG logo: an orange disc with a white Q. */
function logoPng(): Buffer {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240">' +
    '<circle cx="120" cy="120" r="110" fill="#e8590c"/>' +
    '<rect x="80" y="70" width="80" height="100" rx="30" fill="none" stroke="#fff" stroke-width="18"/></svg>';
  return Buffer.from(new Resvg(svg).render().asPng());
}

const logoSvg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">' +
    '<rect width="120" height="120" rx="24" fill="#1971c2"/><circle cx="60" cy="60" r="30" fill="#fff"/></svg>',
);

async function listCodes(page: Page): Promise<QrCode[]> {
  const res = await page.request.get('/api/qr-codes');
  expect(res.status()).toBe(200);
  return (await res.json()) as QrCode[];
}

/** What a rendered preview scans to: a screenshot of it, decoded. */
async function previewScansTo(preview: Locator): Promise<string | undefined> {
  // A logo is fetched, decoded and drawn at 1024 px first: on a machine running every lane at once that took
  // over 15 s (CI of 3482e9e).
  await expect.poll(() => preview.locator('svg').count(), { timeout: 40_000 }).toBeGreaterThan(0);
  await expect.poll(() => preview.getAttribute('aria-busy'), { timeout: 20_000 }).toBe('false');
  return (await decodeQr(await preview.screenshot()))[0];
}

async function downloaded(download: Download): Promise<Buffer> {
  return downloadBytes(download);
}

function svgToPng(svg: Buffer): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: 800 } }).render().asPng());
}

async function uploadLogo(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const section = page.getByRole('button', { name: /^Logo/ });
  const toggle = page.getByLabel('Add a logo');
  // The panel slides open (slowly on a loaded machine): open it if it is closed, and click the switch
  // once it is in view, until the switch is on.
  await expect
    .poll(
      async () => {
        if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
        if (!(await toggle.isVisible())) return false;
        if (!(await toggle.isChecked())) await toggle.click({ force: true });
        return toggle.isChecked();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload image' }).click();
  await (await chooser).setFiles(file);
  await page.getByText('Logo Uploaded').waitFor();
}

describe('a logo, everywhere it travels', () => {
  it(
    'PNG logo: the preview, the card, the details page, PNG/SVG/PDF downloads and the server image all scan',
    { timeout: 180_000 },
    async () => {
      const { context, page } = await newUser();
      await page.goto('/create');
      await page.getByLabel(/^Name/).fill('Cafe Menu');
      await page.getByLabel(/^URL/).fill('https://example.com/menu');
      await page.getByLabel('Dynamic QR code').uncheck({ force: true });
      await uploadLogo(page, { name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });

      const preview = page.getByRole('img', { name: 'QR code preview: Cafe Menu' });
      await expect.poll(() => preview.locator('svg image').count()).toBe(1);
      expect(await previewScansTo(preview)).toBe('https://example.com/menu');
      await page.getByText('Preview unavailable').waitFor({ state: 'detached' });
      await screenshot(page, 'first-use-logo-create-1280');

      // A template keeps the logo, and the code still renders and scans.
      await page
        .getByRole('group', { name: 'Templates' })
        .getByRole('button', { name: /Framed Business/ })
        .click();
      await expect.poll(() => preview.locator('svg image').count()).toBe(1);
      expect(await previewScansTo(preview)).toBe('https://example.com/menu');

      await page.getByRole('button', { name: 'Create QR Code' }).click();
      await page.waitForURL((u) => u.pathname === '/my-qr-codes');
      const code = (await listCodes(page)).find((c) => c.name === 'Cafe Menu')!;
      expect(code.customization.logo?.url).toMatch(/^\/api\/uploads\//);

      const card = page.getByRole('article', { name: 'Cafe Menu' });
      const thumbnail = card.getByRole('img', { name: 'QR code for Cafe Menu' });
      expect(await previewScansTo(thumbnail)).toBe('https://example.com/menu');
      await screenshot(page, 'first-use-logo-list-1280');

      // PNG, SVG and PDF are each one click from the card, named after the code, and each one scans.
      const png = page.waitForEvent('download');
      await card.getByRole('button', { name: 'Download' }).click();
      expect((await png).suggestedFilename()).toBe('cafe-menu.png');
      expect((await decodeQr(await downloaded(await png)))[0]).toBe('https://example.com/menu');

      const svg = page.waitForEvent('download');
      await card.getByRole('button', { name: 'SVG', exact: true }).click();
      expect((await svg).suggestedFilename()).toBe('cafe-menu.svg');
      const svgBytes = await downloaded(await svg);
      expect(svgBytes.toString()).toMatch(/<image[^>]+href="data:image\/png;base64,/);
      expect((await decodeQr(svgToPng(svgBytes)))[0]).toBe('https://example.com/menu');

      const pdf = page.waitForEvent('download');
      await card.getByRole('button', { name: 'PDF', exact: true }).click();
      expect((await pdf).suggestedFilename()).toBe('cafe-menu.pdf');
      const pdfBytes = await downloaded(await pdf);
      expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await decodeQr(await pdfPageToPng(pdfBytes)))[0]).toBe('https://example.com/menu');

      // The details page draws the saved design (logo included) and it scans.
      await page.goto(`/qr-details/${code.id}`);
      const details = page.getByRole('img', { name: /QR code/ }).first();
      await expect.poll(() => details.locator('svg image').count(), { timeout: 15_000 }).toBe(1);
      expect(await previewScansTo(details)).toBe('https://example.com/menu');

      // The server's image endpoint draws the uploaded logo too, named after the code.
      for (const format of ['png', 'svg'] as const) {
        const image = await page.request.get(`/api/qr-codes/${code.id}/image?format=${format}&size=600`);
        expect(image.status()).toBe(200);
        expect(image.headers()['content-disposition']).toContain(`filename*=UTF-8''cafe-menu.${format}`);
        const bytes = Buffer.from(await image.body());
        if (format === 'svg') expect(bytes.toString()).toMatch(/<image[^>]+href="data:image\/png/);
        expect((await decodeQr(format === 'png' ? bytes : svgToPng(bytes)))[0]).toBe(
          'https://example.com/menu',
        );
      }
      await context.close();
    },
  );

  it('SVG logo: the preview renders and the PNG download scans', { timeout: 120_000 }, async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    await page.getByLabel(/^Name/).fill('Vector logo');
    await page.getByLabel(/^URL/).fill('https://example.com/svg-logo');
    await page.getByLabel('Dynamic QR code').uncheck({ force: true });
    await uploadLogo(page, { name: 'logo.svg', mimeType: 'image/svg+xml', buffer: logoSvg });
    const preview = page.getByRole('img', { name: 'QR code preview: Vector logo' });
    expect(await previewScansTo(preview)).toBe('https://example.com/svg-logo');
    expect(await preview.locator('svg image').getAttribute('href')).toMatch(/^data:image\/svg\+xml/);

    const png = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    await page.getByRole('menuitem', { name: 'PNG image' }).click();
    expect((await png).suggestedFilename()).toBe('vector-logo.png');
    expect((await decodeQr(await downloaded(await png)))[0]).toBe('https://example.com/svg-logo');
    await context.close();
  });
});

describe('a dynamic code before it exists', () => {
  it('offers Create and download: the file holds the short link, never the destination', async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    await page.getByLabel(/^Name/).fill('Spring Flyer');
    await page.getByLabel(/^URL/).fill('https://example.com/spring');
    expect(await page.getByLabel('Dynamic QR code').isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Share' }).isDisabled()).toBe(true);

    const file = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Create and download' }).click();
    await page.getByRole('menuitem', { name: 'PNG image' }).click();
    const download = await file;
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    const code = (await listCodes(page)).find((c) => c.name === 'Spring Flyer')!;
    expect(code.shortUrl).toMatch(/\/r\//);
    expect(download.suggestedFilename()).toBe('spring-flyer.png');
    expect((await decodeQr(await downloaded(download)))[0]).toBe(code.shortUrl);
    await context.close();
  });
});

describe('the designer helps with what people type', () => {
  it('accepts a bare domain, says what is wrong while typing, and suggests a name from the content', async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    const name = page.getByLabel(/^Name/);
    expect(await name.inputValue()).toBe('URL QR Code');
    const url = page.getByLabel(/^URL/);

    await url.pressSequentially('exa');
    await page.getByText('Must be a valid URL').first().waitFor();
    await page.getByText('Check the URL: Must be a valid URL.').waitFor();

    await url.fill('www.cafe-luna.com/menu');
    expect(await name.inputValue()).toBe('cafe-luna.com');
    await url.blur();
    expect(await url.inputValue()).toBe('https://www.cafe-luna.com/menu');
    const preview = page.getByRole('img', { name: /^QR code preview/ });
    expect(await previewScansTo(preview)).toBe('https://www.cafe-luna.com/menu');

    // A name the user types is kept whatever the content does next.
    await name.fill('Table tents');
    await url.fill('https://example.org');
    expect(await name.inputValue()).toBe('Table tents');

    await page
      .getByRole('group', { name: 'QR code type' })
      .getByRole('button', { name: 'Wi-Fi', exact: true })
      .click();
    expect(await page.getByLabel('Dynamic QR code').isChecked()).toBe(false);
    await page.getByText(/Static is best for Wi-Fi: phones join the network in one tap/).waitFor();
    await page.getByLabel('Dynamic QR code').check({ force: true });
    await page.getByText(/guests who scan get a web page showing the network name and password/).waitFor();
    await context.close();
  });

  it('suggests the SSID for Wi-Fi and the person for a vCard until a name is typed', async () => {
    const { context, page } = await newUser();
    await page.goto('/create');
    const types = page.getByRole('group', { name: 'QR code type' });
    await types.getByRole('button', { name: 'Wi-Fi', exact: true }).click();
    await page.getByLabel(/^Network name/).fill('Cafe Guest');
    expect(await page.getByLabel(/^Name/).inputValue()).toContain('Cafe Guest');
    await types.getByRole('button', { name: 'vCard', exact: true }).click();
    await page.getByLabel(/^First name/).fill('Ada');
    await page.getByLabel(/^Last name/).fill('Lovelace');
    expect(await page.getByLabel(/^Name/).inputValue()).toBe('Ada Lovelace');
    await context.close();
  });
});

describe('an empty account and a growing list', () => {
  it('has one Create New QR Code button on an empty dashboard', async () => {
    const { context, page } = await newUser();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    await page.getByText('No QR codes yet').first().waitFor();
    expect(await page.getByRole('link', { name: 'Create New QR Code' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Create New QR Code' }).count()).toBe(0);
    await screenshot(page, 'first-use-dashboard-empty-1280');
    await context.close();
  });

  it('finds codes by content and by short link, and Clear filters brings every code back', async () => {
    const { context, page } = await newUser();
    const make = async (name: string, content: string, isDynamic: boolean) => {
      const res = await page.request.post('/api/qr-codes', {
        data: { name, type: 'url', content, isDynamic, customization: {}, folderId: null },
      });
      expect(res.status()).toBe(201);
      return (await res.json()) as QrCode;
    };
    await make('Menu', 'https://cafe-luna.example/menu', false);
    const flyer = await make('Spring flyer', 'https://shop.example/spring', true);
    await make('Poster', 'https://museum.example/expo', true);
    // The list waits for its data with card-shaped skeletons, not a spinner.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // tRPC batches the queries of one render into one request (`/trpc/a,qr.list?batch=1`), in any order.
    await page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.slice(6).split(',').includes('qr.list'),
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.goto('/my-qr-codes');
    await page.getByLabel('Loading QR codes').waitFor();
    release();
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count()).toBe(3);

    const search = page.getByLabel('Search QR codes');
    await search.fill('cafe-luna');
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().getAttribute('aria-label')).toBe('Menu');

    const slug = flyer.shortUrl!.split('/r/')[1]!;
    await search.fill(slug);
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().getAttribute('aria-label')).toBe('Spring flyer');

    await page.getByRole('button', { name: 'Clear search' }).click();
    expect(await search.inputValue()).toBe('');
    await expect.poll(() => cards.count()).toBe(3);

    await page.getByRole('tab', { name: 'Static' }).click();
    await search.fill('nothing like this');
    await page.getByText('No QR codes match “nothing like this”').waitFor();
    await screenshot(page, 'first-use-my-qr-codes-no-match-1280');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => cards.count()).toBe(3);
    expect(await page.getByRole('tab', { name: 'All QR Codes' }).getAttribute('aria-selected')).toBe('true');
    await context.close();
  });
});

describe('on a phone and in the dark', () => {
  it('keeps a small preview and the Create button in view while scrolling the design options', async () => {
    const { context, page } = await newUser(phone);
    await page.goto('/create');
    await page.getByLabel(/^URL/).fill('https://example.com/phone');
    const bar = page.getByRole('region', { name: 'Preview and actions' });
    // At the top of the page the form's own preview is in view, so no bar (filling the URL may have
    // scrolled the page past it, now that the Short link field sits above the URL).
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => bar.count()).toBe(0);
    await page.getByRole('group', { name: 'Templates' }).scrollIntoViewIfNeeded();
    await bar.waitFor();
    // The bar slides in: on a loaded machine a screenshot can catch it moving, so read it until it holds.
    await expect
      .poll(() => previewScansTo(bar.getByRole('img')), { timeout: 20_000 })
      .toBe('https://example.com/phone');
    await page.screenshot({ path: 'test-results/screenshots/first-use-create-scrolled-375.png' });
    await bar.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.pathname === '/my-qr-codes');
    await context.close();
  });

  it('sets every code on its own light tile in dark mode', async () => {
    const { context, page } = await newUser({ width: 1280, height: 800 }, 'dark');
    const res = await page.request.post('/api/qr-codes', {
      data: {
        name: 'Dark frame',
        type: 'url',
        content: 'https://example.com/dark',
        isDynamic: false,
        customization: {
          foregroundColor: '#000000',
          backgroundColor: 'transparent',
          errorCorrectionLevel: 'M',
          style: 'square',
          frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#000000' },
        },
        folderId: null,
      },
    });
    expect(res.status()).toBe(201);
    await page.goto('/my-qr-codes');
    const thumbnail = page.getByRole('article', { name: 'Dark frame' }).getByRole('img', { name: /QR code/ });
    expect(await previewScansTo(thumbnail)).toBe('https://example.com/dark');
    expect(await thumbnail.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
    await screenshot(page, 'first-use-my-qr-codes-dark-1280');
    await context.close();
  });
});
