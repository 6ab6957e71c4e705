import type { FastifyInstance } from 'fastify';
import type { CallerFor } from '../../rest/rest-plugin.js';

type Query = { Querystring: Record<string, string> };
type IdQuery = Query & { Params: { id: string } };

/**
 * §7 Analytics: eight GET paths, each the twin of an analytics.* procedure. Query parameters:
 * `days` (1–365), `tz` (IANA zone, default UTC), `excludeBots` (true/false); `page` for a code's
 * scan history.
 */
export function analyticsRest(app: FastifyInstance, callerFor: CallerFor) {
  app.get<Query>('/api/analytics/user', async (req, reply) =>
    (await callerFor(req, reply)).analytics.user(req.query),
  );
  app.get<IdQuery>('/api/analytics/qr-codes/:id', async (req, reply) =>
    (await callerFor(req, reply)).analytics.qrCode({ ...req.query, id: req.params.id }),
  );
  app.get<IdQuery>('/api/analytics/qr-codes/:id/daily', async (req, reply) =>
    (await callerFor(req, reply)).analytics.qrCodeDaily({ ...req.query, id: req.params.id }),
  );
  app.get<Query>('/api/analytics/daily', async (req, reply) =>
    (await callerFor(req, reply)).analytics.daily(req.query),
  );
  app.get<Query>('/api/analytics/devices', async (req, reply) =>
    (await callerFor(req, reply)).analytics.devices(req.query),
  );
  app.get<Query>('/api/analytics/hourly', async (req, reply) =>
    (await callerFor(req, reply)).analytics.hourly(req.query),
  );
  app.get<Query>('/api/analytics/locations', async (req, reply) =>
    (await callerFor(req, reply)).analytics.locations(req.query),
  );
  app.get<Query>('/api/analytics/performance', async (req, reply) =>
    (await callerFor(req, reply)).analytics.performance(req.query),
  );
}
