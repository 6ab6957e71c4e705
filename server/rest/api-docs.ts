import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';

/**
 * The API reference at /api/docs: Redoc's standalone bundle, served from our own origin (nothing from the
 * internet), rendering /api/openapi.json. The page keeps the app's policy, with images limited to our own
 * origin; the one address the bundle would fetch from the internet (its "powered by" logo) is replaced
 * with an empty image when the bundle is first asked for, then kept in memory.
 */

const bundlePath = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
const REMOTE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
let bundle: Promise<string> | undefined;
const bundleText = () =>
  (bundle ??= readFile(bundlePath, 'utf8').then((code) => code.replaceAll(REMOTE_LOGO, EMPTY_SVG)));

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>QR Creator API reference</title>
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
  </head>
  <body>
    <redoc spec-url="/api/openapi.json" expand-responses="200,201" path-in-middle-panel="true" required-props-first="true"></redoc>
    <script src="/api/docs/redoc.standalone.js"></script>
  </body>
</html>
`;

const policy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'";

export function registerApiDocs(app: FastifyInstance): void {
  app.get('/api/docs', (_req, reply) =>
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', policy)
      .header('X-Frame-Options', 'DENY')
      .header('Cache-Control', 'no-cache')
      .send(page),
  );
  app.get('/api/docs/redoc.standalone.js', async (_req, reply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=86400')
      .send(await bundleText()),
  );
}
