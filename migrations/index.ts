import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0500-initial.js';

/** Explicit provider: every migration imported statically, in order (works in tsx, Vitest and bundles). */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0500-initial': initial,
};
