// A slow link for bench:client: a TCP proxy in front of the server that delays and paces what crosses it,
// as a phone on a mobile network sees a server (Chromium's own network emulation stalled on this machine).
// One link per proxy, shared by every connection through it, each way: a chunk waits until the link is free,
// takes its size ÷ bandwidth to cross, then half the round trip to arrive. A new connection first waits a
// round trip (its handshake, which loopback skips).
import net from 'node:net';

/** One direction of the link: when a chunk sent now arrives. */
function link({ rttMs, bytesPerMs }) {
  let freeAt = 0;
  return (bytes, notBefore) => {
    freeAt = Math.max(performance.now(), notBefore, freeAt) + bytes / bytesPerMs;
    return freeAt + rttMs / 2;
  };
}

/** Forwards `from` to `to` through `arrival`, in order; what `from` sends before `notBefore` waits. */
function pipe(from, to, arrival, notBefore) {
  const queue = [];
  let timer = null;
  const pump = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0].at <= now) {
      const { chunk } = queue.shift();
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    if (queue.length > 0) timer = setTimeout(pump, queue[0].at - now);
  };
  const push = (at, chunk) => {
    queue.push({ at, chunk });
    if (timer === null) timer = setTimeout(pump, Math.max(0, at - performance.now()));
  };
  // Pieces of at most 16 KB, so that the connections through the link take turns.
  from.on('data', (data) => {
    for (let i = 0; i < data.length; i += 16384) {
      const chunk = data.subarray(i, i + 16384);
      push(arrival(chunk.length, notBefore), chunk);
    }
  });
  from.on('end', () => push(Math.max(queue.at(-1)?.at ?? 0, arrival(0, notBefore)), null));
}

/**
 * Starts a proxy to 127.0.0.1:`port` on a free loopback port: `{ url, close() }`. Defaults: 150 ms round
 * trip, 1.6 Mbit/s each way.
 */
export async function startThrottle(port, { rttMs = 150, kbitPerSecond = 1600 } = {}) {
  const bytesPerMs = (kbitPerSecond * 1000) / 8 / 1000;
  const down = link({ rttMs, bytesPerMs });
  const up = link({ rttMs, bytesPerMs });
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    const open = performance.now() + rttMs;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream, up, open);
    pipe(upstream, client, down, open);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    rttMs,
    kbitPerSecond,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
