import { afterEach } from 'vitest';
import { afterBrowserTest } from './harness';

// A setup file runs for every test file, also when files share a worker's modules (vitest.config.ts:
// isolate off), where hooks registered by harness.ts itself would belong to the first file alone.
afterEach(afterBrowserTest);
