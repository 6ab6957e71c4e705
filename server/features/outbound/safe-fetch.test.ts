import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, isForbiddenAddress, safeFetch } from './safe-fetch.js';

let server: http.Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/ok') return res.end(`hello ${req.headers['user-agent']}`);
    if (req.url === '/big') return res.end('x'.repeat(5000));
    if (req.url === '/to-localhost') {
      res.writeHead(302, { location: `http://localhost:${port}/ok` });
      return res.end();
    }
    if (req.url === '/to-private') {
      res.writeHead(301, { location: 'http://10.1.2.3/admin' });
      return res.end();
    }
    if (req.url === '/to-self') {
      res.writeHead(302, { location: '/ok' });
      return res.end();
    }
    if (req.url === '/post-303' || req.url === '/post-307') {
      res.writeHead(req.url === '/post-303' ? 303 : 307, { location: '/echo' });
      return res.end();
    }
    if (req.url === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      return req.on('end', () =>
        res.end(`${req.method} ${Buffer.concat(chunks).length} ${String(req.headers['x-signed'] ?? '-')}`),
      );
    }
    if (req.url === '/slow') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const allowLoopback = { allowedHosts: ['127.0.0.1'] };
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (error instanceof OutboundError ? error.reason : `other: ${String(error)}`),
  );

describe('safeFetch', () => {
  it('refuses loopback and private addresses unless the host is allowed', async () => {
    expect(await reasonOf(safeFetch({ allowedHosts: [] }, `${base}/ok`))).toBe('private');
    expect(await reasonOf(safeFetch({ allowedHosts: [] }, `http://localhost:${port}/ok`))).toBe('private');
    expect(await reasonOf(safeFetch({ allowedHosts: [] }, 'http://[::1]/'))).toBe('private');
    expect(await reasonOf(safeFetch({ allowedHosts: [] }, 'http://169.254.169.254/latest/meta-data'))).toBe(
      'private',
    );
    const answer = await safeFetch(allowLoopback, `${base}/ok`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toMatch(/^hello QR-Creator\//);
  });

  it('checks every redirect hop again, and follows only as many as asked', async () => {
    expect(await reasonOf(safeFetch(allowLoopback, `${base}/to-localhost`, { maxRedirects: 3 }))).toBe(
      'private',
    );
    expect(await reasonOf(safeFetch(allowLoopback, `${base}/to-private`, { maxRedirects: 3 }))).toBe(
      'private',
    );
    const followed = await safeFetch(allowLoopback, `${base}/to-self`, { maxRedirects: 1 });
    expect([followed.status, followed.url]).toEqual([200, `${base}/ok`]);
    const notFollowed = await safeFetch(allowLoopback, `${base}/to-self`);
    expect(notFollowed.status).toBe(302);
  });

  it('follows a POST answered 303 as a GET without its body or headers, and stops at a 307', async () => {
    const post = {
      method: 'POST' as const,
      body: '{"a":1}',
      headers: { 'x-signed': 'yes' },
      maxRedirects: 2,
    };
    const seeOther = await safeFetch(allowLoopback, `${base}/post-303`, post);
    expect([seeOther.status, seeOther.body.toString(), seeOther.url]).toEqual([
      200,
      'GET 0 -',
      `${base}/echo`,
    ]);
    const temporary = await safeFetch(allowLoopback, `${base}/post-307`, post);
    expect(temporary.status).toBe(307);
    const direct = await safeFetch(allowLoopback, `${base}/echo`, post);
    expect(direct.body.toString()).toBe('POST 7 yes');
  });

  it('stops a long answer, a slow one and anything but http(s)', async () => {
    expect(await reasonOf(safeFetch(allowLoopback, `${base}/big`, { maxBytes: 1000 }))).toBe('too-large');
    expect(await reasonOf(safeFetch(allowLoopback, `${base}/slow`, { timeoutMs: 300 }))).toBe('timeout');
    expect(await reasonOf(safeFetch(allowLoopback, 'file:///etc/passwd'))).toBe('protocol');
    expect(await reasonOf(safeFetch(allowLoopback, 'not a url'))).toBe('protocol');
  });

  it('keeps one connection for a receiver posted to again and again only when asked (keepAlive)', async () => {
    const sockets = new Set<unknown>();
    const count = (socket: unknown) => sockets.add(socket);
    server.on('connection', count);
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await safeFetch(allowLoopback, `${base}/ok`, {
          method: 'POST',
          body: `{"n":${i}}`,
          keepAlive: true,
        });
        expect(answer.status).toBe(200);
      }
      expect(sockets.size).toBe(1);
      sockets.clear();
      for (let i = 0; i < 2; i++) await safeFetch(allowLoopback, `${base}/ok`);
      expect(sockets.size).toBe(2);
      // The check still runs on a kept connection's host: another policy never gets the pooled socket.
      expect(await reasonOf(safeFetch({ allowedHosts: [] }, `${base}/ok`, { keepAlive: true }))).toBe(
        'private',
      );
    } finally {
      server.off('connection', count);
    }
  });

  it('sends a request again on a new connection when the kept one was closed by the other side', async () => {
    // A receiver that answers the first request of each connection and drops the connection at the second.
    let connections = 0;
    const flaky = net.createServer((socket) => {
      connections += 1;
      let requests = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        requests += 1;
        if (requests > 1) return void socket.destroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/hook`;
    try {
      for (let i = 0; i < 2; i++) {
        const answer = await safeFetch(allowLoopback, url, { method: 'POST', body: '{}', keepAlive: true });
        expect([answer.status, answer.body.toString()]).toEqual([200, 'ok']);
      }
      expect(connections).toBe(2);
    } finally {
      flaky.close();
    }
  });

  it('says a name that does not resolve is a DNS failure', async () => {
    expect(await reasonOf(safeFetch(allowLoopback, 'http://no-such-host.invalid/'))).toBe('dns');
  });
});

describe('isForbiddenAddress', () => {
  it('allows public addresses only', () => {
    for (const address of ['8.8.8.8', '2001:4860:4860::8888', '93.184.216.34'])
      expect(isForbiddenAddress(address), address).toBe(false);
    for (const address of [
      '10.0.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.1.1',
      '172.16.0.1',
      '192.168.1.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'ff02::1',
      'not-an-address',
    ])
      expect(isForbiddenAddress(address), address).toBe(true);
  });
});
