import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RuntimeDeps } from '../app-deps.js';
import { adminRoutes } from '../features/admin/admin.rest.js';
import { shortDomainRoutes } from '../features/domains/short-domains.rest.js';
import { importRoutes } from '../features/imports/imports.rest.js';
import { destinationCheckRoutes } from '../features/destination-checks/destination-checks.rest.js';
import { webhookRoutes } from '../features/webhooks/webhooks.rest.js';
import { forwardingRoutes } from '../features/forwarding/forwarding.rest.js';
import { shareRoutes } from '../features/shares/shares.rest.js';
import { billingRoutes } from '../features/billing/billing.rest.js';
import { tokensRoutes } from '../features/tokens/tokens.rest.js';
import { accountRoutes } from '../features/account/account.rest.js';
import { analyticsRoutes } from '../features/analytics/analytics.rest.js';
import { exportRoutes } from '../features/analytics/export.rest.js';
import { authRoutes } from '../features/auth/auth.rest.js';
import { twoFactorRoutes } from '../features/auth/two-factor.rest.js';
import { bulkRoutes } from '../features/qr/bulk.rest.js';
import { foldersRoutes } from '../features/folders/folders.rest.js';
import { qrRoutes } from '../features/qr/qr.rest.js';
import { uploadsRoutes } from '../features/uploads/uploads.rest.js';
import { workspacesRoutes } from '../features/workspaces/workspaces.rest.js';
import { bearerOf } from '../features/tokens/tokens.service.js';
import { authenticateBearer } from '../trpc/context.js';
import { defineRoute, handlerOf, v1PathOf, type AnyRestRoute, type RouteTable } from './rest-kit.js';
import { openApiDocument } from './openapi.js';

/**
 * Every documented /api path, one table per feature, each under the heading the API reference shows.
 * Most call their tRPC procedure, so the two front doors cannot drift.
 */
export const restTables: readonly RouteTable[] = [
  { tag: 'Sign-in', routes: authRoutes },
  { tag: 'Two-factor sign-in', routes: twoFactorRoutes },
  { tag: 'Account', routes: accountRoutes },
  { tag: 'QR codes', routes: qrRoutes },
  { tag: 'Bulk creation', routes: bulkRoutes },
  { tag: 'Folders', routes: foldersRoutes },
  { tag: 'Uploads', routes: uploadsRoutes },
  { tag: 'Analytics', routes: analyticsRoutes },
  { tag: 'Reports', routes: exportRoutes },
  { tag: 'Plans and billing', routes: billingRoutes },
  { tag: 'API tokens', routes: tokensRoutes },
  { tag: 'Workspaces', routes: workspacesRoutes },
  { tag: 'Short domains', routes: shortDomainRoutes },
  { tag: 'Imports', routes: importRoutes },
  { tag: 'Destination checks', routes: destinationCheckRoutes },
  { tag: 'Webhooks', routes: webhookRoutes },
  { tag: 'Analytics forwarding', routes: forwardingRoutes },
  { tag: 'Shared dashboards', routes: shareRoutes },
  { tag: 'Admin', routes: adminRoutes },
  {
    tag: 'Reference',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/api/openapi.json',
        summary: 'This API as an OpenAPI 3.1 document, made from the route table the server registers.',
        access: 'public',
        answer: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
        handler: ({ ctx }) => openApiDocument(restTables, ctx.config.publicUrl),
      }),
    ],
  },
];

export const restRoutes: readonly AnyRestRoute[] = restTables.flatMap((table) => table.routes);

/**
 * Each route at its spec path and at `/api/v1/…` (the versioned path: the same answer, a body closed to
 * unknown fields). A route that takes API tokens looks the token up as the request arrives, so that the
 * rate limit counts every request, even one refused before its body is read (415, 413, bad JSON).
 */
function register(app: FastifyInstance, route: AnyRestRoute, deps: RuntimeDeps) {
  const countToken = route.tokens
    ? async (req: FastifyRequest, reply: FastifyReply) => {
        const bearer = bearerOf(req.headers.authorization);
        if (bearer !== undefined) await authenticateBearer(deps, req, reply, bearer);
      }
    : undefined;
  for (const [url, strict] of [
    [route.path, false],
    [v1PathOf(route.path), true],
  ] as const) {
    app.route({
      method: route.method,
      url,
      exposeHeadRoute: route.head ?? route.method === 'GET',
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      ...(countToken ? { onRequest: countToken } : {}),
      handler: handlerOf(route, deps, strict),
    });
  }
}

export function restPlugin(deps: RuntimeDeps) {
  return async (app: FastifyInstance) => {
    for (const route of restRoutes.filter((r) => !r.multipart && !r.rawBody)) register(app, route, deps);
    // A webhook's signature covers its exact bytes: its JSON is read unparsed, only on its own paths.
    await app.register((raw, _options, done) => {
      raw.removeContentTypeParser('application/json');
      raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      for (const route of restRoutes.filter((r) => r.rawBody)) register(raw, route, deps);
      done();
    });
    // Multipart is parsed only where a route takes a file: every other path keeps answering 415 to anything but JSON.
    const multipartRoutes = restRoutes.filter((r) => r.multipart);
    const fileSize = Math.max(0, ...multipartRoutes.map((r) => r.multipart?.maxBytes ?? 0));
    await app.register(async (uploads) => {
      await uploads.register(fastifyMultipart, { limits: { fileSize, files: 1, fields: 0, parts: 1 } });
      for (const route of multipartRoutes) register(uploads, route, deps);
    });
  };
}
