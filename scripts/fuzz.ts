// npm run fuzz — every REST route fuzzed through the real server (app.inject) on an in-memory SQLite
// database with the real migrations: RUNS requests in all (default 100,000), spread over the routes.
// Prints requests sent, the statuses seen and the 5xx count; exits 1 on any 5xx, hang, or refused request
// that changed the database.
//
//   RUNS=20000 npm run fuzz        a shorter run
//   SEED=42 npm run fuzz           repeat a run
import { fuzzCallers, fuzzedRoutes, fuzzRoute, type FuzzStats } from '../server/test/fuzz.js';
import { createTestApp } from '../server/test/test-app.js';
import { createTestDb } from '../server/test/test-db.js';

const RUNS = Number(process.env.RUNS ?? 100_000);
const SEED = process.env.SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.SEED);
const perRoute = Math.ceil(RUNS / fuzzedRoutes.length);

const db = await createTestDb('sqlite');
const t = await createTestApp(db);
const stats: FuzzStats = { requests: 0, statuses: new Map(), serverErrors: [], unchangedViolations: [] };
const started = performance.now();
console.log(`Fuzzing ${fuzzedRoutes.length} routes, ${perRoute} requests each (seed ${SEED})…`);
for (const [i, route] of fuzzedRoutes.entries()) {
  await fuzzRoute(t, route, await fuzzCallers(t), perRoute, stats, SEED + i).catch((error: unknown) => {
    stats.serverErrors.push(`${route.method} ${route.path}: ${String(error).slice(0, 600)}`);
  });
  if ((i + 1) % 10 === 0) {
    console.log(
      `  ${i + 1}/${fuzzedRoutes.length} routes, ${stats.requests.toLocaleString('en-US')} requests, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
}
await t.close();
await db.close();
const seen = [...stats.statuses.entries()]
  .sort(([a], [b]) => a - b)
  .map(([s, n]) => `${s}: ${n.toLocaleString('en-US')}`);
console.log(
  `\nrequests sent: ${stats.requests.toLocaleString('en-US')} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`statuses seen: ${seen.join(', ')}`);
console.log(`5xx: ${stats.serverErrors.length}`);
console.log(`refusals that changed the database: ${stats.unchangedViolations.length}`);
for (const line of [...stats.serverErrors, ...stats.unchangedViolations].slice(0, 20))
  console.log(`  ${line}`);
process.exit(stats.serverErrors.length + stats.unchangedViolations.length > 0 ? 1 : 0);
