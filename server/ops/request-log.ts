import type { FastifyInstance } from 'fastify';
import { maskIp } from '../../src/analytics/mask-ip.js';
import type { Config } from '../config.js';

/**
 * What the log says about requests. Fastify's own two lines per request (with the full URL, its query
 * string and the client's address) are off; instead, one line per request when ACCESS_LOG is on, and a
 * warning for any request slower than SLOW_REQUEST_MS whatever the setting (errors are logged where they
 * are handled). A line names the route pattern (`/api/qr-codes/:id`), never the query string — where
 * reset and verification tokens travel — and the client's address only as the settings allow: masked
 * when ANONYMIZE_IPS is on.
 */
export function registerRequestLog(
  app: FastifyInstance,
  config: Pick<Config, 'accessLog' | 'slowRequestMs' | 'anonymizeIps'>,
): void {
  const { accessLog, slowRequestMs, anonymizeIps } = config;
  // A callback hook: it runs after every request, each scan included, so no promise per call.
  app.addHook('onResponse', (req, reply, done) => {
    const ms = reply.elapsedTime;
    const slow = ms >= slowRequestMs;
    if (accessLog || slow) {
      const line = {
        method: req.method,
        route: req.routeOptions.url ?? req.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(ms * 10) / 10,
        ip: anonymizeIps ? maskIp(req.ip) : req.ip,
      };
      if (slow) req.log.warn(line, 'slow request');
      else req.log.info(line, 'request');
    }
    done();
  });
}
