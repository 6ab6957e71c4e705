import fc from 'fast-check';
import type { z } from 'zod';
import type { Database } from '../db/database.js';
import type { AnyRestRoute } from '../rest/rest-kit.js';
import { restRoutes } from '../rest/rest-plugin.js';
import { insertFolderRow, insertQrRow } from './fixtures.js';
import { signedInUser, type TestApp } from './test-app.js';
import { countRows } from './test-db.js';

/**
 * Fuzzing every REST route: bodies, path parameters and queries derived from each route's schema (its field
 * names, filled with hostile values: wrong types, huge and odd strings, deep nesting, `__proto__` keys,
 * unicode edge cases, numbers written as `1e3`, `0x10`, `-0`, repeated query keys), sent through the real
 * server. Never a 5xx, never a hang, and a refused request changes nothing.
 */

/** Routes left out: they end the caller's session, so every later request would only measure a 401. */
const SKIPPED = new Set([
  'POST /api/logout',
  'POST /api/user/sessions/sign-out-others',
  'POST /api/stripe/webhook',
]);
export const fuzzedRoutes = restRoutes.filter((r) => !SKIPPED.has(`${r.method} ${r.path}`));

const TABLES: (keyof Database)[] = [
  'users',
  'qr_codes',
  'folders',
  'qr_scans',
  'uploads',
  'api_tokens',
  'audit_log',
  'upgrade_requests',
  'instance_settings',
];

/** The field names a schema's object declares (through preprocess and pipes), or none. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  let current: unknown = schema;
  for (let i = 0; i < 5 && current; i++) {
    const def = (
      current as {
        def?: {
          type?: string;
          shape?: Record<string, unknown>;
          out?: unknown;
          in?: unknown;
          innerType?: unknown;
        };
      }
    ).def;
    if (!def) return [];
    if (def.type === 'object' && def.shape) return Object.keys(def.shape);
    current = def.type === 'pipe' ? (def.out ?? def.in) : def.innerType;
  }
  return [];
}

const oddStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\uFFFF',
  '😀'.repeat(50),
  'e\u0301',
  '\u202Eevil',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00',
  '1e3',
  '0x10',
  '-0',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  'true',
  'null',
  '__proto__',
  'constructor',
  'javascript:alert(1)',
  'https://example.com/'.padEnd(5000, 'a'),
);
const oddNumbers = fc.constantFrom(
  0,
  -0,
  -1,
  1e3,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 1,
  0.5,
  Number.MAX_SAFE_INTEGER,
);

const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  oddStrings,
  oddNumbers,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(200_000)),
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
      tie('value'),
      {
        maxKeys: 4,
      },
    ),
  ),
})).value;

/** Deeply nested arrays: a parser must not blow its stack. */
const deep = fc.integer({ min: 50, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

/** A JSON body text: the route's own fields with hostile values, any JSON at all, or a broken one. */
function bodyOf(route: AnyRestRoute): fc.Arbitrary<string> {
  const fields = fieldsOf(route.body);
  const own =
    fields.length > 0
      ? fc
          .record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] })
          .chain((record) =>
            fc.boolean().map((proto) => {
              const text = JSON.stringify(record);
              // A literal __proto__ key, which JSON.stringify of an object cannot produce.
              return proto ? text.replace(/^\{/, '{"__proto__":{"isAdmin":true},') : text;
            }),
          )
      : fc.constant('{}');
  return fc.oneof(
    own,
    own,
    fc.jsonValue().map((v) => JSON.stringify(v)),
    deep,
    fc.constantFrom('{', 'null', '[]', '"x"', '{"a":1}}'),
  );
}

/** Percent-encodes anything, lone surrogates included (as the bytes a raw client could send). */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\s\S]/g, (c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return '%ED%A0%80';
      }
    });
  }
}

function paramOf(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -5, max: 50 }).map(String),
    oddStrings.map((s) => s.slice(0, 300)),
    fc.string({ maxLength: 20 }),
  );
}

function queryOf(route: AnyRestRoute): fc.Arbitrary<string> {
  const fields = [...fieldsOf(route.query), 'page', 'format'];
  const pair = fc.tuple(
    fc.constantFrom(...fields),
    fc.oneof(oddStrings, fc.string({ maxLength: 20 }), oddNumbers.map(String)),
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) =>
    // Repeated keys are welcome: `?page=1&page=2`.
    pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'),
  );
}

export interface FuzzStats {
  requests: number;
  statuses: Map<number, number>;
  serverErrors: string[];
  unchangedViolations: string[];
}

export interface FuzzCaller {
  ownerCookie: string;
  adminCookie: string;
}

let callerSerial = 0;

/** Fresh callers for one route: an owner with a code and a folder, and an admin (a route may delete either). */
export async function fuzzCallers(t: TestApp): Promise<FuzzCaller> {
  callerSerial += 1;
  const { user: owner, cookie: ownerCookie } = await signedInUser(t, `fuzzowner${callerSerial}`);
  const { cookie: adminCookie } = await signedInUser(t, `fuzzadmin${callerSerial}`, { isAdmin: true });
  await insertQrRow(t.db, { userId: owner.id, isDynamic: true });
  await insertFolderRow(t.db, owner.id);
  return { ownerCookie, adminCookie };
}

async function snapshot(t: TestApp): Promise<string> {
  const counts = await Promise.all(TABLES.map((table) => countRows(t.db, table)));
  // A refusal may leave one trace on purpose: its security event in the audit log (a wrong current
  // password, a refused token). Those entries are not counted; every other row is.
  const security = await t.db
    .selectFrom('audit_log')
    .where('target_type', '=', 'security')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return counts.map((n, i) => (TABLES[i] === 'audit_log' ? n - Number(security.n) : n)).join(',');
}

/** Runs `runs` fuzzed requests for one route; records statuses and every 5xx or changed refusal. */
export async function fuzzRoute(
  t: TestApp,
  route: AnyRestRoute,
  callers: FuzzCaller,
  runs: number,
  stats: FuzzStats,
  seed?: number,
): Promise<void> {
  const request = fc.record({ body: bodyOf(route), param: paramOf(), query: queryOf(route) });
  await fc.assert(
    fc.asyncProperty(request, async ({ body, param, query }) => {
      const url =
        route.path.replace(':id', encode(param)).replace(':versionId', encode(param)) +
        (query ? `?${query}` : '');
      const cookie = route.access === 'admin' ? callers.adminCookie : callers.ownerCookie;
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      const before = await snapshot(t);
      const res = await Promise.race([
        t.app.inject({
          method: route.method,
          url,
          headers: {
            cookie: `qr_session=${cookie}`,
            ...(withBody
              ? { 'content-type': route.multipart ? 'multipart/form-data; boundary=x' : 'application/json' }
              : {}),
          },
          ...(withBody ? { payload: body } : {}),
        }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`hang: ${route.method} ${url}`)), 15_000),
        ),
      ]);
      stats.requests += 1;
      stats.statuses.set(res.statusCode, (stats.statuses.get(res.statusCode) ?? 0) + 1);
      const where = `${route.method} ${url.slice(0, 120)} body ${body.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
      if (res.statusCode >= 500) stats.serverErrors.push(where);
      if (res.statusCode >= 400 && (await snapshot(t)) !== before) stats.unchangedViolations.push(where);
      return res.statusCode < 500;
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }), endOnFailure: true },
  );
}
