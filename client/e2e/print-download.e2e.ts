// Print-ready downloads on the production build: from a code's details page, a PNG at a print width and
// DPI (its pixel size and the DPI recorded in the file), an SVG sized in centimetres and a vector PDF of
// that width, each with the short URL printed under the code, and each decoding to the code; the
// minimum print size for a scanning distance, with a warning when the chosen width is below it, and a
// warning below the smallest width the design's own scan check could read.
import { Resvg } from '@resvg/resvg-js';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfPageToPng } from '../../server/test/pdf-raster';
import { decodeQr } from '../../server/test/qr-decode';
import type { QrCode } from '../../src/qr/qr.schema';
import { desktop, downloadBytes, phone, screenshot, signUpNewUser, withAppServer } from './harness';

const app = withAppServer({ FREE_PLAN_LIMIT: '50' });

async function newUser(viewport = desktop) {
  const { context, page } = await signUpNewUser(app, 'print', viewport);
  const created = await page.request.post('/api/qr-codes', {
    data: { name: 'Shop door', type: 'url', content: 'https://example.com/door', isDynamic: true },
  });
  expect(created.status()).toBe(201);
  return { context, page, code: (await created.json()) as QrCode };
}

/** Width and height from a PNG's IHDR, and its pHYs pixels per metre (null without one). */
function pngInfo(png: Buffer) {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const at = png.indexOf('pHYs');
  return { width, height, ppm: at < 0 ? null : png.readUInt32BE(at + 4), unit: at < 0 ? null : png[at + 12] };
}

async function bytes(download: Download): Promise<Buffer> {
  return downloadBytes(download);
}

async function openDialog(page: Page, code: QrCode) {
  await page.goto(`/qr-details/${code.id}`);
  await page.getByRole('button', { name: 'Print-ready download' }).click();
  const dialog = page.getByRole('dialog', { name: 'Print-ready download' });
  await dialog.waitFor();
  return dialog;
}

async function downloadFrom(page: Page, dialog: ReturnType<Page['getByRole']>): Promise<Download> {
  const event = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  return event;
}

describe('print-ready download', () => {
  it('PNG at 2 cm and 300 dpi, SVG in cm and a vector PDF, each with the short URL under the code', async () => {
    const { context, page, code } = await newUser();
    const dialog = await openDialog(page, code);

    await dialog.getByLabel('Print width (cm)').fill('2');
    await dialog.getByRole('radio', { name: 'Short URL' }).check();
    await screenshot(page, 'print-dialog-1280', { fullPage: false });

    // PNG: 2 cm at 300 dpi is 236 px across, the DPI written into the file.
    const png = await bytes(await downloadFrom(page, dialog));
    const info = pngInfo(png);
    expect(info.width).toBe(236);
    expect(info.height).toBeGreaterThan(236); // the caption band under the code
    expect(info.ppm).toBe(Math.round(300 / 0.0254));
    expect(info.unit).toBe(1);
    expect(await decodeQr(png)).toContain(code.shortUrl);

    // SVG: sized in centimetres, the caption as text.
    await dialog.getByText('SVG', { exact: true }).click();
    const svg = (await bytes(await downloadFrom(page, dialog))).toString('utf8');
    expect(svg).toMatch(/width="2cm"/);
    expect(svg).toContain(new URL(code.shortUrl!).pathname);
    const svgPng = Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: 800 } }).render().asPng());
    expect(await decodeQr(svgPng)).toContain(code.shortUrl);

    // PDF: vectors; scanned from a 200 dpi raster of the page.
    await dialog.getByText('PDF', { exact: true }).click();
    const pdf = await bytes(await downloadFrom(page, dialog));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await decodeQr(await pdfPageToPng(new Uint8Array(pdf), 300))).toContain(code.shortUrl);
    await context.close();
  });

  it('says how large to print for a scanning distance, and warns below it (375 px)', async () => {
    const { context, page, code } = await newUser(phone);
    const dialog = await openDialog(page, code);
    await dialog.getByLabel('Scanning distance (m)').fill('3');
    await expect
      .poll(() => dialog.textContent())
      .toContain('Scanned from 3 m away, print it at least 30 cm wide.');
    await expect.poll(() => dialog.textContent()).toContain('Smaller than recommended');
    await screenshot(page, 'print-dialog-warning-375', { fullPage: false });
    await dialog.getByLabel('Print width (cm)').fill('30');
    await expect.poll(() => dialog.textContent()).not.toContain('Smaller than recommended');
    await context.close();
  });

  it("warns when the width is below the smallest print the design's own scan check read", async () => {
    const { context, page } = await signUpNewUser(app, 'print-dense', desktop);
    // A long static link is a dense symbol: the check cannot read it at 1 cm wide (300 dpi).
    const created = await page.request.post('/api/qr-codes', {
      data: {
        name: 'Dense poster',
        type: 'url',
        content: `https://example.com/${'long-path-segment/'.repeat(40)}end`,
        isDynamic: false,
      },
    });
    expect(created.status()).toBe(201);
    const dialog = await openDialog(page, (await created.json()) as QrCode);
    await dialog.getByLabel('Scanning distance (m)').fill('0.1');
    await dialog.getByLabel('Print width (cm)').fill('1');
    await expect.poll(() => dialog.textContent(), { timeout: 15_000 }).toContain('Too small for this design');
    expect(await dialog.textContent()).toMatch(
      /At 1 cm this design may not scan: the check could not read it/,
    );
    expect(await dialog.textContent()).not.toContain('Smaller than recommended');
    await screenshot(page, 'print-dialog-design-1280', { fullPage: false });
    await dialog.getByLabel('Print width (cm)').fill('8');
    await expect.poll(() => dialog.textContent()).not.toContain('Too small for this design');
    await context.close();
  });
});
