import { sql } from 'kysely';
import { containsPattern as searchPattern, offsetOf } from '../../../src/api/paging.js';
import type {
  InvitationListQuery,
  MemberListQuery,
  MemberSortKey,
} from '../../../src/workspaces/member-list.schema.js';
import type { Db, UserRow } from '../../db/database.js';

/**
 * Workspaces are accounts (migrations/2026-11-30T0900-workspaces.ts): a person's row is their personal
 * workspace, a team is a row of `users` with kind 'team'. These functions are the only ones that read
 * `workspace_members` and `workspace_invitations`.
 */

/** A team row and the caller's role in it, or undefined when the caller is not a member. */
export async function findTeamMembership(
  db: Db,
  workspaceId: number,
  userId: number,
): Promise<(UserRow & { role: string }) | undefined> {
  return db
    .selectFrom('users as u')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'u.id')
    .selectAll('u')
    .select('m.role')
    .where('u.id', '=', workspaceId)
    .where('u.kind', '=', 'team')
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

export function findTeam(db: Db, workspaceId: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', workspaceId)
    .where('kind', '=', 'team')
    .executeTakeFirst();
}

// Counted per row of `users as u` (the listings below).
const codeCount = sql<number | string>`(select count(*) from qr_codes q where q.user_id = u.id)`;
const memberCount = sql<
  number | string
>`(select count(*) from workspace_members mc where mc.workspace_id = u.id)`;

/** The teams a person works in, with their role, member and code counts; by name. */
export function listTeamsOf(db: Db, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'u.id')
    .selectAll('u')
    .select(['m.role', codeCount.as('qr_code_count'), memberCount.as('member_count')])
    .where('u.kind', '=', 'team')
    .where('m.user_id', '=', userId)
    .orderBy(sql`lower(u.name)`)
    .orderBy('u.id')
    .execute();
}

export async function countCodesOf(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('qr_codes')
    .select((eb) => eb.fn.countAll<number>().as('c'))
    .where('user_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

export async function countMembersOf(db: Db, workspaceId: number): Promise<number> {
  const row = await db
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<number>().as('c'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

/** A new team row: never signs in (a password no hash verifies, no e-mail), no notifications of its own. */
export async function insertTeam(db: Db, name: string, handle: string, now: string): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      username: handle,
      password: '!team',
      name,
      email: null,
      kind: 'team',
      created_at: now,
      notify_product_updates: false,
      notify_scan_digest: false,
      notify_scan_thresholds: false,
      login_alerts: false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function renameTeam(db: Db, workspaceId: number, name: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ name })
    .where('id', '=', workspaceId)
    .where('kind', '=', 'team')
    .execute();
}

/** Deletes a team and everything it holds (its codes, folders, logos and rollups cascade). */
export async function deleteTeam(db: Db, workspaceId: number): Promise<void> {
  await db.deleteFrom('api_tokens').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('users').where('id', '=', workspaceId).where('kind', '=', 'team').execute();
}

export function listMembers(db: Db, workspaceId: number) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.email', 'm.role', 'm.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy(sql`case m.role when 'owner' then 0 when 'admin' then 1 when 'editor' then 2 else 3 end`)
    .orderBy(sql`lower(u.username)`)
    .execute();
}

const roleRank = sql`case m.role when 'owner' then 0 when 'admin' then 1 when 'editor' then 2 else 3 end`;

const memberSortColumns: Record<MemberSortKey, ReturnType<typeof sql>> = {
  role: roleRank,
  username: sql`lower(u.username)`,
  joined: sql`m.created_at`,
};

/** The members a list query keeps (search, role), for the page and its count alike. */
function filteredMembers(db: Db, workspaceId: number, query: MemberListQuery) {
  let q = db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.workspace_id', '=', workspaceId);
  if (query.search) {
    const pattern = sql`${searchPattern(query.search)} escape '\\'`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(u.username)`, 'like', pattern),
        eb(sql`lower(coalesce(u.name, ''))`, 'like', pattern),
        eb(sql`lower(coalesce(u.email, ''))`, 'like', pattern),
      ]),
    );
  }
  if (query.role) q = q.where('m.role', '=', query.role);
  return q;
}

/** One page of a team's members, searched, filtered, sorted and cut by the database. */
export async function listMemberPage(db: Db, workspaceId: number, query: MemberListQuery) {
  const count = await filteredMembers(db, workspaceId, query)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const direction = sql.raw(query.order === 'asc' ? 'asc' : 'desc');
  const rows = await filteredMembers(db, workspaceId, query)
    .select(['u.id', 'u.username', 'u.name', 'u.email', 'm.role', 'm.created_at'])
    .orderBy(sql`${memberSortColumns[query.sort]} ${direction}`)
    // Within a role, A to Z; the id breaks the last ties, so paging never repeats or skips a member.
    .orderBy(sql`lower(u.username) ${direction}`)
    .orderBy('u.id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

export function findMember(db: Db, workspaceId: number, userId: number) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.username', 'u.name', 'u.email', 'm.role', 'm.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
}

export async function insertMember(
  db: Db,
  workspaceId: number,
  userId: number,
  role: string,
  now: string,
  /** 'sso' when a group mapping grants it (taken away with the group); 'manual' otherwise. */
  source: 'manual' | 'sso' = 'manual',
): Promise<void> {
  await db
    .insertInto('workspace_members')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: now, source })
    .execute();
}

export async function setMemberRole(db: Db, workspaceId: number, userId: number, role: string) {
  await db
    .updateTable('workspace_members')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(db: Db, workspaceId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('workspace_members')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
  // Their tokens for this workspace stop with their membership.
  await db
    .deleteFrom('api_tokens')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .execute();
  await db
    .updateTable('users')
    .set({ current_workspace_id: null })
    .where('id', '=', userId)
    .where('current_workspace_id', '=', workspaceId)
    .execute();
}

export async function countOwners(db: Db, workspaceId: number): Promise<number> {
  const row = await db
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<number>().as('c'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.c);
}

/**
 * The teams a person is the only owner of, with how many codes and other members each has: what
 * deleting that person would leave without an owner.
 */
export function listTeamsOwnedAlone(db: Db, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'u.id')
    .select(['u.id', 'u.name', codeCount.as('qr_code_count'), memberCount.as('member_count')])
    .where('u.kind', '=', 'team')
    .where('m.user_id', '=', userId)
    .where('m.role', '=', 'owner')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('workspace_members as o')
            .select('o.user_id')
            .whereRef('o.workspace_id', '=', 'u.id')
            .where('o.role', '=', 'owner')
            .where('o.user_id', '<>', userId),
        ),
      ),
    )
    .execute();
}

/** The teams a person is in that keep going without them (someone else owns them). */
export function listTeamsKept(db: Db, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'u.id')
    .select(['u.id', 'u.name', codeCount.as('qr_code_count')])
    .where('u.kind', '=', 'team')
    .where('m.user_id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('workspace_members as o')
          .select('o.user_id')
          .whereRef('o.workspace_id', '=', 'u.id')
          .where('o.role', '=', 'owner')
          .where('o.user_id', '<>', userId),
      ),
    )
    .execute();
}

export async function setCurrentWorkspace(db: Db, userId: number, workspaceId: number | null): Promise<void> {
  await db.updateTable('users').set({ current_workspace_id: workspaceId }).where('id', '=', userId).execute();
}

// Invitations

const invitationColumns = [
  'i.id',
  'i.workspace_id',
  'i.email',
  'i.invitee_id',
  'i.role',
  'i.invited_by_username',
  'i.status',
  'i.created_at',
  'i.expires_at',
  'w.name as workspace_name',
  'invitee.username as invitee_username',
] as const;

const invitations = (db: Db) =>
  db
    .selectFrom('workspace_invitations as i')
    .innerJoin('users as w', 'w.id', 'i.workspace_id')
    .leftJoin('users as invitee', 'invitee.id', 'i.invitee_id')
    .select(invitationColumns);

export type InvitationRow = Awaited<ReturnType<typeof findInvitation>> & object;

export function findInvitation(db: Db, id: number) {
  return invitations(db).where('i.id', '=', id).executeTakeFirst();
}

export function findInvitationByToken(db: Db, tokenHash: string) {
  return invitations(db).where('i.token_hash', '=', tokenHash).executeTakeFirst();
}

export function listPendingInvitations(db: Db, workspaceId: number, now: string) {
  return invitations(db)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', now)
    .orderBy('i.id', 'desc')
    .execute();
}

/** The team's pending invitations a list query keeps (search, role), for the page and its count alike. */
function filteredPendingInvitations(db: Db, workspaceId: number, now: string, query: InvitationListQuery) {
  let q = invitations(db)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', now);
  if (query.search) {
    const pattern = sql`${searchPattern(query.search)} escape '\\'`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(coalesce(i.email, ''))`, 'like', pattern),
        eb(sql`lower(coalesce(invitee.username, ''))`, 'like', pattern),
      ]),
    );
  }
  if (query.role) q = q.where('i.role', '=', query.role);
  return q;
}

/** One page of the team's pending invitations, searched, filtered, sorted and cut by the database. */
export async function listPendingInvitationPage(
  db: Db,
  workspaceId: number,
  now: string,
  query: InvitationListQuery,
) {
  const count = await filteredPendingInvitations(db, workspaceId, now, query)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await filteredPendingInvitations(db, workspaceId, now, query)
    .orderBy(query.sort === 'expires' ? 'i.expires_at' : 'i.created_at', query.order)
    .orderBy('i.id', query.order)
    .limit(query.pageSize)
    .offset(offsetOf(query))
    .execute();
  return { rows, total: Number(count.total) };
}

/** The pending invitations a person can answer in the app: to their username, or to their address. */
export function listInvitationsFor(db: Db, user: { id: number; email: string | null }, now: string) {
  return invitations(db)
    .where('i.status', '=', 'pending')
    .where('i.expires_at', '>', now)
    .where((eb) =>
      user.email
        ? eb.or([
            eb('i.invitee_id', '=', user.id),
            eb(sql<string>`lower(i.email)`, '=', user.email.toLowerCase()),
          ])
        : eb('i.invitee_id', '=', user.id),
    )
    .orderBy('i.id', 'desc')
    .execute();
}

/** A pending invitation of the workspace to the same person (address or user), if any. */
export function findPendingInvitationTo(
  db: Db,
  workspaceId: number,
  to: { email?: string; inviteeId?: number },
  now: string,
) {
  return db
    .selectFrom('workspace_invitations')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .where((eb) =>
      to.email !== undefined
        ? eb(sql<string>`lower(email)`, '=', to.email.toLowerCase())
        : eb('invitee_id', '=', to.inviteeId ?? -1),
    )
    .executeTakeFirst();
}

export async function insertInvitation(
  db: Db,
  values: {
    workspaceId: number;
    email: string | null;
    inviteeId: number | null;
    role: string;
    tokenHash: string | null;
    invitedBy: { id: number; username: string };
    now: string;
    expiresAt: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('workspace_invitations')
    .values({
      workspace_id: values.workspaceId,
      email: values.email,
      invitee_id: values.inviteeId,
      role: values.role,
      token_hash: values.tokenHash,
      invited_by: values.invitedBy.id,
      invited_by_username: values.invitedBy.username,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Closes a pending invitation; false when it was not pending any more (answered twice at once). */
export async function closeInvitation(db: Db, id: number, status: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('workspace_invitations')
    .set({ status, responded_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Activity

export interface ActivityValues {
  workspaceId: number;
  actor: { id: number | null; username: string };
  action: string;
  targetType: string;
  targetId?: string | number | null;
  targetLabel?: string | null;
  details?: Record<string, unknown> | null;
  now: string;
}

export async function insertActivity(db: Db, values: ActivityValues): Promise<void> {
  await db
    .insertInto('workspace_activity')
    .values({
      workspace_id: values.workspaceId,
      actor_id: values.actor.id,
      actor_username: values.actor.username,
      action: values.action,
      target_type: values.targetType,
      target_id: values.targetId === undefined || values.targetId === null ? null : String(values.targetId),
      target_label: values.targetLabel ?? null,
      details: values.details ? JSON.stringify(values.details) : null,
      created_at: values.now,
    })
    .execute();
}

export function listActivity(db: Db, workspaceId: number, before: number | undefined, limit: number) {
  let query = db
    .selectFrom('workspace_activity')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) query = query.where('id', '<', before);
  return query.execute();
}

// ---- The admin's list of team workspaces (server/features/admin) ----

export type TeamSortKey = 'name' | 'createdAt' | 'qrCodeCount' | 'memberCount';

/** What each sort orders by (only ordered on, never read). */
const teamSortKeys = {
  name: sql<number | string>`lower(u.name)`,
  createdAt: sql<number | string>`u.created_at`,
  qrCodeCount: codeCount,
  memberCount: memberCount,
} satisfies Record<TeamSortKey, unknown>;

/** A team's row with its number of codes and of members. */
export type TeamWithCounts = UserRow & { qr_code_count: number | string; member_count: number | string };

/** `%` and `_` in a search are letters, not wildcards. */
function containsPattern(search: string) {
  return sql`${`%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
}

/**
 * The teams whose name, or one of whose owners' usernames, contains the search. The owners are found
 * once for the whole list (an `in` list: the usernames' index, then their memberships), not per team.
 */
function searchedTeams(db: Db, search: string | undefined) {
  const query = db.selectFrom('users as u').where('u.kind', '=', 'team');
  if (!search) return query;
  const pattern = containsPattern(search);
  return query.where((eb) =>
    eb.or([
      eb(sql`lower(u.name)`, 'like', pattern),
      eb(
        'u.id',
        'in',
        eb
          .selectFrom('workspace_members as om')
          .select('om.workspace_id')
          .where('om.role', '=', 'owner')
          .where(
            'om.user_id',
            'in',
            eb
              .selectFrom('users as o')
              .select('o.id')
              .where(sql`lower(o.username)`, 'like', pattern),
          ),
      ),
    ]),
  );
}

async function countTeams(db: Db, search: string | undefined): Promise<number> {
  const row = await searchedTeams(db, search)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * One page of team workspaces, searched, sorted, counted and paged by the database: each row with its
 * numbers of codes and members, in at most two statements whatever the page size. The page's ids are
 * chosen first (sorted on the key alone), and only its rows are read and counted. A search is run once:
 * its total comes with the page (a window count), and is counted apart only for a page past the end.
 * The id breaks ties, so paging never shows a team twice or skips one.
 */
export async function listTeamsPage(
  db: Db,
  input: {
    search?: string | undefined;
    sort: TeamSortKey;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
): Promise<{ rows: TeamWithCounts[]; total: number }> {
  const search = input.search || undefined;
  // Without a search the count reads only the kind index: cheaper apart than as a window over the page.
  const counted = search ? undefined : await countTeams(db, undefined);
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const nulls = sql.raw(input.order === 'asc' ? 'nulls first' : 'nulls last');
  const pageIds = searchedTeams(db, search)
    .select([
      'u.id',
      teamSortKeys[input.sort].as('sort_key'),
      (search ? sql<number | string>`count(*) over ()` : sql<number | string>`0`).as('total'),
    ])
    .orderBy(sql`sort_key ${direction} ${nulls}`)
    .orderBy('u.id', input.order)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .as('p');
  const rows = await db
    .selectFrom(pageIds)
    .innerJoin('users as u', 'u.id', 'p.id')
    .selectAll('u')
    .select([codeCount.as('qr_code_count'), memberCount.as('member_count'), 'p.total'])
    .orderBy(sql`p.sort_key ${direction} ${nulls}`)
    .orderBy('u.id', input.order)
    .execute();
  const total =
    counted ?? (rows[0] ? Number(rows[0].total) : input.page === 1 ? 0 : await countTeams(db, search));
  return { rows, total };
}

/** One team with its numbers of codes and members; undefined for a person's id or an unknown one. */
export function findTeamWithCounts(db: Db, workspaceId: number): Promise<TeamWithCounts | undefined> {
  return db
    .selectFrom('users as u')
    .selectAll('u')
    .select([codeCount.as('qr_code_count'), memberCount.as('member_count')])
    .where('u.id', '=', workspaceId)
    .where('u.kind', '=', 'team')
    .executeTakeFirst();
}

/** The owners' usernames of these teams, in one statement: by team, then by username. */
export async function listOwnerNames(db: Db, workspaceIds: number[]) {
  if (workspaceIds.length === 0) return [];
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('users as p', 'p.id', 'm.user_id')
    .select(['m.workspace_id', 'p.username'])
    .where('m.workspace_id', 'in', workspaceIds)
    .where('m.role', '=', 'owner')
    .orderBy('m.workspace_id')
    .orderBy(sql`lower(p.username)`)
    .execute();
}

// ---- A person's deletion (server/features/admin) ----

/**
 * What a person leaves in the workspaces of others, explicitly (the foreign keys would do the same):
 * their memberships and the invitations to them go; invitations they sent and the activity they wrote
 * stay, under the name they had.
 */
export async function deleteMembershipsOf(trx: Db, userId: number): Promise<void> {
  await trx.deleteFrom('workspace_members').where('user_id', '=', userId).execute();
  await trx.deleteFrom('workspace_invitations').where('invitee_id', '=', userId).execute();
  await trx
    .updateTable('workspace_invitations')
    .set({ invited_by: null })
    .where('invited_by', '=', userId)
    .execute();
  await trx
    .updateTable('workspace_activity')
    .set({ actor_id: null })
    .where('actor_id', '=', userId)
    .execute();
}

/** Nobody opens a deleted workspace any more by remembering it (their own opens instead). */
export async function forgetRememberedWorkspace(trx: Db, workspaceId: number): Promise<void> {
  await trx
    .updateTable('users')
    .set({ current_workspace_id: null })
    .where('current_workspace_id', '=', workspaceId)
    .execute();
}
