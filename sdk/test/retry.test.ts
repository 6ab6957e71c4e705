import { describe, expect, it } from 'vitest';
import { createQrCreatorClient, QrCreatorError, type RetryEvent } from '../src/index.js';

// The client's retries as a caller sees them, against a scripted server: which answers are sent again,
// after how long, and which are thrown at once. (integrator.test.ts does the same against the real app.)

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const folder = { id: 1, name: 'Posters', created: '2026-11-28T00:00:00.000Z', qrCodeCount: 0 };

/** A client whose server answers from `script` in turn; what it was asked and how long it waited. */
function scripted(script: (() => Response | Promise<Response>)[], maxRetries?: number) {
  const requests: Request[] = [];
  const waits: number[] = [];
  const retries: RetryEvent[] = [];
  const client = createQrCreatorClient({
    baseUrl: 'https://qr.example.com',
    token: 'qrc_test',
    ...(maxRetries === undefined ? {} : { maxRetries }),
    fetch: (request) => {
      requests.push(request);
      const next = script[requests.length - 1];
      if (!next) throw new Error(`unexpected request ${requests.length}`);
      return Promise.resolve(next());
    },
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    onRetry: (event) => retries.push(event),
  });
  return { client, requests, waits, retries };
}

describe('retries', () => {
  it('waits each Retry-After (seconds or a date), then throws the last 429 when the retries are spent', async () => {
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    const limited = (retryAfter: string) =>
      json(
        429,
        { message: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds: 3 },
        { 'Retry-After': retryAfter },
      );
    const { client, requests, waits, retries } = scripted([
      () => limited('3'),
      () => limited(inTwoSeconds),
      () => limited('3'),
    ]);
    const error = await client.folders.create({ name: 'Posters' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QrCreatorError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 3 });
    expect(requests).toHaveLength(3);
    expect(waits[0]).toBe(3000);
    expect(waits[1]).toBeGreaterThanOrEqual(1000);
    expect(waits[1]).toBeLessThanOrEqual(2000);
    expect(retries.map((r) => [r.attempt, r.status, r.method])).toEqual([
      [1, 429, 'POST'],
      [2, 429, 'POST'],
    ]);
    // One Idempotency-Key for the call, sent with each try; the token with each too.
    const keys = new Set(requests.map((r) => r.headers.get('Idempotency-Key')));
    expect(keys.size).toBe(1);
    expect(requests.every((r) => r.headers.get('Authorization') === 'Bearer qrc_test')).toBe(true);
  });

  it('gives each POST call a key of its own, and none to a GET', async () => {
    const { client, requests } = scripted([
      () => json(201, folder),
      () => json(201, folder),
      () => json(200, []),
    ]);
    await client.folders.create({ name: 'A' });
    await client.folders.create({ name: 'B' });
    await client.folders.list();
    const [a, b, list] = requests.map((r) => r.headers.get('Idempotency-Key'));
    expect(a).not.toBe(b);
    expect(list).toBeNull();
  });

  it('does not wait for a Retry-After longer than maxRetryAfterSeconds', async () => {
    const { client, requests, waits } = scripted([
      () => json(429, { message: 'Slow down', code: 'RATE_LIMITED' }, { 'Retry-After': '3600' }),
    ]);
    await expect(client.folders.list()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 3600 });
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a 409 while the same key is still running, and nothing else that failed', async () => {
    const inUse = scripted([
      () => json(409, { message: 'Still running', code: 'IDEMPOTENCY_KEY_IN_USE' }),
      () => json(201, folder),
    ]);
    expect(await inUse.client.folders.create({ name: 'Posters' })).toEqual(folder);
    expect(inUse.waits).toEqual([500]);

    const taken = scripted([() => json(409, { message: 'Taken', code: 'NAME_TAKEN' })]);
    await expect(taken.client.folders.create({ name: 'Posters' })).rejects.toMatchObject({
      status: 409,
      code: 'NAME_TAKEN',
    });
    const invalid = scripted([
      () =>
        json(400, {
          message: 'Name is required',
          code: 'VALIDATION_FAILED',
          issues: [{ path: 'name', message: 'Name is required' }],
        }),
    ]);
    const error = await invalid.client.folders.create({ name: '' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, issues: [{ path: 'name', message: 'Name is required' }] });
    expect(taken.requests.length + invalid.requests.length).toBe(2);
  });

  it('repeats a call that got no answer with a growing wait, except a PATCH', async () => {
    const down = () => Promise.reject(new TypeError('fetch failed'));
    const get = scripted([down, down, () => json(200, [folder])]);
    expect(await get.client.folders.list()).toEqual([folder]);
    expect(get.waits).toEqual([500, 1000]);

    const patch = scripted([down]);
    await expect(patch.client.qrCodes.move(3, null)).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
    });
    expect(patch.requests).toHaveLength(1);
  });

  it('keeps the rate limit the server reports', async () => {
    const { client } = scripted([
      () =>
        json(200, [], { 'RateLimit-Limit': '600', 'RateLimit-Remaining': '598', 'RateLimit-Reset': '41' }),
    ]);
    expect(client.rateLimit).toBeUndefined();
    await client.folders.list();
    expect(client.rateLimit).toEqual({ limit: 600, remaining: 598, resetSeconds: 41 });
  });
});
