import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type {
  DailyCount,
  DeviceCount,
  HourlyCount,
  PerformanceRow,
  UserSummary,
} from '../../src/analytics/analytics.schema';
import type { QrCode } from '../../src/qr/qr.schema';
import type { QrCodeAnalytics } from '../../src/analytics/analytics.schema';
import { maskIp } from '../../src/analytics/mask-ip';
import { formatPercent } from '../lib/format';
import {
  allowConsoleErrors,
  desktop,
  downloadBytes,
  phone,
  screenshot as harnessScreenshot,
  signIn,
  withAppServer,
} from './harness';

const app = withAppServer({});

/** The path of an app link: app links also carry `?workspace=<id>`, which these checks do not mean. */
const pathOf = (href: string | null) => (href === null ? null : new URL(href, 'http://app.test').pathname);

/**
 * The browser runs far from UTC (UTC+14), so a client that forgot to send its zone, or labelled days
 * by the UTC date, shows other days than the server counted for most of the day.
 */
const ZONE = 'Pacific/Kiritimati';

interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and warnings and uncaught exceptions seen so far. */
  errors: string[];
  /** Every tRPC request URL, to check the zone the client sends. */
  trpcUrls: string[];
}

async function open(viewport = desktop, signInAs: 'demo' | null = 'demo'): Promise<Session> {
  const context = await app.browser.newContext({
    baseURL: app.server.url,
    viewport,
    colorScheme: 'light',
    timezoneId: ZONE,
    locale: 'en-US',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const trpcUrls: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/trpc/')) trpcUrls.push(r.url());
  });
  if (signInAs) await signIn(page, 'demo', 'demo123');
  return { context, page, errors, trpcUrls };
}

async function api<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** The x-axis labels (recharts draws them in a layer of their own). */
const X_TICKS = 'text.recharts-cartesian-axis-tick-value[orientation="bottom"]';
/** The dashboard's line chart is its own SVG (features/dashboard/WeekScansChart.tsx): its dots. */
const DASHBOARD_DOTS = '[data-chart="daily-scans"] [data-chart-dot]';
const tz = `tz=${encodeURIComponent(ZONE)}`;
const count = (n: number) => n.toLocaleString('en-US');
const scans = (n: number) => `${count(n)} ${n === 1 ? 'scan' : 'scans'}`;
const weekday = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });
/** YYYY-MM-DD of now, `daysAgo` days back, in ZONE. */
function zoneDate(daysAgo = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - daysAgo);
  return d.toISOString().slice(0, 10);
}

/**
 * Opens the analytics tab `name`, clicking again while it is not selected: on a loaded machine a click
 * while the page still renders was lost (CI run of 0bb730d, the By QR Code tab).
 */
async function openTab(page: Page, name: string) {
  const tab = page.getByRole('tab', { name });
  await expect
    .poll(
      async () => {
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        return tab.getAttribute('aria-selected');
      },
      { timeout: 20_000 },
    )
    .toBe('true');
}

function statValue(page: Page, label: string) {
  return page.getByRole('group', { name: label, exact: true }).locator('[data-stat-value]');
}
function section(page: Page, title: string) {
  return page.getByRole('region', { name: title, exact: true });
}
/** The harness's full-page picture, taken from the top so the fixed header sits at the top. */
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
async function demoCodes(page: Page) {
  const codes = await api<QrCode[]>(page, '/api/qr-codes');
  return { cafe: codes.find((c) => c.type === 'url')!, wifi: codes.find((c) => c.type === 'wifi')! };
}

describe('Dashboard', () => {
  it('shows the real totals, the last scan, seven real weekdays and the top codes', async () => {
    const { context, page, errors, trpcUrls } = await open(desktop);
    const summary = await api<UserSummary>(page, `/api/analytics/user?${tz}`);
    const daily = await api<DailyCount[]>(page, `/api/analytics/daily?days=7&${tz}`);
    expect(summary.totalQRCodes).toBe(2);
    expect(summary.totalScans).toBeGreaterThan(100);
    expect(daily).toHaveLength(7);
    expect(daily.at(-1)!.date).toBe(zoneDate(0));

    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    expect(await statValue(page, 'Total QR Codes').textContent()).toBe(count(summary.totalQRCodes));
    expect(await statValue(page, 'Total Scans').textContent()).toBe(count(summary.totalScans));
    const recent = page.getByRole('group', { name: 'Recent Activity' });
    await recent.getByText('Last scan:').waitFor();
    expect(await recent.locator('time').getAttribute('datetime')).toBe(summary.lastScanAt);
    expect(await recent.locator('time').textContent()).toMatch(/ago$|^just now$/);
    await recent.getByText(`${scans(daily.at(-1)!.count)} today`).waitFor();

    // The line chart: one dot per day, labelled with the weekday of each real date.
    const chart = section(page, 'Scans (Last 7 Days)');
    await chart.locator(DASHBOARD_DOTS).nth(6).waitFor();
    expect(await chart.locator(DASHBOARD_DOTS).count()).toBe(7);
    const ticks = await chart.locator('[data-x-tick]').allTextContents();
    expect(ticks).toEqual(daily.map((d) => weekday(d.date)));
    expect(new Set(ticks).size).toBe(7);

    // Today's point is marked as the day in progress, not a fall to zero.
    await chart.getByText('Today (so far)').waitFor();

    // Top QR Codes lists the tracked (dynamic) codes by name with their scans; the static code takes no
    // share. With one tracked code the share is a plain figure, not a solid disc.
    const codes = await api<QrCode[]>(page, '/api/qr-codes');
    const dynamicIds = new Set(codes.filter((c) => c.isDynamic).map((c) => c.id));
    const tracked = summary.qrCodeScans.filter((c) => dynamicIds.has(c.id));
    expect(tracked).toHaveLength(1);
    const top = section(page, 'Top QR Codes').getByRole('list', { name: 'Most scanned QR codes' });
    const items = await top.getByRole('listitem').allTextContents();
    expect(items).toHaveLength(tracked.length);
    expect(items[0]).toContain(tracked[0]!.name);
    expect(items[0]).toContain(scans(tracked[0]!.scans));
    const figure = section(page, 'Top QR Codes').locator('[data-single-share]');
    expect(await figure.textContent()).toContain(count(tracked[0]!.scans));
    expect(await section(page, 'Top QR Codes').locator('[data-chart-sector]').count()).toBe(0);

    for (const [name, href] of [
      ['Create QR', '/create'],
      ['My QR Codes', '/my-qr-codes'],
      ['Analytics', '/analytics'],
    ] as const) {
      const tile = page
        .getByRole('region', { name: 'Quick Actions' })
        .getByRole('link', { name: new RegExp(`^${name}`) });
      expect(pathOf(await tile.getAttribute('href'))).toBe(href);
    }
    expect(pathOf(await page.getByRole('link', { name: 'Create New QR Code' }).getAttribute('href'))).toBe(
      '/create',
    );

    expect(trpcUrls.some((u) => u.includes(encodeURIComponent(ZONE)))).toBe(true);
    await screenshot(page, 'dashboard-1280');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits 375 px', async () => {
    const { context, page, errors } = await open(phone);
    await section(page, 'Scans (Last 7 Days)').locator(DASHBOARD_DOTS).nth(6).waitFor();
    await section(page, 'Top QR Codes').locator('[data-single-share]').waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'dashboard-375');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('/analytics', () => {
  it('Overview matches the API for the period and with bots excluded', async () => {
    const { context, page, errors } = await open(desktop);
    await page.goto('/analytics');
    const week = await api<UserSummary>(page, `/api/analytics/user?days=7&${tz}`);
    const daily = await api<DailyCount[]>(page, `/api/analytics/daily?days=7&${tz}`);
    const devices = await api<DeviceCount[]>(page, `/api/analytics/devices?days=7&${tz}`);
    const hourly = await api<HourlyCount[]>(page, `/api/analytics/hourly?days=7&${tz}`);
    expect(await page.getByRole('combobox', { name: 'Period' }).inputValue()).toBe('Last 7 days');

    await section(page, 'Scans (Last 7 Days)').locator('.recharts-line-dots circle').nth(6).waitFor();
    expect(await statValue(page, 'Total Scans').textContent()).toBe(count(week.totalScans));
    expect(await statValue(page, 'Scans Today').textContent()).toBe(count(daily.at(-1)!.count));
    expect(await statValue(page, 'Active QR Codes').textContent()).toBe(count(week.totalQRCodes));

    const deviceList = await section(page, 'Scans by Device')
      .getByRole('list', { name: 'Scans by device' })
      .getByRole('listitem')
      .allTextContents();
    const deviceTotal = devices.reduce((s, d) => s + d.count, 0);
    expect(deviceList).toHaveLength(devices.length);
    devices.forEach((d, i) => {
      expect(deviceList[i]).toContain(d.device);
      expect(deviceList[i]).toContain(scans(d.count));
      expect(deviceList[i]).toContain(formatPercent(d.count, deviceTotal));
    });
    const locations = section(page, 'Top Locations').getByRole('listitem');
    expect(await locations.count()).toBeGreaterThan(0);
    expect(await locations.count()).toBeLessThanOrEqual(10);

    // Time of day: 24 hours, 12 AM first, 12 PM at noon.
    const hours = section(page, 'Scans by Time of Day').locator('tbody tr');
    expect(await hours.count()).toBe(24);
    expect(await hours.nth(0).locator('th').textContent()).toBe('12 AM');
    expect(await hours.nth(12).locator('th').textContent()).toBe('12 PM');
    expect(await hours.nth(23).locator('th').textContent()).toBe('11 PM');
    expect(await hours.nth(12).locator('td').textContent()).toBe(String(hourly[12]!.count));
    const hourTicks = await section(page, 'Scans by Time of Day').locator(X_TICKS).allTextContents();
    expect(hourTicks[0]).toBe('12 AM');
    await screenshot(page, 'analytics-overview-1280');

    // Another period, then without bots: the cards follow the API.
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 30 days' }).click();
    const month = await api<UserSummary>(page, `/api/analytics/user?days=30&${tz}`);
    await section(page, 'Scans (Last 30 Days)').locator('.recharts-line-dots circle').nth(29).waitFor();
    await expect.poll(() => statValue(page, 'Total Scans').textContent()).toBe(count(month.totalScans));

    await page.getByLabel('Exclude bots').check({ force: true });
    const humans = await api<UserSummary>(page, `/api/analytics/user?days=30&excludeBots=true&${tz}`);
    expect(humans.totalScans).toBeLessThan(month.totalScans);
    await expect.poll(() => statValue(page, 'Total Scans').textContent()).toBe(count(humans.totalScans));
    expect(
      await section(page, 'Scans by Device').getByRole('list', { name: 'Scans by device' }).textContent(),
    ).not.toContain('Bot');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('By QR Code shows a bar per code and a card per code with count and share', async () => {
    const { context, page, errors } = await open(desktop);
    await page.goto('/analytics');
    await openTab(page, 'By QR Code');
    const rows = await api<PerformanceRow[]>(page, `/api/analytics/performance?days=7&${tz}`);
    const codes = await api<QrCode[]>(page, '/api/qr-codes');
    const isStatic = (r: PerformanceRow) => !codes.find((c) => c.id === r.qrCodeId)!.isDynamic;
    const tracked = rows.filter((r) => !isStatic(r));
    const total = tracked.reduce((s, r) => s + r.count, 0);
    expect(rows).toHaveLength(2);
    expect(tracked).toHaveLength(1);
    await page.locator('[data-chart="per-code"] .recharts-bar-rectangle').first().waitFor();
    // One bar: the static code is not tracked, so it has no bar and no share.
    expect(await page.locator('[data-chart="per-code"] .recharts-bar-rectangle').count()).toBe(1);
    for (const r of rows) {
      const card = page.getByRole('article', { name: r.name });
      if (isStatic(r)) {
        expect(await card.locator('[data-scans]').textContent()).toBe('Not tracked');
        expect(await card.locator('[data-percent]').count()).toBe(0);
        await card.getByText(/Static codes are not tracked/).waitFor();
      } else {
        expect(await card.locator('[data-scans]').textContent()).toBe(scans(r.count));
        expect(await card.locator('[data-percent]').textContent()).toBe(
          `${formatPercent(r.count, total)} of total`,
        );
      }
      expect(pathOf(await card.getByRole('link', { name: r.name }).getAttribute('href'))).toBe(
        `/qr-details/${r.qrCodeId}`,
      );
    }
    await screenshot(page, 'analytics-by-qr-code-1280');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Reports & Export: default range, validation, progress and a saved file', async () => {
    const { context, page, errors } = await open(desktop);
    allowConsoleErrors(page, /status of 400 \(Bad Request\).*\/api\/analytics\/export/); // the stubbed refusal
    await page.goto('/analytics');
    await page.getByRole('tab', { name: 'Reports & Export' }).click();
    const start = page.getByLabel('Start date');
    const end = page.getByLabel('End date');
    expect(await start.inputValue()).toBe(zoneDate(30));
    expect(await end.inputValue()).toBe(zoneDate(0));
    for (const name of ['Full Analytics Report', 'Scan Activity', 'QR Code Performance'])
      await page.getByRole('radio', { name: new RegExp(`^${name}`) }).waitFor();
    for (const name of ['CSV', 'Excel', 'PDF', 'JSON'])
      await page.getByRole('radio', { name, exact: true }).waitFor();
    expect(
      await page.getByRole('radio', { name: /^Full Analytics Report/ }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(await page.getByRole('radio', { name: 'CSV', exact: true }).isChecked()).toBe(true);
    await screenshot(page, 'analytics-reports-1280');

    // Start after end: refused in the form, nothing requested.
    let exportRequests = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/analytics/export') exportRequests++;
    });
    await start.fill(zoneDate(1));
    await end.fill(zoneDate(3));
    await page.getByRole('button', { name: 'Generate & Download Report' }).click();
    await page.getByText('Start date must be on or before the end date').waitFor();
    expect(exportRequests).toBe(0);
    await start.fill(zoneDate(10));

    // A stubbed server answer held back until the progress has been seen, then an error with a message.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const seen: URL[] = [];
    await page.route('**/api/analytics/export?*', async (route) => {
      seen.push(new URL(route.request().url()));
      await held;
      await route.fulfill({
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          'Content-Disposition': `attachment; filename="stub-report.json"`,
        },
        body: JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i })) }),
      });
    });
    await page.getByRole('radio', { name: 'JSON', exact: true }).check();
    await page.getByRole('radio', { name: /^QR Code Performance/ }).click();
    const downloading = page.waitForEvent('download');
    const button = page.getByRole('button', { name: 'Generate & Download Report' });
    await button.click();
    // While the server works: a busy, disabled button and an indeterminate progress bar.
    await page.getByRole('progressbar', { name: 'Report download progress' }).waitFor();
    await page.getByText('Preparing the report…').waitFor();
    expect(await button.isDisabled()).toBe(true);
    release();
    const file = await downloading;
    expect(Object.fromEntries(seen[0]!.searchParams)).toEqual({
      from: zoneDate(10),
      to: zoneDate(3),
      type: 'performance',
      format: 'json',
      tz: ZONE,
      excludeBots: 'false',
    });
    expect(file.suggestedFilename()).toBe('stub-report.json');
    expect(JSON.parse(await downloadBytes(file).then((bytes) => bytes.toString('utf8')))).toHaveProperty(
      'rows',
    );
    await page.getByText('Report Downloaded').waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/analytics');

    await page.unroute('**/api/analytics/export?*');
    await page.route('**/api/analytics/export?*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'A report covers at most 3660 days', code: 'BAD_REQUEST' }),
      }),
    );
    await page.getByRole('button', { name: 'Generate & Download Report' }).click();
    await page.getByText('A report covers at most 3660 days').waitFor();
    expect(await button.isEnabled()).toBe(true);
    await page.unroute('**/api/analytics/export?*');
    expect(errors.filter((e) => !e.includes('400 (Bad Request)'))).toEqual([]);
    await context.close();
  });

  it('Reports & Export downloads a real CSV from the server', async () => {
    const { context, page } = await open(desktop);
    await page.goto('/analytics');
    await page.getByRole('tab', { name: 'Reports & Export' }).click();
    await page.getByRole('radio', { name: /^Scan Activity/ }).click();
    const downloading = page.waitForEvent('download');
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analytics/export');
    await page.getByRole('button', { name: 'Generate & Download Report' }).click();
    const res = await answered;
    expect(res.status()).toBe(200);
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    expect(res.headers()['content-disposition']).toContain(`filename="${file.suggestedFilename()}"`);
    const csv = await downloadBytes(file).then((bytes) => bytes.toString('utf8'));
    expect(csv.split(/\r?\n/).filter(Boolean).length).toBeGreaterThan(1);
    await context.close();
  });

  it('fits 375 px on every tab', async () => {
    const { context, page, errors } = await open(phone);
    await page.goto('/analytics');
    await section(page, 'Scans (Last 7 Days)').locator('.recharts-line-dots circle').nth(6).waitFor();
    await section(page, 'Top Locations').locator('.recharts-pie-sector').first().waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'analytics-overview-375');
    await openTab(page, 'By QR Code');
    await page.locator('[data-chart="per-code"] .recharts-bar-rectangle').first().waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'analytics-by-qr-code-375');
    await page.getByRole('tab', { name: 'Reports & Export' }).click();
    await page.getByLabel('Start date').waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'analytics-reports-375');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('/qr-details/{id}', () => {
  it('shows the totals, ten scans a page with masked addresses, and the next page', async () => {
    const { context, page, errors } = await open(desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    const { cafe } = await demoCodes(page);
    const first = await api<QrCodeAnalytics>(page, `/api/analytics/qr-codes/${cafe.id}?${tz}`);
    const second = await api<QrCodeAnalytics>(page, `/api/analytics/qr-codes/${cafe.id}?page=2&${tz}`);
    expect(first.totalPages).toBeGreaterThan(2);

    await page.goto('/my-qr-codes');
    await page.getByRole('article', { name: cafe.name }).getByRole('link', { name: 'Stats' }).click();
    await page.waitForURL((u) => u.pathname === `/qr-details/${cafe.id}`);
    await page.getByRole('heading', { name: cafe.name, level: 2 }).waitFor();
    expect(await page.locator('[data-qr-type]').textContent()).toBe('URL');
    await page
      .getByRole('img', { name: `QR code for ${cafe.name}` })
      .locator('svg')
      .first()
      .waitFor();
    expect(await statValue(page, 'Total Scans').textContent()).toBe(count(first.totalScans));
    expect(await statValue(page, 'Unique Locations').textContent()).toBe(count(first.uniqueLocations));
    expect(await statValue(page, 'Unique Devices').textContent()).toBe(count(first.uniqueDevices));
    await section(page, 'Scans Over Time').locator('.recharts-line-dots circle').nth(6).waitFor();
    const devices = section(page, 'Device Distribution').getByRole('listitem');
    expect(await devices.count()).toBe(first.devices.length);
    expect(await devices.first().textContent()).toContain(first.devices[0]!.device);

    const table = page.getByRole('table', { name: 'Scan history' });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(10);
    const times = await rows.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')));
    expect(times).toEqual(first.scans.map((s) => s.timestamp));
    const ips = await rows.locator('[data-ip]').allTextContents();
    expect(ips).toEqual(first.scans.map((s) => maskIp(s.ipAddress)));
    for (const ip of ips) expect(ip).toMatch(/^\d{1,3}\.\d{1,3}\.\*\.\*$/);
    expect(await rows.first().locator('time').textContent()).toMatch(/ago$|^just now$/);

    await screenshot(page, 'qr-details-1280');

    // The device tooltip names the category and the device.
    await rows.first().locator('[data-device]').hover();
    const s0 = first.scans[0]!;
    await page
      .getByRole('tooltip')
      .getByText(`${s0.device} · ${s0.deviceName ?? 'Unknown'}`)
      .waitFor();

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText(`Page 2 of ${first.totalPages}`).waitFor();
    await expect
      .poll(() => rows.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime'))))
      .toEqual(second.scans.map((s) => s.timestamp));
    expect(await rows.locator('[data-ip]').allTextContents()).toEqual(
      second.scans.map((s) => maskIp(s.ipAddress)),
    );
    expect(await page.getByRole('button', { name: 'Page 2', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByRole('button', { name: 'Page 1', exact: true }).click();
    await page.getByText(`Page 1 of ${first.totalPages}`).waitFor();

    // Share: no native share sheet here, so the link goes to the clipboard.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('URL copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(cafe.shortUrl);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when a code has no scans, says a static code is not tracked, and fits 375 px', async () => {
    const { context, page, errors } = await open(phone);
    const { cafe, wifi } = await demoCodes(page);
    // A static code: no counts, charts or history stand for it, and the page says why.
    expect(wifi.isDynamic).toBe(false);
    await page.goto(`/qr-details/${wifi.id}`);
    await page.getByRole('heading', { name: wifi.name, level: 2 }).waitFor();
    expect(await page.locator('[data-qr-type]').textContent()).toBe('WIFI');
    for (const label of ['Total Scans', 'Unique Locations', 'Unique Devices'])
      expect(await statValue(page, label).textContent()).toBe('Not tracked');
    await page.getByText(/Static codes are not tracked/).waitFor();
    expect(await section(page, 'Scan History').count()).toBe(0);
    await screenshot(page, 'qr-details-static-375');

    // A dynamic code nobody has scanned yet.
    const created = await page.request.post('/api/qr-codes', {
      data: {
        name: 'Fresh flyer',
        type: 'url',
        content: 'https://example.com/fresh',
        isDynamic: true,
        customization: {},
        folderId: null,
      },
    });
    expect(created.status()).toBe(201);
    const fresh = (await created.json()) as QrCode;
    await page.goto(`/qr-details/${fresh.id}`);
    await page.getByRole('heading', { name: 'Fresh flyer', level: 2 }).waitFor();
    expect(await statValue(page, 'Total Scans').textContent()).toBe('0');
    await section(page, 'Scan History').getByText('No scan data available yet').waitFor();
    await page.request.delete(`/api/qr-codes/${fresh.id}`);

    await page.goto(`/qr-details/${cafe.id}`);
    // At 375 px the history is a list of cards, not a table cut off at the side.
    await page.getByRole('list', { name: 'Scan history' }).getByRole('listitem').nth(9).waitFor();
    await section(page, 'Scans Over Time').locator('.recharts-line-dots circle').nth(6).waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'qr-details-375');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the error text for another user's code and for an id that is not one", async () => {
    const owner = await open(desktop);
    const { cafe } = await demoCodes(owner.page);
    await owner.context.close();

    const { context, page } = await open(desktop, null);
    allowConsoleErrors(page, /status of 404 \(Not Found\).*analytics\.qrCode/); // another user's code
    const res = await page.request.post('/api/register', {
      data: {
        username: 'analytics-other',
        password: 'other-pass-1',
        name: 'Other User',
        email: 'other@example.com',
      },
    });
    expect(res.status()).toBeLessThan(300);
    await page.goto(`/qr-details/${cafe.id}`);
    await page.getByText('Error loading QR code details. Please try again later.').waitFor();
    await page.getByText('This QR code does not exist or belongs to another account.').waitFor();
    expect(await page.getByRole('table', { name: 'Scan history' }).count()).toBe(0);
    await page.goto('/qr-details/not-a-number');
    await page.getByText('Error loading QR code details. Please try again later.').waitFor();

    // A user without codes sees zeros and invitations, never sample numbers.
    await page.goto('/');
    await page.getByRole('heading', { name: 'Dashboard', level: 2 }).waitFor();
    await expect.poll(() => statValue(page, 'Total QR Codes').textContent()).toBe('0');
    expect(await statValue(page, 'Total Scans').textContent()).toBe('0');
    expect(await statValue(page, 'Recent Activity').textContent()).toBe('No scans yet');
    expect(await section(page, 'Scans (Last 7 Days)').getByText('No QR codes yet').count()).toBe(1);
    expect(await section(page, 'Top QR Codes').getByText('No QR codes yet').count()).toBe(1);
    expect(await page.locator('.recharts-surface').count()).toBe(0);
    await screenshot(page, 'dashboard-empty-1280');
    await page.goto('/analytics');
    await openTab(page, 'By QR Code');
    await page.getByText("You don't have any QR codes yet. Create a QR code to see analytics.").waitFor();
    await context.close();
  });
});
