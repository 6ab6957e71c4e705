import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertQrRow } from '../test/fixtures.js';
import { call, createTestApp, signedInUser, type TestApp } from '../test/test-app.js';
import { feedPositionOf } from '../features/scan-feed/scan-feed.js';
import { WEBHOOK_FEED } from '../features/webhooks/webhooks.service.js';
import { BACKGROUND_NICE } from './thread-priority.js';

/**
 * For a database in a file (what `npm start` runs), webhook deliveries and forwarding run on the background
 * thread at a low CPU priority (background-thread.ts), not on the request thread: a scan still reaches
 * the webhook's receiver, a thread of this process runs at nice 10 (BACKGROUND_NICE) while the app runs, and closing the app
 * ends it.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-background-'));
const file = path.join(dir, 'qr-creator.db');
let handle: DbHandle;
let t: TestApp;
const received: { url: string; event: string; body: string }[] = [];
let receiver: http.Server;
let receiverUrl = '';

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The command name may hold spaces: count the fields after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [Number(fields[16])];
    } catch {
      return []; // a thread that ended meanwhile
    }
  });
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        url: req.url ?? '',
        event: String(req.headers['qr-creator-event']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  handle = createDb(`sqlite:${file}`);
  await migrateToLatest(handle.db);
  t = await createTestApp(
    { handle, db: handle.db, dialect: 'sqlite', reset: async () => {}, close: () => handle.close() },
    {
      config: {
        databaseUrl: `sqlite:${file}`,
        backgroundSweeps: true,
        outbound: { allowedHosts: ['127.0.0.1'] },
      },
    },
  );
});

afterAll(async () => {
  await t?.close().catch(() => undefined);
  await handle?.close();
  receiver?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the background thread (a database file)', () => {
  it('has its place in the scans before the first turn, and delivers every scan of a rush after it', async () => {
    // Made by the app's start (not by the thread's first turn, a second later or more in a rush): a
    // webhook added now gets every scan from now on.
    const feed = await feedPositionOf(handle.db, WEBHOOK_FEED);
    expect(feed).not.toBeNull();
    const { user: owner, cookie } = await signedInUser(t, 'ray');
    const code = await insertQrRow(handle.db, { userId: owner.id, name: 'Rush', isDynamic: true });
    const added = await call(t.app, 'POST', '/api/webhooks', {
      cookie,
      json: { url: `${receiverUrl}?rush`, events: ['scan'] },
    });
    expect(added.statusCode, added.body).toBe(201);
    // Faster than BUSY_SCANS_PER_SECOND: the thread's turns wait until it is over, then send them all.
    const scans = 300;
    await Promise.all(
      Array.from({ length: scans }, (_, i) =>
        t.app.inject({ method: 'GET', url: `/r/${code.slug}`, headers: { 'user-agent': `Phone/${i}` } }),
      ),
    );
    const rushed = () =>
      received
        .filter((r) => r.url.endsWith('?rush'))
        .flatMap((r) => (JSON.parse(r.body) as { events: { id: string }[] }).events.map((e) => e.id));
    await expect.poll(() => rushed().length, { timeout: 30_000, interval: 200 }).toBe(scans);
    expect(new Set(rushed()).size).toBe(scans);
  });

  it('delivers a scan to a webhook from a thread at a low priority, and ends with the app', async () => {
    const { user: owner, cookie } = await signedInUser(t, 'bea');
    const code = await insertQrRow(handle.db, { userId: owner.id, name: 'Poster', isDynamic: true });
    const added = await call(t.app, 'POST', '/api/webhooks', {
      cookie,
      json: { url: receiverUrl, events: ['scan'] },
    });
    expect(added.statusCode, added.body).toBe(201);

    const res = await t.app.inject({ method: 'GET', url: `/r/${code.slug}` });
    expect(res.statusCode).toBe(302);
    await expect
      .poll(() => received.filter((r) => r.event === 'scan' && r.url === '/hook').length, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(1);
    const [delivery] = received.filter((r) => r.event === 'scan' && r.url === '/hook');
    expect(JSON.parse(delivery!.body)).toMatchObject({
      events: [{ type: 'scan', data: { code: { id: code.id, name: 'Poster' } } }],
    });

    if (process.platform === 'linux') {
      expect(threadNiceValues()).toContain(BACKGROUND_NICE);
      await t.app.close();
      await expect.poll(() => threadNiceValues().includes(BACKGROUND_NICE), { timeout: 15_000 }).toBe(false);
    }
  });
});
