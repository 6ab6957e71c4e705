import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
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

type LogArgs = Parameters<FastifyBaseLogger['info']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * Fastify gives every request a child logger bound to its id (pino's `child`, about a microsecond and a
 * few objects), and most requests — every scan among them — never write a line. This one makes the
 * child when the request first logs, with the same bindings and options, so a line reads as before.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.real.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  fatal(...args: LogArgs) {
    this.real.fatal(...args);
  }
  error(...args: LogArgs) {
    this.real.error(...args);
  }
  warn(...args: LogArgs) {
    this.real.warn(...args);
  }
  info(...args: LogArgs) {
    this.real.info(...args);
  }
  debug(...args: LogArgs) {
    this.real.debug(...args);
  }
  trace(...args: LogArgs) {
    this.real.trace(...args);
  }
  silent(...args: LogArgs) {
    this.real.silent(...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made on first use (RequestLogger). */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options);
