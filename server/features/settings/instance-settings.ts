import { instanceSettingsSchema, type InstanceSettings } from '../../../src/admin/admin.schema.js';
import type { AppDeps } from '../../app-deps.js';
import type { Db } from '../../db/database.js';
import { listInstanceSettingRows, upsertInstanceSetting } from './settings.repository.js';

/**
 * Settings an admin changes at run time from /admin (registration open, e-mail verification, the free
 * plan's limit). Stored in the database, so every instance sharing it agrees; the environment gives the
 * value of any setting never changed.
 */
export async function getInstanceSettings(deps: Pick<AppDeps, 'db' | 'config'>): Promise<InstanceSettings> {
  const rows = await listInstanceSettingRows(deps.db);
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value) as unknown;
    } catch {
      // A value no release wrote: the default stands.
    }
  }
  const defaults: InstanceSettings = {
    registrationOpen: deps.config.registrationOpen,
    requireEmailVerification: deps.config.requireEmailVerification,
    freePlanLimit: deps.config.freePlanLimit,
  };
  const merged = { ...defaults, ...stored };
  const checked = instanceSettingsSchema.safeParse(merged);
  return checked.success ? checked.data : defaults;
}

/** Stores the settings given (the others keep their value). */
export async function storeInstanceSettings(
  db: Db,
  patch: Partial<InstanceSettings>,
  now: Date,
): Promise<void> {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    await upsertInstanceSetting(db, key, JSON.stringify(value), now.toISOString());
  }
}
