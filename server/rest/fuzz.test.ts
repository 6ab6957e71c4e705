import { expect, it } from 'vitest';
import { fuzzCallers, fuzzedRoutes, fuzzRoute, type FuzzStats } from '../test/fuzz.js';
import { useTestApp } from '../test/test-app.js';
import { describeEachDb } from '../test/test-db.js';

/**
 * Cases per route in the suite: about 550 in all on each database (FUZZ_RUNS_PER_ROUTE for more);
 * `npm run fuzz` sends 100,000 and more for the big run.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 7);

describeEachDb('fuzzing every REST route', (getDb, kind) => {
  const t = useTestApp(getDb);

  it('never answers 5xx or hangs, and a refused request changes nothing', { timeout: 300_000 }, async () => {
    const stats: FuzzStats = { requests: 0, statuses: new Map(), serverErrors: [], unchangedViolations: [] };
    for (const route of fuzzedRoutes) {
      await fuzzRoute(t(), route, await fuzzCallers(t()), RUNS_PER_ROUTE, stats).catch((error: unknown) => {
        stats.serverErrors.push(`${route.method} ${route.path}: ${String(error).slice(0, 400)}`);
      });
    }
    const seen = [...stats.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.log(
      `fuzz [${kind}]: ${stats.requests} requests over ${fuzzedRoutes.length} routes; statuses ${seen.join(' ')}; 5xx ${stats.serverErrors.length}`,
    );
    expect(stats.serverErrors).toEqual([]);
    expect(stats.unchangedViolations).toEqual([]);
    // Every route got (nearly) its share: a route the fuzzer skipped would fall short.
    expect(stats.requests).toBeGreaterThanOrEqual(Math.floor(RUNS_PER_ROUTE * fuzzedRoutes.length * 0.9));
  });
});
