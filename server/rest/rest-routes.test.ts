import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { describeOnSqlite } from '../test/test-db.js';
import { restRoutes } from './rest-plugin.js';

/** A concrete URL of a route, with a path parameter that is not even a valid id. */
const urlOf = (path: string) => path.replace(/:[a-zA-Z]+/g, 'not-an-id');

describe('the REST route table', () => {
  it('declares each method and path once, with a summary', () => {
    const keys = restRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of restRoutes)
      expect(route.summary.length, `${route.method} ${route.path}`).toBeGreaterThan(10);
  });

  it('declares the schema of every path parameter', () => {
    for (const route of restRoutes.filter((r) => r.path.includes(':'))) {
      expect(route.params, `${route.method} ${route.path}`).toBeDefined();
    }
  });
});

describeOnSqlite('REST routes and who may call them', (getDb) => {
  const t = useTestApp(getDb);

  it('answers 401 "Not signed in" to a signed-out caller on every route that needs a user, before reading the input', async () => {
    const guarded = restRoutes.filter((r) => r.access !== 'public');
    expect(guarded.length).toBeGreaterThan(20);
    for (const route of guarded) {
      const res = await t().app.inject({
        method: route.method,
        url: urlOf(route.path),
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload: '"not an object"' }),
      });
      expect([route.method, route.path, res.statusCode], res.body).toEqual([route.method, route.path, 401]);
      expect(res.json()).toEqual({ message: 'Not signed in', code: 'NOT_SIGNED_IN' });
    }
  });

  it('serves every public route without a session (no 401, no 404 but for a thing it names, no 500)', async () => {
    for (const route of restRoutes.filter((r) => r.access === 'public')) {
      const res = await t().app.inject({
        method: route.method,
        url: urlOf(route.path),
        ...(route.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, payload: '{}' }),
      });
      expect([
        route.method,
        route.path,
        // A shared dashboard's unknown token is 404 like a revoked one.
        res.statusCode < 500 &&
          res.statusCode !== 401 &&
          (res.statusCode !== 404 || route.object === 'sharedDashboard'),
      ]).toEqual([route.method, route.path, true]);
    }
  });
});
