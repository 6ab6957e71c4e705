import { expect, it } from 'vitest';
import { createTokenOnHost } from '../../server/features/tokens/tokens.service.js';
import { toUser } from '../../server/features/users/users.mapper.js';
import { call, signedInUser, useTestApp, type TestApp } from '../../server/test/test-app.js';
import { describeEachDb } from '../../server/test/test-db.js';
import { runIntegratorJobs } from '../examples/integrator.js';
import { createQrCreatorClient, QrCreatorError, type QrCreatorClientOptions } from '../src/index.js';

// What a caller of the SDK sees, over real HTTP against the real app: the integrator's ten jobs (the
// example script itself), then the retries the client makes on its own.

async function tokenFor(t: TestApp, scope: 'read' | 'write' = 'write') {
  const { user } = await signedInUser(t, 'ada', { hasUnlimitedAccess: true });
  return createTokenOnHost(t.deps, toUser(user), { name: 'SDK test', scope });
}

/** The app listening on a port of its own, a token for it, and clients with options of their own. */
async function serve(t: TestApp) {
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { token, apiToken } = await tokenFor(t);
  return {
    tokenId: apiToken.id,
    clientWith: (options: Partial<QrCreatorClientOptions> = {}) =>
      createQrCreatorClient({ baseUrl, token, ...options }),
  };
}

/** Whether the server pages GET /api/qr-codes yet (the document declares `page`). */
async function listIsPaged(t: TestApp): Promise<boolean> {
  const doc = (await call(t.app, 'GET', '/api/openapi.json')).json<{
    paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
  }>();
  const list = Object.entries(doc.paths).find(([path]) => /^\/api(\/v1)?\/qr-codes$/.test(path))?.[1];
  return (list?.get?.parameters ?? []).some((p) => p.in === 'query' && p.name === 'page');
}

describeEachDb('the SDK', (getDb) => {
  const t = useTestApp(getDb);

  it("runs the integrator's ten jobs: typed answers, paging, bytes, files and typed errors", async () => {
    const client = (await serve(t())).clientWith();
    const lines: string[] = [];
    const report = await runIntegratorJobs(client, (line) => lines.push(line));

    expect(report.created).toMatchObject({ name: 'Menu', type: 'url', isDynamic: true });
    expect(report.created.shortUrl).toEqual(expect.any(String));
    expect(report.redirected).toMatchObject({
      id: report.created.id,
      content: 'https://example.com/winter-menu',
    });
    expect(report.bulkCreated).toBe(50);
    // listAll walks every page: each of the fifty once.
    expect(report.bulkSeen).toBe(50);
    if (await listIsPaged(t())) {
      expect(report.page).toMatchObject({ page: 2, pageSize: 10, total: 50 });
      expect(report.page.items.map((c) => c.name)).toHaveLength(10);
    } else {
      // Until the server pages: every code on the one page, and the total is their number.
      expect(report.page.items).toHaveLength(51);
      expect(report.page.total).toBe(51);
    }
    expect([...report.png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(report.svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);
    expect(report.summary.totalQRCodes).toBe(51);
    expect(report.codeAnalytics.qrCode.id).toBe(report.created.id);
    expect(report.report.contentType).toMatch(/^text\/csv/);
    expect(report.report.filename).toMatch(/\.csv$/);
    expect(new TextDecoder().decode(report.report.bytes)).toContain('Bulk 1');

    expect(report.invalid).toBeInstanceOf(QrCreatorError);
    expect(report.invalid.status).toBe(400);
    expect(report.invalid.issues.map((issue) => issue.path)).toEqual(['name']);
    expect(report.invalid.issues[0]?.message).toMatch(/name/i);
    expect(report.notFound.status).toBe(404);
    expect(report.notFound.code).toEqual(expect.any(String));
    expect(report.notFound.message).toMatch(/not found/i);
    expect(report.rateLimit?.limit).toBe(600);
    expect(report.rateLimit?.remaining).toBeLessThan(600);
    expect(lines).toHaveLength(12);

    // Gone for real: the deleted code is not listed.
    const left = await client.qrCodes.list();
    expect(left.items.map((c) => c.id)).not.toContain(report.created.id);
  });

  it('waits the Retry-After of a 429 and sends the call again, with the same Idempotency-Key', async () => {
    const waits: number[] = [];
    const keys: (string | null)[] = [];
    const { clientWith, tokenId } = await serve(t());
    const client = clientWith({
      // The test's clock is the server's: waiting moves it, so the retry lands in the next minute.
      sleep: (ms) => {
        waits.push(ms);
        t().clock.advance(ms);
        return Promise.resolve();
      },
      fetch: (request) => {
        keys.push(request.headers.get('Idempotency-Key'));
        return fetch(request);
      },
    });
    // 20 s before the minute ends, with this minute's allowance already used up.
    const minute = Math.floor(t().clock.now().getTime() / 60_000) + 1;
    t().clock.set(new Date(minute * 60_000 + 40_000));
    await t().db.insertInto('api_token_usage').values({ token_id: tokenId, minute, count: 600 }).execute();

    const code = await client.qrCodes.create({
      name: 'Retried',
      type: 'url',
      content: 'https://example.com/r',
    });
    expect(code.name).toBe('Retried');
    expect(waits).toEqual([20_000]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect((await client.qrCodes.list()).items.map((c) => c.name)).toEqual(['Retried']);
  });

  it('throws the 429 when out of retries, and retries a GET that got no answer', async () => {
    const { clientWith, tokenId } = await serve(t());
    const minute = Math.floor(t().clock.now().getTime() / 60_000) + 1;
    t().clock.set(new Date(minute * 60_000 + 1000));
    await t().db.insertInto('api_token_usage').values({ token_id: tokenId, minute, count: 600 }).execute();
    const limited = await clientWith({ maxRetries: 0 })
      .qrCodes.list()
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(QrCreatorError);
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 59 });

    t().clock.advance(60_000);
    const waits: number[] = [];
    let calls = 0;
    const flaky = clientWith({
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      fetch: (request) => (++calls === 1 ? Promise.reject(new TypeError('fetch failed')) : fetch(request)),
    });
    expect(await flaky.folders.list()).toEqual([]);
    expect(waits).toEqual([500]);
    expect(calls).toBe(2);

    // No answer at all, retries spent: a QrCreatorError too, status 0.
    const down = createQrCreatorClient({
      baseUrl: 'http://127.0.0.1:9',
      token: 'qrc_x',
      maxRetries: 1,
      sleep: () => Promise.resolve(),
    });
    await expect(down.folders.list()).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
