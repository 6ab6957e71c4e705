import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type {
  DailyCount,
  DeviceCount,
  HourlyCount,
  LocationCount,
  PerformanceRow,
  UserSummary,
} from '../../src/analytics/analytics.schema';
import { countScansByCountry } from '../../src/analytics/location-country';
import type { QrCode } from '../../src/qr/qr.schema';
import { groupLocations } from '../features/analytics/analytics-format';
import { qrImageLabel } from '../features/qr/qr-image-label';
import { formatCount, formatPercent, hourLabel, longDateLabel } from '../lib/format';
import { desktop, phone, screenshot as harnessScreenshot, signIn, withAppServer } from './harness';

/**
 * Every chart of the dashboard, /analytics and /qr-details is a named image with its numbers one
 * "Show as table" away, and those numbers are the server's; the location map shades the countries
 * scanned from. The demo account's seeded scans come from seven cities in seven countries.
 */
const app = withAppServer({});

const ZONE = 'Europe/Berlin';
const tz = `tz=${encodeURIComponent(ZONE)}`;

type Scheme = 'light' | 'dark';

async function open(
  viewport = desktop,
  colorScheme: Scheme = 'light',
  reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await app.browser.newContext({
    baseURL: app.server.url,
    viewport,
    colorScheme,
    reducedMotion,
    timezoneId: ZONE,
    locale: 'en-US',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, 'demo', 'demo123');
  return { context, page };
}

async function api<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** A tRPC query without a REST twin (GET, no transformer). */
async function trpcQuery<T>(page: Page, name: string, input: unknown): Promise<T> {
  const res = await page.request.get(`/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(res.status(), name).toBe(200);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** Opens the section's table with its toggle (checking the disclosure's ARIA) and answers its rows. */
async function openTable(region: Locator): Promise<string[][]> {
  const toggle = region.getByRole('button', { name: 'Show as table' });
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  const controlled = await toggle.getAttribute('aria-controls');
  expect(controlled).toBeTruthy();
  const box = region.locator(`[id="${controlled}"]`);
  expect(await box.isVisible()).toBe(false);
  await toggle.click();
  const hide = region.getByRole('button', { name: 'Hide table' });
  expect(await hide.getAttribute('aria-expanded')).toBe('true');
  await box.getByRole('table').waitFor();
  return box
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
    );
}

/** Today in ZONE, the browser's zone, whatever the zone of this process. */
const zoneToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const dayName = (date: string) =>
  date === zoneToday() ? `${longDateLabel(date)} (today, so far)` : longDateLabel(date);

// ---- axe: the rules of this issue (the whole WCAG audit is a-11y-audit.e2e.ts's) ----------------

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const RULES = [
  'aria-hidden-focus',
  'nested-interactive',
  'role-img-alt',
  'svg-img-alt',
  'scrollable-region-focusable',
  'aria-valid-attr-value',
  'aria-allowed-attr',
  'aria-prohibited-attr',
  'button-name',
  'th-has-data-cells',
  'td-headers-attr',
];

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugger protocol, so the page's script-src 'self' does not refuse it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (rules) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            c: unknown,
            o: unknown,
          ): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: rules } });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }, RULES);
}

async function screenshot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await harnessScreenshot(page, name);
}

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** The map's shaded countries: alpha-2 → the scans it shows. */
async function shadedCountries(region: Locator): Promise<Record<string, number>> {
  await region.locator('[data-location-map] svg path').first().waitFor();
  return Object.fromEntries(
    await region
      .locator('[data-location-map] path[data-scans]')
      .evaluateAll((paths) =>
        paths.map((p) => [p.getAttribute('data-country')!, Number(p.getAttribute('data-scans'))] as const),
      ),
  );
}

/** The map table and shading against the server's location counts. */
async function checkMap(region: Locator, locations: LocationCount[], caption: string) {
  const { countries, unknown } = countScansByCountry(locations);
  expect(countries.length).toBeGreaterThan(0);
  await region
    .getByRole('img', { name: new RegExp(`^World map: ${caption}, ${countries.length} countr`) })
    .waitFor();

  const shaded = await shadedCountries(region);
  expect(shaded).toEqual(Object.fromEntries(countries.map((c) => [c.code, c.count])));
  // Shaded is a different colour from unscanned land.
  const fills = await region.locator('[data-location-map] path').evaluateAll((paths) => ({
    shaded: paths.filter((p) => p.hasAttribute('data-scans')).map((p) => p.getAttribute('fill')),
    plain: paths.filter((p) => !p.hasAttribute('data-scans')).map((p) => p.getAttribute('fill')),
  }));
  expect(fills.plain.length).toBeGreaterThan(100);
  expect(new Set(fills.plain).size).toBe(1);
  for (const fill of fills.shaded) expect(fill).not.toBe(fills.plain[0]);

  const rows = await openTable(region);
  expect(rows).toEqual([
    ...countries.map((c) => [c.name, formatCount(c.count)]),
    ...(unknown > 0 ? [['Unknown', formatCount(unknown)]] : []),
  ]);
}

/** A row of a daily chart's table with its unique scanners ('—' where they were not counted). */
const dayWithUniques = (d: DailyCount) => [
  dayName(d.date),
  formatCount(d.count),
  d.uniqueScanners === null ? '—' : formatCount(d.uniqueScanners),
];

describe('charts: a named image and the same numbers as a table', () => {
  it('dashboard: the daily line chart', async () => {
    const { context, page } = await open();
    const daily = await api<DailyCount[]>(page, `/api/analytics/daily?days=7&${tz}`);
    const chart = section(page, 'Scans (Last 7 Days)');
    await chart.locator('[data-chart-dot]').nth(6).waitFor();
    const image = chart.getByRole('img', { name: 'Line chart: Scans per day, last 7 days' });
    await image.waitFor();
    // Nothing inside the image takes focus (recharts' own focusable surface is off).
    // (recharts marks some layers tabindex="-1": focusable from script only, never a tab stop.)
    const tabStops = await image
      .locator('[tabindex], a[href], button, input')
      .evaluateAll((els) => els.filter((e) => e.getAttribute('tabindex') !== '-1').length);
    expect(tabStops).toBe(0);
    expect(await openTable(chart)).toEqual(daily.map((d) => [dayName(d.date), formatCount(d.count)]));
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('/analytics Overview: line, device pie, location pie, country map and hourly bars', async () => {
    const { context, page } = await open();
    await page.goto('/analytics');
    const q = `days=7&${tz}`;
    const daily = await api<DailyCount[]>(page, `/api/analytics/daily?${q}`);
    const devices = await api<DeviceCount[]>(page, `/api/analytics/devices?${q}`);
    const locations = await api<LocationCount[]>(page, `/api/analytics/locations?${q}`);
    const hourly = await api<HourlyCount[]>(page, `/api/analytics/hourly?${q}`);

    const line = section(page, 'Scans (Last 7 Days)');
    await line
      .getByRole('img', { name: 'Line chart: Scans and unique scanners per day, last 7 days' })
      .waitFor();
    expect(await openTable(line)).toEqual(daily.map(dayWithUniques));

    const deviceTotal = devices.reduce((s, d) => s + d.count, 0);
    const deviceCard = section(page, 'Scans by Device');
    await deviceCard.getByRole('img', { name: 'Pie chart: Scans by device, last 7 days' }).waitFor();
    expect(await openTable(deviceCard)).toEqual(
      devices.map((d) => [d.device, formatCount(d.count), formatPercent(d.count, deviceTotal)]),
    );

    const slices = groupLocations(locations, 10);
    const locationTotal = slices.reduce((s, l) => s + l.count, 0);
    const top = section(page, 'Top Locations');
    await top.getByRole('img', { name: 'Pie chart: Scans by location, last 7 days' }).waitFor();
    expect(await openTable(top)).toEqual(
      slices.map((l) => [l.location, formatCount(l.count), formatPercent(l.count, locationTotal)]),
    );

    await checkMap(section(page, 'Scans by Country'), locations, 'Scans by country, last 7 days');

    const hours = section(page, 'Scans by Time of Day');
    await hours.getByRole('img', { name: 'Bar chart: Scans by hour of the day' }).waitFor();
    expect(await openTable(hours)).toEqual(hourly.map((h) => [hourLabel(h.hour), formatCount(h.count)]));

    // The toggle works from the keyboard too: Space closes the table it opened.
    const toggle = hours.getByRole('button', { name: 'Hide table' });
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await hours.getByRole('button', { name: 'Show as table' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
    expect(await axeViolations(page)).toEqual([]);

    // By QR Code: the bars are the tracked codes.
    await page.getByRole('tab', { name: 'By QR Code' }).click();
    const rows = await api<PerformanceRow[]>(page, `/api/analytics/performance?${q}`);
    const codes = await api<QrCode[]>(page, '/api/qr-codes');
    const tracked = rows.filter((r) => codes.find((c) => c.id === r.qrCodeId)!.isDynamic);
    const perCode = section(page, 'Scans per QR Code (Last 7 Days)');
    await perCode.getByRole('img', { name: 'Bar chart: Scans per QR code, last 7 days' }).waitFor();
    expect(await openTable(perCode)).toEqual(tracked.map((r) => [r.name, formatCount(r.count)]));
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('/qr-details: the QR image names its type and short link; line chart and map match the server', async () => {
    const { context, page } = await open();
    const codes = await api<QrCode[]>(page, '/api/qr-codes');
    const cafe = codes.find((c) => c.isDynamic)!;
    const wifi = codes.find((c) => !c.isDynamic)!;
    await page.goto(`/qr-details/${cafe.id}`);
    const preview = page.getByRole('img', { name: qrImageLabel(cafe), exact: true });
    await preview.locator('svg').first().waitFor();
    expect(qrImageLabel(cafe)).toContain(cafe.shortUrl!);
    expect(qrImageLabel(cafe)).toContain('URL');

    const daily = await api<DailyCount[]>(page, `/api/analytics/qr-codes/${cafe.id}/daily?days=7&${tz}`);
    const line = section(page, 'Scans Over Time');
    await line
      .getByRole('img', { name: 'Line chart: Scans and unique scanners per day, last 7 days' })
      .waitFor();
    expect(await openTable(line)).toEqual(daily.map(dayWithUniques));

    const locations = await trpcQuery<LocationCount[]>(page, 'analytics.qrCodeLocations', {
      id: cafe.id,
      tz: ZONE,
    });
    // The only tracked code has all the account's scans.
    expect(locations).toEqual(await api<LocationCount[]>(page, `/api/analytics/locations?${tz}`));
    await checkMap(section(page, 'Scans by Country'), locations, 'Scans by country, all time');
    expect(await axeViolations(page)).toEqual([]);

    // A static code: its picture names its content; no charts, no map.
    await page.goto(`/qr-details/${wifi.id}`);
    await page.getByRole('img', { name: qrImageLabel(wifi), exact: true }).waitFor();
    expect(qrImageLabel(wifi)).toContain('Wi-Fi');
    expect(await section(page, 'Scans by Country').count()).toBe(0);
    await context.close();
  });

  it('dashboard: with two scanned codes the Top QR Codes pie is a named image with a table', async () => {
    const { context, page } = await open();
    const created = await page.request.post('/api/qr-codes', {
      data: { name: 'Flyer', type: 'url', content: 'https://example.com/flyer', isDynamic: true },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const flyer = (await created.json()) as QrCode;
    try {
      // One scan of the new code, through its short link, so two codes share the pie.
      await page.request.get(flyer.shortUrl!, { maxRedirects: 0 });
      await expect
        .poll(async () => {
          const summary = await api<UserSummary>(page, `/api/analytics/user?${tz}`);
          return summary.qrCodeScans.find((c) => c.id === flyer.id)?.scans ?? 0;
        })
        .toBeGreaterThan(0);
      const summary = await api<UserSummary>(page, `/api/analytics/user?${tz}`);
      const codes = await api<QrCode[]>(page, '/api/qr-codes');
      const tracked = summary.qrCodeScans
        .filter((c) => codes.find((q) => q.id === c.id)!.isDynamic)
        .slice(0, 5);
      const total = tracked.reduce((s, c) => s + c.scans, 0);

      await page.goto('/');
      const top = section(page, 'Top QR Codes');
      const image = top.getByRole('img', { name: 'Pie chart: Scans of the most scanned QR codes, all time' });
      await image.locator('[data-chart-sector]').nth(1).waitFor();
      expect(await openTable(top)).toEqual(
        tracked.map((c) => [c.name, formatCount(c.scans), formatPercent(c.scans, total)]),
      );
      // The pie used to sit in an aria-hidden box while recharts made its surface a tab stop.
      expect(await page.locator('[aria-hidden="true"] [tabindex="0"]').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      expect((await page.request.delete(`/api/qr-codes/${flyer.id}`)).ok()).toBe(true);
      await context.close();
    }
  });

  it('with prefers-reduced-motion the bars are drawn at their height at once', async () => {
    const { context, page } = await open(desktop, 'light', 'reduce');
    await page.goto('/analytics');
    const bars = section(page, 'Scans by Time of Day').locator('.recharts-bar-rectangle path');
    await bars.first().waitFor();
    const heights = () =>
      bars.evaluateAll((paths) => paths.map((p) => Math.round(p.getBoundingClientRect().height)));
    const first = await heights();
    await page.waitForTimeout(800);
    expect(first).toEqual(await heights());
    expect(Math.max(...first)).toBeGreaterThan(0);
    await context.close();
  });
});

// Two of the four combinations: the widths and schemes themselves are audited in a11y-audit.e2e.ts.
describe('screenshots at 1280 and 375 px, light and dark', () => {
  for (const [scheme, viewport] of [
    ['light', desktop],
    ['dark', phone],
  ] as const) {
    it(`${scheme} ${viewport.width}`, async () => {
      // Still pictures: no frame of an animation.
      const { context, page } = await open(viewport, scheme, 'reduce');
      const name = (p: string) => `charts-${p}-${viewport.width}-${scheme}`;

      await section(page, 'Scans (Last 7 Days)').locator('[data-chart-dot]').nth(6).waitFor();
      await section(page, 'Scans (Last 7 Days)').getByRole('button', { name: 'Show as table' }).click();
      await noHorizontalScroll(page);
      await screenshot(page, name('dashboard'));

      await page.goto('/analytics');
      const map = section(page, 'Scans by Country');
      await shadedCountries(map);
      await map.getByRole('button', { name: 'Show as table' }).click();
      await section(page, 'Scans by Time of Day').getByRole('button', { name: 'Show as table' }).click();
      await noHorizontalScroll(page);
      await screenshot(page, name('analytics'));

      const codes = await api<QrCode[]>(page, '/api/qr-codes');
      await page.goto(`/qr-details/${codes.find((c) => c.isDynamic)!.id}`);
      await shadedCountries(section(page, 'Scans by Country'));
      await section(page, 'Scans Over Time').getByRole('button', { name: 'Show as table' }).click();
      await noHorizontalScroll(page);
      await screenshot(page, name('qr-details'));
      await context.close();
    });
  }
});
