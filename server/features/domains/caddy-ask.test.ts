// A real Caddy in front of the real app, the way a short domain is served over https: on-demand TLS asks
// GET /api/short-domains/ask before it issues a certificate for a host name. Caddy gets one for a short
// domain the app answers for, and the scan goes through it to the code's destination; for any other name
// Caddy is told no and the TLS handshake fails. Skipped, and named so, when Caddy is not installed
// (.ci/run installs Debian's package).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signedInUser, type TestApp } from '../../test/test-app.js';
import { createTestDb, type TestDb } from '../../test/test-db.js';

const caddyInstalled = !spawnSync('caddy', ['version']).error;
const TITLE = 'a real Caddy with on-demand TLS asks /api/short-domains/ask first';
const describeWithCaddy = caddyInstalled ? describe : describe.skip;

const DOMAIN = 'go.example.test';
const OTHER = 'evil.example.test';
const DESTINATION = 'https://example.com/menu?from=qr';

/** A port nothing listens on right now (the OS's choice, then released for Caddy to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface Answer {
  status: number;
  location: string | undefined;
  /** The names the served certificate is for (its subjectAltName). */
  certificateNames: string;
  issuer: string;
}

/** GET https://<host><pathname> sent to Caddy on 127.0.0.1 (SNI and Host are `host`), any certificate accepted. */
function viaCaddy(port: number, host: string, pathname: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        servername: host,
        headers: { host },
        rejectUnauthorized: false,
        agent: false,
        timeout: 8_000,
      },
      (res) => {
        const certificate = (res.socket as TLSSocket).getPeerCertificate();
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            certificateNames: certificate.subjectaltname ?? '',
            issuer: String(certificate.issuer?.CN ?? ''),
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from Caddy for ${host} within 8 s`)));
    req.on('error', reject);
    req.end();
  });
}

describeWithCaddy(caddyInstalled ? TITLE : `${TITLE} (skipped: caddy is not installed)`, () => {
  let db: TestDb | undefined;
  let t: TestApp | undefined;
  let caddy: ChildProcess | undefined;
  let caddyExited: Promise<unknown> = Promise.resolve();
  let caddyOutput = '';
  let tempDir: string | undefined;
  let httpsPort = 0;
  const logLines: string[] = [];

  /** The app's access-log lines for the ask endpoint: Caddy's questions and the answers it got. */
  const askAnswers = () =>
    logLines
      .map((line) => JSON.parse(line) as { route?: string; status?: number })
      .filter((line) => line.route?.includes('/short-domains/ask'))
      .map((line) => line.status);

  beforeAll(async () => {
    db = await createTestDb('sqlite');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp(db, { config: { accessLog: true }, logger: pino({ level: 'info' }, sink) });

    // An admin adds the domain for every workspace; a user makes a code on it.
    const admin = await signedInUser(t, 'caddyadmin', { isAdmin: true });
    const domain = await call(t.app, 'POST', '/api/admin/domains', {
      cookie: admin.cookie,
      json: { hostname: DOMAIN, allWorkspaces: true },
    });
    expect(domain.statusCode, domain.body).toBe(201);
    const user = await signedInUser(t, 'caddyuser');
    const code = await call(t.app, 'POST', '/api/qr-codes', {
      cookie: user.cookie,
      json: {
        name: 'Menu',
        type: 'url',
        content: DESTINATION,
        isDynamic: true,
        slug: 'menu',
        domainId: domain.json<{ id: number }>().id,
      },
    });
    expect(code.statusCode, code.body).toBe(201);
    expect(code.json<{ shortUrl: string }>().shortUrl).toBe(`http://${DOMAIN}/menu`);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const appPort = (t.app.server.address() as net.AddressInfo).port;

    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-caddy-ask-'));
    httpsPort = await freePort();
    const httpPort = await freePort();
    const caddyfile = path.join(tempDir, 'Caddyfile');
    await fs.writeFile(
      caddyfile,
      [
        '{',
        '\tadmin off',
        '\tlocal_certs',
        '\tskip_install_trust',
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        '\ton_demand_tls {',
        `\t\task http://127.0.0.1:${appPort}/api/short-domains/ask`,
        '\t}',
        '}',
        '',
        'https:// {',
        '\ttls internal {',
        '\t\ton_demand',
        '\t}',
        `\treverse_proxy 127.0.0.1:${appPort}`,
        '}',
        '',
      ].join('\n'),
    );
    const child = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      env: {
        ...process.env,
        XDG_DATA_HOME: path.join(tempDir, 'data'),
        XDG_CONFIG_HOME: path.join(tempDir, 'config'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy = child;
    let exitCode: number | null | undefined;
    caddyExited = new Promise((resolve) =>
      child.once('exit', (status) => {
        exitCode = status;
        resolve(status);
      }),
    );
    child.stdout?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (caddyOutput += chunk.toString('utf8')));

    // Caddy is ready when its https port takes connections.
    const deadline = Date.now() + 10_000;
    while (!(await canConnect(httpsPort))) {
      if (exitCode !== undefined)
        throw new Error(`caddy exited (${exitCode}) before listening:\n${caddyOutput}`);
      if (Date.now() > deadline)
        throw new Error(`caddy was not listening on ${httpsPort} after 10 s:\n${caddyOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 25_000);

  afterAll(async () => {
    if (caddy && caddy.exitCode === null && caddy.signalCode === null) {
      caddy.kill('SIGTERM');
      const killer = setTimeout(() => caddy?.kill('SIGKILL'), 3_000);
      await caddyExited;
      clearTimeout(killer);
    }
    await t?.close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  }, 15_000);

  it(`gets a certificate for ${DOMAIN}, and /menu answers 302 to the code's destination`, async () => {
    const answer = await viaCaddy(httpsPort, DOMAIN, '/menu').catch((error: unknown) => {
      throw new Error(`${String(error)}\ncaddy said:\n${caddyOutput}`);
    });
    expect(answer).toMatchObject({ status: 302, location: DESTINATION });
    // Issued on demand by Caddy's own CA for this name: Caddy asked and was told yes.
    expect(answer.certificateNames).toBe(`DNS:${DOMAIN}`);
    expect(answer.issuer).toMatch(/^Caddy Local Authority/);
    expect(askAnswers()).toEqual([200]);
  });

  it(`fails the TLS handshake for ${OTHER}: the app told Caddy no`, async () => {
    const before = askAnswers().length;
    const failure = await viaCaddy(httpsPort, OTHER, '/menu').then(
      (answer) => new Error(`expected no TLS connection, got ${JSON.stringify(answer)}`),
      (error: unknown) => error,
    );
    expect(String(failure)).not.toMatch(/expected no TLS connection|no answer from Caddy/);
    // Node says EPROTO for Caddy's TLS alert 80 (internal error), its answer to a name it may not serve.
    expect((failure as NodeJS.ErrnoException).code, String(failure)).toMatch(/^(EPROTO|ERR_SSL_\w+)$/);
    expect(askAnswers().slice(before)).toEqual([404]);
  });
});
