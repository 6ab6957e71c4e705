import type { User } from '../../../src/auth/auth.schema.js';

/**
 * What a workspace call hands a service as its `user`: the workspace's account (its id owns the codes,
 * folders, logos and scans; its plan fields are the plan), and, in a team, the person acting for it.
 * A personal workspace's owner is the person, acting for themselves (no `actor`).
 */
export type Owner = User & { actor?: Pick<User, 'id' | 'username'> };

/** Who acted: recorded in a code's history and the workspace's activity feed. */
export function actorOf(owner: Owner): Pick<User, 'id' | 'username'> {
  return owner.actor ?? owner;
}

export function ownerActing(account: User, person: User): Owner {
  return account.id === person.id
    ? person
    : { ...account, actor: { id: person.id, username: person.username } };
}
