import { sql } from 'kysely';
import type { Db, NewUserRow, UserRow } from '../../db/database.js';

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Usernames are unique regardless of case (see the lower(username) index). */
export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export async function countUsers(db: Db): Promise<{ users: number; admins: number }> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('users'),
      eb.fn.sum<number>(eb.case().when('is_admin', '=', true).then(1).else(0).end()).as('admins'),
    ])
    .executeTakeFirstOrThrow();
  return { users: Number(row.users), admins: Number(row.admins ?? 0) };
}
