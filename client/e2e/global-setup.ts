import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../../scripts/built-app.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium (harness.ts launchBrowser connects to it). */
    chromiumWs: string;
  }
}

/**
 * Browser tests run the real built app (client and server bundle): built once here if missing or
 * stale. One Chromium serves the whole run: each file connects to it (a connection costs a few
 * milliseconds, a launch about a second) and gets contexts of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the app failed');
  const chromium = await launchChromiumServer();
  project.provide('chromiumWs', chromium.wsEndpoint());
  return () => chromium.close();
}
