// Stopping (SIGTERM → main.ts → app.close()): the request in flight is answered, requests that still
// arrive are refused with a 503 but without a log line each, and shutdownSummary tells main.ts what the
// close did for its one "stopped" line.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { expect, it, vi } from 'vitest';
import { shutdownSummary } from './ops/shutdown.js';
import { createTestApp } from './test/test-app.js';
import { createTestDb } from './test/test-db.js';

it('finishes the request in flight, refuses later ones without a line each, and sums the close up', async () => {
  const lines: { msg?: string }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as { msg?: string }) },
  );
  let entered!: () => void;
  let release!: () => void;
  const inFlight = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const db = await createTestDb('sqlite');
  try {
    // GET /readyz waits on its database ping: held here, it is a request in flight.
    const t = await createTestApp(db, {
      logger,
      ping: () => {
        entered();
        return gate;
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    const socketClosed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /readyz HTTP/1.1\r\nHost: qr.test\r\n\r\n');
    await inFlight;
    expect(shutdownSummary(t.app)).toEqual({ finishedInFlight: 0, refused: 0, ms: 0 });

    const closing = t.close();
    await vi.waitFor(() => expect(t.app.server.listening).toBe(false));
    // Pipelined on the busy connection, the one a closing server still reads: each is refused.
    socket.write('GET /healthz HTTP/1.1\r\nHost: qr.test\r\n\r\n'.repeat(3));
    await vi.waitFor(() => expect(shutdownSummary(t.app).refused).toBe(3));
    release();
    await closing;
    await socketClosed;

    // The first 503 says `Connection: close`, so the connection ends after it.
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
    expect(statuses).toEqual(['200', '503']);
    const { ms, ...counts } = shutdownSummary(t.app);
    expect(counts).toEqual({ finishedInFlight: 1, refused: 3 });
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(lines.filter((line) => /closing|refus|aborted/i.test(line.msg ?? ''))).toEqual([]);
  } finally {
    release();
    await db.close();
  }
});
