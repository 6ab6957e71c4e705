import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The JSON report feeds .ci/run's final "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'server/**/*.test.ts',
            'client/**/*.test.ts',
            'migrations/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['client/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['client/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page waits on the real server: a loaded CI machine can take more than expect.poll's
          // default second to draw it (seen: the sessions list on /settings).
          expect: { poll: { timeout: 10_000 } },
          // One Chromium at a time keeps two cores responsive.
          fileParallelism: false,
        },
      },
    ],
  },
});
