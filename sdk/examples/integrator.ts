// The integrator's ten everyday jobs through the SDK, typed end to end without a cast or `any`:
// create, change the destination, list with paging, bulk 50, images, analytics, export, delete,
// errors and the rate limit. Run it against a server with a write token:
//
//   QRC_BASE_URL=http://localhost:3000 QRC_TOKEN=qrc_… npx tsx sdk/examples/integrator.ts
//
// sdk/test/integrator.test.ts runs the same function against a test server and checks what it returns.
import { pathToFileURL } from 'node:url';
import {
  createQrCreatorClient,
  QrCreatorError,
  type AnalyticsSummary,
  type BulkCreateInput,
  type CodeAnalytics,
  type ExportFile,
  type Page,
  type QrCode,
  type QrCreatorClient,
  type RateLimitState,
} from '../src/index.js';

export interface IntegratorReport {
  created: QrCode;
  redirected: QrCode;
  page: Page<QrCode>;
  /** Every "Bulk" code, walked page by page. */
  bulkSeen: number;
  bulkCreated: number;
  png: Uint8Array;
  svg: string;
  summary: AnalyticsSummary;
  codeAnalytics: CodeAnalytics;
  report: ExportFile;
  deletedId: number;
  invalid: QrCreatorError;
  notFound: QrCreatorError;
  rateLimit: RateLimitState | undefined;
}

/** The error a call fails with; a call that succeeds is a mistake here. */
async function failureOf(call: Promise<unknown>): Promise<QrCreatorError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof QrCreatorError) return error;
    throw error;
  }
  throw new Error('the call was expected to fail');
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export async function runIntegratorJobs(
  client: QrCreatorClient,
  log: (line: string) => void = () => undefined,
): Promise<IntegratorReport> {
  // 1. Create a dynamic code: its short link can later point elsewhere.
  const created = await client.qrCodes.create({
    name: 'Menu',
    type: 'url',
    content: 'https://example.com/menu',
    isDynamic: true,
    customization: { foregroundColor: '#1D3557', errorCorrectionLevel: 'Q' },
  });
  log(
    `1. created #${created.id} ${created.name} → ${created.content} (short link ${created.shortUrl ?? 'none'})`,
  );

  // 2. Change where it leads: the printed code stays the same.
  const redirected = await client.qrCodes.update(created.id, { content: 'https://example.com/winter-menu' });
  log(`2. #${redirected.id} now leads to ${redirected.content}`);

  // 4 (first, so that 3 has something to page through). Fifty codes in one call.
  const codes: BulkCreateInput['codes'] = [];
  for (let i = 1; i <= 50; i++) {
    codes.push({ name: `Bulk ${i}`, type: 'url', content: `https://example.com/bulk/${i}` });
  }
  const bulk = await client.bulk.create({ codes, allOrNothing: true });
  log(`4. bulk: ${bulk.created.length} created, ${bulk.skipped.length} skipped`);

  // 3. List with paging: one page, then every match a page at a time.
  const page = await client.qrCodes.list({ page: 2, pageSize: 10, search: 'Bulk' });
  log(`3. page ${page.page}: ${page.items.length} of ${page.total} codes`);
  let bulkSeen = 0;
  for await (const code of client.qrCodes.listAll({ search: 'Bulk', pageSize: 20 })) {
    if (code.name.startsWith('Bulk ')) bulkSeen++;
  }
  log(`3. walked ${bulkSeen} "Bulk" codes`);

  // 5. Images, rendered by the server.
  const png = await client.qrCodes.image(created.id, { format: 'png', size: 256 });
  const svg = new TextDecoder().decode(await client.qrCodes.image(created.id, { format: 'svg' }));
  log(`5. PNG ${png.byteLength} bytes, SVG ${svg.length} characters`);

  // 6. Analytics: every code's scans, then one code's.
  const summary = await client.analytics.summary({ days: 30 });
  const codeAnalytics = await client.analytics.code(created.id);
  log(`6. ${summary.totalQRCodes} codes, ${summary.totalScans} scans; #${codeAnalytics.qrCode.id} scanned`);

  // 7. The report of the last 30 days as a CSV file.
  const today = new Date();
  const report = await client.analytics.export({
    from: isoDay(new Date(today.getTime() - 29 * 86_400_000)),
    to: isoDay(today),
    type: 'full',
    format: 'csv',
  });
  log(`7. ${report.filename ?? 'report'} (${report.contentType}, ${report.bytes.byteLength} bytes)`);

  // 8. Delete a code (its scans go with it).
  const deleted = await client.qrCodes.delete(created.id);
  log(`8. ${deleted.message}`);

  // 9. Errors are QrCreatorError: a status, a stable code and, for bad input, each field at fault.
  const invalid = await failureOf(
    client.qrCodes.create({ name: '', type: 'url', content: 'https://example.com' }),
  );
  for (const issue of invalid.issues)
    log(`9. ${invalid.status} ${invalid.code}: ${issue.path}: ${issue.message}`);
  const notFound = await failureOf(client.qrCodes.get(created.id));
  log(`9. ${notFound.status} ${notFound.code}: ${notFound.message}`);

  // 10. The rate limit: what is left of this minute. A 429 is retried by the client after the
  // Retry-After the server gives (maxRetries, default 2); POSTs keep their Idempotency-Key.
  const rateLimit = client.rateLimit;
  log(
    `10. ${rateLimit ? `${rateLimit.remaining} of ${rateLimit.limit} calls left` : 'no rate limit reported'}`,
  );

  return {
    created,
    redirected,
    page,
    bulkSeen,
    bulkCreated: bulk.created.length,
    png,
    svg,
    summary,
    codeAnalytics,
    report,
    deletedId: created.id,
    invalid,
    notFound,
    rateLimit,
  };
}

async function main(): Promise<void> {
  const token = process.env.QRC_TOKEN;
  if (!token) {
    process.stderr.write(
      'Set QRC_TOKEN to an API token (Settings → Security, or qr-creator create-token).\n',
    );
    process.exitCode = 2;
    return;
  }
  const client = createQrCreatorClient({
    baseUrl: process.env.QRC_BASE_URL ?? 'http://localhost:3000',
    token,
    onRetry: (retry) =>
      process.stderr.write(`retrying ${retry.method} ${retry.url} in ${retry.delayMs} ms\n`),
  });
  await runIntegratorJobs(client, (line) => process.stdout.write(`${line}\n`));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
