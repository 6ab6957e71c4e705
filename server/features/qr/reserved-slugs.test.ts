import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESERVED_SLUGS } from '../../../src/qr/slug.js';
import { createTestApp } from '../../test/test-app.js';
import { createTestDb } from '../../test/test-db.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** The first segment of each path, without parameters (`/edit-qr/$id` → `edit-qr`). */
const firstSegments = (paths: Iterable<string>) =>
  new Set(
    [...paths]
      .map((p) => p.split('/').find((part) => part !== '') ?? '')
      .filter((s) => s !== '' && !s.startsWith('$') && !s.startsWith(':') && s !== '*'),
  );

describe('the reserved back-halves', () => {
  it("hold the first segment of every page of the app, so a short link never takes one's name", () => {
    const routes = fs.readFileSync(path.join(root, 'client/routes.ts'), 'utf8');
    const paths = [...routes.matchAll(/(?:path: |(?:appPage|adminPage)\()'(\/[^']*)'/g)].map((m) => m[1]!);
    // The reading of the route file itself is checked: it finds the pages every version has.
    expect(paths).toEqual(expect.arrayContaining(['/auth', '/create', '/my-qr-codes', '/analytics']));
    const pages = firstSegments(paths);
    expect([...pages].filter((s) => !RESERVED_SLUGS.has(s.toLowerCase()))).toEqual([]);
  });

  it("hold the first segment of every path the server answers besides the short link's", async () => {
    const testDb = await createTestDb('sqlite');
    const t = await createTestApp(testDb);
    try {
      const paths: string[] = [];
      // printRoutes draws a tree; its lines name each route's path from the root when not compressed.
      for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
        const match = /^[└├]── (\/\S*)/.exec(line);
        if (match) paths.push(match[1]!);
      }
      expect(paths).toEqual(expect.arrayContaining(['/api/user', '/trpc/:path', '/healthz']));
      const served = firstSegments(paths);
      expect([...served].filter((s) => !RESERVED_SLUGS.has(s.toLowerCase()))).toEqual([]);
    } finally {
      await t.close();
      await testDb.close();
    }
  });
});
