import { defineConfig } from 'vitest/config';
import { linguiMacros } from './scripts/build/lingui.ts';

export default defineConfig({
  test: {
    // The JSON report feeds .ci/run's final "N passed, N failed" line (npm test gives each project its
    // own file with --outputFile.json and merges them into this one).
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // Vitest's default is one worker per core less one: a single worker on the 2-core CI machine, which
    // ran every file one after another. Unit files wait on PostgreSQL about as much as they compute, so
    // two at a time keep both cores busy (measured: 632 s → 223 s for the unit files, with isolate off).
    maxWorkers: 2,
    projects: [
      {
        // Client modules written with Lingui's macros (scripts/build/lingui.ts).
        plugins: [linguiMacros()],
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'server/**/*.test.ts',
            'client/**/*.test.ts',
            'migrations/**/*.test.ts',
            'sdk/**/*.test.ts',
          ],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/setup-unit.ts'],
          // Files share a worker's module cache instead of importing the app anew each (import time
          // 107 s → 17 s). Safe because every test builds its own app and database (test-app.ts,
          // test-db.ts) and no test replaces a module.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The browser tests' Node side imports client modules too (the route table, labels).
        plugins: [linguiMacros()],
        test: {
          name: 'browser',
          include: ['client/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['client/e2e/global-setup.ts'],
          setupFiles: ['client/e2e/setup.ts'],
          // Files share one worker's modules (playwright and the harness load once, not 26 times); every
          // file starts its own server and browser contexts, and the per-test checks are in setup.ts.
          isolate: false,
          // Its own group, after the unit project's, in a plain `vitest run` of both projects.
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page waits on the real server: a loaded CI machine can take more than expect.poll's
          // default second to draw it (seen: the sessions list on /settings).
          expect: { poll: { timeout: 10_000 } },
          // One Chromium at a time: the pages are CPU-bound, and three at once on two cores took longer
          // in all (measured) and made timings flaky.
          fileParallelism: false,
        },
      },
    ],
  },
});
