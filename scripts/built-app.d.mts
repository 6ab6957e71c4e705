import type { ChildProcess } from 'node:child_process';
import type { Browser, BrowserServer, LaunchOptions } from 'playwright-core';

export const root: string;
/** Builds what is missing or older than its sources (build-if-needed.mjs, as `npm start` does); throws if the build fails. */
export function buildIfNeeded(): void;
/** A loopback port the OS says is free now, for a server about to be started (its PORT). */
export function freePort(): Promise<number>;

export interface StartOptions {
  /** Added to the environment after PORT, HOST and DATA_DIR (so it may replace them). */
  env?: Record<string, string>;
  /**
   * A DATA_DIR to use and leave in place; by default a temporary one, removed by stop(); `null` sets
   * none (the server's default, ./data of `cwd`).
   */
  dataDir?: string | null;
  /** The test process's environment under `env`; by default true. */
  inheritEnv?: boolean;
  /** By default `node --enable-source-maps dist/server.mjs`; the single executable gives its own. */
  command?: string;
  args?: string[];
  cwd?: string;
  timeoutMs?: number;
}

export interface BuiltServer {
  url: string;
  port: number;
  dataDir: string;
  /** Every line the server wrote to stdout and stderr so far. */
  logs: string[];
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGTERM: a graceful shutdown), waits for the exit; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built server on a free port and waits until GET /readyz answers 200. */
export function startBuiltServer(options?: StartOptions): Promise<BuiltServer>;

export const chromiumOptions: LaunchOptions;
/** Chromium for this process alone. */
export function launchChromium(): Promise<Browser>;
/** Chromium that other processes connect to: one for a whole test run. */
export function launchChromiumServer(): Promise<BrowserServer>;
