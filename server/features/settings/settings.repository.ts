import type { Db } from '../../db/database.js';

/** The instance settings' SQL (instance-settings.ts): one row per setting changed, its value as JSON. */

export function listInstanceSettingRows(db: Db) {
  return db.selectFrom('instance_settings').select(['key', 'value']).execute();
}

/** Stores a setting's JSON value (replacing the one stored). */
export function upsertInstanceSetting(db: Db, key: string, value: string, updatedAt: string) {
  return db
    .insertInto('instance_settings')
    .values({ key, value, updated_at: updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: updatedAt }))
    .execute();
}
