import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorCodes } from '../../src/api/error-codes.js';
import { folderSchema } from '../../src/qr/qr.schema.js';
import { call, createTestApp } from '../test/test-app.js';
import { createTestDb } from '../test/test-db.js';
import { addFormats, answerProblem, REQUIRE } from '../test/answer-check.js';
import { examples } from './examples.js';
import { documentPathOf, openApiDocument } from './openapi.js';
import { operationIds, operationKey } from './operation-ids.js';
import { defineRoute, type RouteTable } from './rest-kit.js';
import { restRoutes, restTables } from './rest-plugin.js';

interface Doc {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters: { name: string; in: string }[]; requestBody?: unknown; security: unknown[] }>
  >;
}

describe('GET /api/openapi.json', () => {
  it('documents every route of the table, with its parameters, body and security, and nothing else', async () => {
    const db = await createTestDb('sqlite');
    const t = await createTestApp(db);
    try {
      const res = await call(t.app, 'GET', '/api/openapi.json');
      expect(res.statusCode).toBe(200);
      const doc = res.json<Doc>();
      expect(doc.openapi).toBe('3.1.0');
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      );
      const served = restRoutes.map((r) => `${r.method} ${documentPathOf(r.path)}`);
      expect(documented.sort()).toEqual(served.sort());
      for (const route of restRoutes) {
        const op = doc.paths[documentPathOf(route.path)]![route.method.toLowerCase()]!;
        if (route.path.includes(':id'))
          expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
        if (route.body) expect(op.requestBody, route.path).toBeDefined();
        expect(op.security.length > 0, route.path).toBe(route.access !== 'public');
      }
      const create = doc.paths['/api/v1/qr-codes']!.post!;
      expect(JSON.stringify(create.requestBody)).toContain('"name"');
      const list = doc.paths['/api/v1/admin/users']!.get!;
      expect(list.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(['search', 'sort', 'page', 'pageSize']),
      );
    } finally {
      await t.close();
      await db.close();
    }
  });
});

describe('answers are checked against the document', () => {
  it('every route declares its success answer: JSON with a schema, or the file types it sends', () => {
    const undeclared = restRoutes
      // 204 No Content: nothing to declare.
      .filter((r) => r.status !== 204 && !r.answer === !r.produces)
      .map((r) => `${r.method} ${r.path}`);
    expect(undeclared).toEqual([]);
  });

  it('reports an answer that drifts from its schema, an undeclared status and a wrong content type', () => {
    const folder = { id: 1, name: 'Work', created: '2026-01-01T00:00:00.000Z', qrCodeCount: 0 };
    const json = 'application/json; charset=utf-8';
    expect(answerProblem('POST', '/api/folders', 201, json, JSON.stringify(folder))).toBeNull();
    // A field the schema does not know (say, a leaked column) and a missing one are both caught.
    expect(
      answerProblem('POST', '/api/folders', 201, json, JSON.stringify({ ...folder, userId: 7 })),
    ).toMatch(/additional/);
    expect(answerProblem('POST', '/api/folders', 201, json, JSON.stringify({ id: 1, name: 'Work' }))).toMatch(
      /created/,
    );
    expect(answerProblem('POST', '/api/folders', 200, json, JSON.stringify(folder))).toMatch(
      /does not declare/,
    );
    expect(answerProblem('GET', '/api/qr-codes/:id/image', 200, 'text/html', '<p>')).toMatch(/image\/png/);
    expect(answerProblem('GET', '/api/qr-codes/:id/image', 200, 'image/png', '')).toBeNull();
    // Any error, declared or not, carries the error body.
    expect(answerProblem('GET', '/api/folders', 500, json, '{"error":"boom"}')).toMatch(/message/);
    expect(
      answerProblem('GET', undefined, 404, json, JSON.stringify({ message: 'Not found', code: 'NOT_FOUND' })),
    ).toBeNull();
  });
});

describe('GET /api/docs', () => {
  it('serves the reference page and its renderer from our own origin, with no address on the internet', async () => {
    const db = await createTestDb('sqlite');
    const t = await createTestApp(db);
    try {
      const page = await call(t.app, 'GET', '/api/docs');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("img-src 'self' data:;");
      expect(page.body).toContain('<title>QR Creator API</title>');
      expect(page.body).toContain('<script src="/api/docs/redoc.standalone.js"></script>');
      expect(page.body).toContain('<script src="/api/docs/init.js"></script>');
      const init = await call(t.app, 'GET', '/api/docs/init.js');
      expect(init.statusCode).toBe(200);
      expect(init.headers['content-type']).toMatch(/^text\/javascript/);
      // The heading reads "QR Creator API", not "QR Creator API (1)": the rendered copy drops the version.
      expect(init.body).toContain("fetch('/api/openapi.json')");
      expect(init.body).toContain("version: ''");
      const script = await call(t.app, 'GET', '/api/docs/redoc.standalone.js');
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
      expect(script.body.length).toBeGreaterThan(100_000);
      expect(script.body).not.toContain('cdn.redoc.ly');
    } finally {
      await t.close();
      await db.close();
    }
  });
});

describe('the curl example', () => {
  it("uses this server's own PUBLIC_URL", async () => {
    const db = await createTestDb('sqlite');
    const t = await createTestApp(db, { config: { publicUrl: 'https://codes.example.org' } });
    try {
      const doc = (await call(t.app, 'GET', '/api/openapi.json')).json<{
        info: { title: string; version: string; description: string };
        servers: { url: string }[];
      }>();
      expect(doc.info.title).toBe('QR Creator API');
      expect(doc.servers).toEqual([{ url: 'https://codes.example.org' }]);
      expect(doc.info.description).toContain('https://codes.example.org/api/v1/qr-codes');
      expect(doc.info.description).not.toMatch(/localhost|qr\.example\.com/);
    } finally {
      await t.close();
      await db.close();
    }
  });
});

// ---- A document generators love ----

interface Media {
  schema?: Record<string, unknown>;
  example?: unknown;
}
interface FullOperation {
  operationId: string;
  deprecated?: boolean;
  parameters: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, { $ref: string }>; content?: Record<string, Media> }>;
}
interface FullDoc {
  info: { version: string; description: string };
  paths: Record<string, Record<string, FullOperation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }>;
    headers: Record<string, unknown>;
    parameters: Record<string, unknown>;
  };
}

const doc = openApiDocument(restTables, 'http://localhost') as unknown as FullDoc;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

describe('operationIds', () => {
  it('names every route with an identifier of its own, from the table in operation-ids.ts', () => {
    const ids = restRoutes.map((route) => operationIds[operationKey(route)]);
    expect(restRoutes.filter((route) => !operationIds[operationKey(route)]).map(operationKey)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id!))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // No stale entry for a route that is gone.
    const keys = new Set(restRoutes.map(operationKey));
    expect(Object.keys(operationIds).filter((key) => !keys.has(key))).toEqual([]);
    expect(doc.paths['/api/v1/qr-codes']!.get!.operationId).toBe('listQrCodes');
    expect(doc.paths['/api/v1/qr-codes/{id}']!.put!.operationId).toBe('updateQrCode');
  });
});

/** Every object of `value` with the property `name`, and where it sits. */
function placesWithProperty(value: unknown, name: string, where = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  const own =
    'properties' in value && name in ((value as { properties: object }).properties ?? {}) ? [where] : [];
  return [
    ...own,
    ...Object.entries(value).flatMap(([key, inner]) => placesWithProperty(inner, name, `${where}/${key}`)),
  ];
}

describe('named component schemas', () => {
  it('publishes the answers a client needs by name, and references them instead of copying them', () => {
    for (const name of [
      'QrCode',
      'Folder',
      'Scan',
      'AnalyticsSummary',
      'User',
      'ApiToken',
      'Workspace',
      'Error',
      'Customization',
      'SmartRedirect',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    // Properties only the named answers have: none is written out again under paths.
    for (const property of [
      'shortUrl',
      'hasUnlimitedAccess',
      'qrCodeCount',
      'recoveryCodesLeft',
      'lastUsedAt',
    ]) {
      const answers = operations.map(({ op }) => op.responses);
      expect(placesWithProperty(answers, property), property).toEqual([]);
    }
    const get = doc.paths['/api/v1/qr-codes/{id}']!.get!.responses['200']!.content!['application/json']!;
    expect(get.schema).toEqual({ $ref: '#/components/schemas/QrCode' });
    const list = doc.paths['/api/v1/qr-codes']!.get!.responses['200']!.content!['application/json']!;
    expect(list.schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/QrCode' } });
  });

  it('declares dates as date-time, and the error code as one of the catalogue', () => {
    const qrCode = doc.components.schemas.QrCode as { properties: Record<string, { format?: string }> };
    expect(qrCode.properties.created!.format).toBe('date-time');
    expect(qrCode.properties.updated!.format).toBe('date-time');
    expect(qrCode.properties.shortUrl!.format).toBe('uri');
    const token = doc.components.schemas.ApiToken as { properties: Record<string, { format?: string }> };
    expect(token.properties.expiresAt!.format).toBe('date-time');
    expect(doc.components.schemas.Error!.properties!.code!.enum).toEqual(Object.keys(errorCodes));
    expect(doc.info.version).toBe('1');
    for (const code of Object.keys(errorCodes)) expect(doc.info.description).toContain(`| \`${code}\` |`);
  });
});

describe('examples', () => {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  ajv.addSchema({ ...doc, $id: 'doc' });
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const pointerOf = (path: string, method: string, rest: string) =>
    `doc#/paths/${escape(path)}/${method}/${rest}`;

  it('gives every JSON body and every JSON success answer an example that its schema accepts', () => {
    const missing: string[] = [];
    const invalid: string[] = [];
    for (const { path, method, op } of operations) {
      const body = op.requestBody?.content['application/json'];
      const route = restRoutes.find(
        (r) => documentPathOf(r.path) === path && r.method.toLowerCase() === method,
      )!;
      const status = String(route.status ?? 200);
      const success = op.responses[status]!;
      const answer = success.content?.['application/json'];
      const checks = [
        ['body', body, 'requestBody/content/application~1json'],
        [
          'answer',
          op.operationId === 'exportAnalyticsReport' ? undefined : answer,
          `responses/${status}/content/application~1json`,
        ],
      ] as const;
      for (const [what, media, pointer] of checks) {
        if (!media) continue;
        if (media.example === undefined) {
          missing.push(`${op.operationId} ${what}`);
          continue;
        }
        const validate = ajv.getSchema(pointerOf(path, method, `${pointer}/schema`))!;
        if (!validate(media.example))
          invalid.push(`${op.operationId} ${what}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
    // Every example belongs to an operation.
    const ids = new Set(operations.map(({ op }) => op.operationId));
    expect(Object.keys(examples).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('would catch a wrong example: a date that is no date, a missing field, an unknown type', () => {
    const validate = ajv.getSchema('doc#/components/schemas/QrCode')!;
    const code = examples.getQrCode!.answer as Record<string, unknown>;
    expect(validate(code)).toBe(true);
    expect(validate({ ...code, created: 'yesterday' })).toBe(false);
    expect(validate({ ...code, type: 'banana' })).toBe(false);
    const { name: _name, ...nameless } = code;
    expect(validate(nameless)).toBe(false);
  });
});

describe('headers and statuses', () => {
  const headersOf = (response: { headers?: Record<string, unknown> } | undefined) =>
    Object.keys(response?.headers ?? {});

  it('declares rate limits on token calls, Retry-After on 429, WWW-Authenticate on 401, files and bodies', () => {
    const list = doc.paths['/api/v1/qr-codes']!.get!;
    expect(headersOf(list.responses['200'])).toEqual(
      expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(headersOf(list.responses['429'])).toContain('Retry-After');
    expect(headersOf(list.responses['401'])).toEqual(['WWW-Authenticate']);
    const image = doc.paths['/api/v1/qr-codes/{id}/image']!.get!;
    expect(headersOf(image.responses['200'])).toContain('Content-Disposition');
    const create = doc.paths['/api/v1/qr-codes']!.post!;
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(headersOf(create.responses['201'])).toContain('Idempotent-Replayed');
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '413', '415', '422']));
    const logo = doc.paths['/api/v1/upload/logo']!.post!;
    expect(Object.keys(logo.responses)).toEqual(expect.arrayContaining(['413', '415']));
    for (const name of [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'WWW-Authenticate',
      'Content-Disposition',
      'X-Total-Count',
      'Link',
      'Idempotent-Replayed',
      'Deprecation',
      'Sunset',
    ]) {
      expect(doc.components.headers[name], name).toBeDefined();
    }
  });

  it('declares the JSON report as JSON with its schema, the other formats as files', () => {
    const report = doc.paths['/api/v1/analytics/export']!.get!.responses['200']!.content!;
    expect(report['application/json']!.schema).toEqual({ $ref: '#/components/schemas/AnalyticsReport' });
    const json = doc.components.schemas.AnalyticsReport as { type: string; required: string[] };
    expect(json.type).toBe('object');
    expect(json.required).toEqual(expect.arrayContaining(['summary', 'daily', 'performance']));
    expect(report['application/pdf']!.schema).toMatchObject({ format: 'binary' });
  });

  it('declares paging on a paged list and the deprecation headers on a deprecated path', () => {
    const base = {
      summary: 'A list.',
      access: 'user',
      tokens: 'read',
      answer: z.array(folderSchema),
      handler: () => [],
    } as const;
    const tables: RouteTable[] = [
      {
        tag: 'Test',
        routes: [
          defineRoute({ ...base, method: 'GET', path: '/api/folders', paged: true }),
          defineRoute({
            ...base,
            method: 'GET',
            // A path of the real table, for its operationId.
            path: '/api/qr-codes',
            deprecated: { since: '2026-12-01', sunset: '2027-06-01' },
          }),
        ],
      },
    ];
    const testDoc = openApiDocument(tables, 'http://localhost') as unknown as FullDoc;
    const paged = testDoc.paths['/api/v1/folders']!.get!;
    expect(headersOf(paged.responses['200'])).toEqual(expect.arrayContaining(['X-Total-Count', 'Link']));
    expect(paged.deprecated).toBeUndefined();
    const old = testDoc.paths['/api/v1/qr-codes']!.get!;
    expect(old.deprecated).toBe(true);
    expect(headersOf(old.responses['200'])).toEqual(
      expect.arrayContaining(['Deprecation', 'Sunset', 'Link']),
    );
  });
});

describe('answer-check', () => {
  const json = 'application/json; charset=utf-8';
  const folders = JSON.stringify([]);
  // A paged list's answer (server/rest/paging.ts) always carries these.
  const page = {
    'x-total-count': '0',
    link: '<http://localhost/api/v1/folders?page=1>; rel="first", <http://localhost/api/v1/folders?page=1>; rel="last"',
  };

  it('maps /api and /api/v1 onto the same documented path', () => {
    expect(answerProblem('GET', '/api/folders', 200, json, folders, { headers: page })).toBeNull();
    expect(answerProblem('GET', '/api/v1/folders', 200, json, folders, { headers: page })).toBeNull();
    expect(answerProblem('GET', '/api/v1/folders', 200, json, folders, { headers: {} })).toMatch(
      /no X-Total-Count header/,
    );
    expect(answerProblem('GET', '/api/v1/folders', 201, json, folders)).toMatch(/does not declare/);
  });

  it('checks the headers the document declares, and requires the rate limit on a token call', () => {
    const rate = {
      ...page,
      'ratelimit-limit': '600',
      'ratelimit-remaining': '599',
      'ratelimit-reset': '42',
    };
    expect(
      answerProblem('GET', '/api/folders', 200, json, folders, { headers: rate, tokenCall: true }),
    ).toBeNull();
    expect(
      answerProblem('GET', '/api/folders', 200, json, folders, {
        headers: { ...rate, 'ratelimit-remaining': 'lots' },
        tokenCall: true,
      }),
    ).toMatch(/RateLimit-Remaining/);
    expect(
      answerProblem('GET', '/api/folders', 200, json, folders, { headers: {}, tokenCall: true }),
    ).toMatch(/no RateLimit-Limit header/);
    // A session call carries none.
    expect(answerProblem('GET', '/api/folders', 200, json, folders, { headers: page })).toBeNull();
    const limited = JSON.stringify({ message: 'Too many requests', code: 'RATE_LIMITED' });
    expect(
      answerProblem('GET', '/api/folders', 429, json, limited, { headers: rate, tokenCall: true }),
    ).toMatch(/no Retry-After header/);
    expect(
      answerProblem('GET', '/api/qr-codes/:id/image', 200, 'image/png', '', {
        headers: { 'content-disposition': 'form-data; name="x"' },
      }),
    ).toMatch(/Content-Disposition/);
  });

  it('keeps each promise the server does not keep yet behind a named flag', () => {
    // Flip these in server/test/answer-check.ts as the server starts sending what the document declares.
    expect(Object.keys(REQUIRE).sort()).toEqual(
      [
        'catalogueCodes',
        'pagingHeaders',
        'rateLimitOnEveryTokenAnswer',
        'retryAfter',
        'wwwAuthenticate',
      ].sort(),
    );
  });
});

describe('generated clients', () => {
  it('openapi-typescript validates the document (OpenAPI 3.1, Redocly) and types every named schema and operation', async () => {
    const text = astToString(await openapiTS(doc as never, { silent: true }));
    expect(text).toMatch(/^\s+QrCode: \{/m);
    expect(text).toMatch(/^\s+listQrCodes: \{/m);
    expect(text).toContain('components["schemas"]["QrCode"][]');
    expect(text).toContain('created: string;');
  }, 60_000);
});

describe('docs/api.md', () => {
  it('lists the error codes exactly as the catalogue has them', async () => {
    const text = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const table = text.split('<!-- error-codes -->')[1]?.split('<!-- /error-codes -->')[0] ?? '';
    const cells = (line: string) =>
      line
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, '|'));
    const rows = table
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => cells(line.trim()));
    expect(rows).toEqual(
      Object.entries(errorCodes).map(([code, { status, description }]) => [
        `\`${code}\``,
        String(status),
        description,
      ]),
    );
  });
});
