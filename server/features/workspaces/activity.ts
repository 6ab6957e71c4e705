import type { User } from '../../../src/auth/auth.schema.js';
import type { Db } from '../../db/database.js';
import { insertActivity, type ActivityValues } from './workspaces.repository.js';

type Actor = Pick<User, 'id' | 'username'>;

/** Writes one line of a workspace's activity feed (inside the change's transaction when given one). */
export async function recordActivity(
  db: Db,
  workspaceId: number,
  actor: Actor,
  now: Date,
  entry: Omit<ActivityValues, 'workspaceId' | 'actor' | 'now'>,
): Promise<void> {
  await insertActivity(db, {
    ...entry,
    workspaceId,
    actor: { id: actor.id, username: actor.username },
    now: now.toISOString(),
  });
}
