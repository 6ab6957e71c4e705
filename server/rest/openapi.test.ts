import { describe, expect, it } from 'vitest';
import { call, createTestApp } from '../test/test-app.js';
import { createTestDb } from '../test/test-db.js';
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
      const served = restRoutes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
      expect(documented.sort()).toEqual(served.sort());
      for (const route of restRoutes) {
        const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
        if (route.path.includes(':id'))
          expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
        if (route.body) expect(op.requestBody, route.path).toBeDefined();
        expect(op.security.length > 0, route.path).toBe(route.access !== 'public');
      }
      const create = doc.paths['/api/qr-codes']!.post!;
      expect(JSON.stringify(create.requestBody)).toContain('"name"');
      const list = doc.paths['/api/admin/users']!.get!;
      expect(list.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(['search', 'sort', 'page', 'pageSize']),
      );
    } finally {
      await t.close();
      await db.close();
    }
  });
});
