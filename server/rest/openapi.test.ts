import { describe, expect, it } from 'vitest';
import { call, createTestApp } from '../test/test-app.js';
import { createTestDb } from '../test/test-db.js';
import { answerProblem } from '../test/answer-check.js';
import { documentPathOf } from './openapi.js';
import { restRoutes } from './rest-plugin.js';

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
      .filter((r) => !r.answer === !r.produces)
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
