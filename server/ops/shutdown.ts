import { LogController, type FastifyInstance } from 'fastify';

/** What a shutdown did, for the one line main.ts logs once the app and the database are closed. */
export interface ShutdownSummary {
  /** Requests answered after the close began: the ones in flight then (and their pipelined followers). */
  finishedInFlight: number;
  /** Requests that arrived on an open connection while closing, answered 503 without a log line each. */
  refused: number;
  /** Milliseconds from the start of the close to this summary. */
  ms: number;
}

interface Tracker {
  closingSince: number | undefined;
  finishedInFlight: number;
  refused: number;
}

const trackers = new WeakMap<FastifyInstance, Tracker>();

/**
 * Shutdown accounting for one app. Fastify logs a line for every request refused while it closes (a
 * busy server behind a proxy can write thousands); the log controller returned counts them instead.
 * Pass it to Fastify(), then `register` the app; `shutdownSummary(app)` tells what the close did.
 */
export function trackShutdown(): {
  logController: LogController;
  register(app: FastifyInstance): void;
} {
  const tracker: Tracker = { closingSince: undefined, finishedInFlight: 0, refused: 0 };
  class CountingLogController extends LogController {
    override serviceUnavailable(): void {
      tracker.refused += 1;
    }
  }
  return {
    // Fastify's two lines per request carry the full URL and address: registerRequestLog writes ours.
    logController: new CountingLogController({ disableRequestLogging: true }),
    register(app) {
      trackers.set(app, tracker);
      app.addHook('preClose', (done) => {
        tracker.closingSince = performance.now();
        done();
      });
      // A callback hook and one comparison: it runs after every request, each scan included.
      app.addHook('onResponse', (_req, _reply, done) => {
        if (tracker.closingSince !== undefined) tracker.finishedInFlight += 1;
        done();
      });
    },
  };
}

/** What the close of `app` did so far (zeros before it began). */
export function shutdownSummary(app: FastifyInstance): ShutdownSummary {
  const tracker = trackers.get(app);
  const since = tracker?.closingSince;
  return {
    finishedInFlight: tracker?.finishedInFlight ?? 0,
    refused: tracker?.refused ?? 0,
    ms: since === undefined ? 0 : Math.round(performance.now() - since),
  };
}
