import { TRPCError } from '@trpc/server';
import { expect, it } from 'vitest';
import { workspaceMessages, type WorkspaceRole } from '../../../src/workspaces/workspace.schema.js';
import type { UserRow } from '../../db/database.js';
import { validationIssuesOf } from '../../errors.js';
import { insertFolderRow, insertQrRow } from '../../test/fixtures.js';
import { callerFor, readOutbox, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { DAY_MS } from '../scans/rollup-model.js';

/** The person's row as the database holds it now (a caller built from it remembers their workspace). */
function fresh(t: TestApp, user: UserRow): Promise<UserRow> {
  return t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
}

/** A team made by `owner` through the procedure. */
async function createTeam(t: TestApp, owner: UserRow, name = 'Marketing') {
  return callerFor(t, owner).workspaces.create({ name });
}

/** `member` joins the team with `role`: invited by username by `by`, accepted from their list. */
async function addMember(t: TestApp, workspaceId: number, by: UserRow, member: UserRow, role: WorkspaceRole) {
  const invitation = await callerFor(t, by).workspaces.invite({
    workspaceId,
    username: member.username,
    role: role === 'owner' ? 'admin' : role,
  });
  await callerFor(t, member).workspaces.accept({ invitationId: invitation.id });
  if (role === 'owner')
    await callerFor(t, by).workspaces.changeRole({ workspaceId, userId: member.id, role });
}

/** A team with an owner, an admin, an editor and a viewer, and a stranger who is none of them. */
async function staffedTeam(t: TestApp) {
  const owner = (await signedInUser(t, 'olivia')).user;
  const admin = (await signedInUser(t, 'adam')).user;
  const editor = (await signedInUser(t, 'edith')).user;
  const viewer = (await signedInUser(t, 'victor')).user;
  const stranger = (await signedInUser(t, 'stranger')).user;
  const team = await createTeam(t, owner);
  await addMember(t, team.id, owner, admin, 'admin');
  await addMember(t, team.id, owner, editor, 'editor');
  await addMember(t, team.id, owner, viewer, 'viewer');
  return { team, owner, admin, editor, viewer, stranger };
}

async function roles(t: TestApp, workspaceId: number, asker: UserRow) {
  const members = await callerFor(t, asker).workspaces.members({ workspaceId });
  return members.map((m) => [m.username, m.role]);
}

/** The links of the mails sent to `to` so far (waits for the first: mails are written in the background). */
async function mailedLinks(t: TestApp, to: string): Promise<string[]> {
  const mine = async () => (await readOutbox(t.outbox)).filter((m) => m.includes(`To: ${to}`));
  await expect.poll(async () => (await mine()).length).toBeGreaterThan(0);
  return (await mine()).flatMap((m) => m.match(/https?:\/\/[^\s"<>]+\/invitations[^\s"<>]*/g) ?? []);
}

function tokenOf(link: string): string {
  const match = /#token=([^&\s"<>]+)/.exec(link);
  if (!match?.[1]) throw new Error(`no token in ${link}`);
  return decodeURIComponent(match[1]);
}

/** The validation issues of a refused call (400). */
async function issuesOf(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe('BAD_REQUEST');
  return validationIssuesOf(error as TRPCError);
}

const notFound = { code: 'NOT_FOUND', message: workspaceMessages.notFound };

describeEachDb('workspaces at the tRPC procedures', (getDb) => {
  const t = useTestApp(getDb);

  it('create makes the creator its owner; list shows Personal first, then the teams by name, with the role', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const zeta = await createTeam(t(), ada, '  Zeta crew ');
    const alpha = await createTeam(t(), ada, 'alpha team');
    expect(zeta).toMatchObject({
      name: 'Zeta crew',
      kind: 'team',
      role: 'owner',
      memberCount: 1,
      qrCodeCount: 0,
    });
    await insertQrRow(t().db, { userId: zeta.id });

    const list = await callerFor(t(), ada).workspaces.list();
    expect(list.map((w) => [w.id, w.name, w.kind, w.role, w.memberCount, w.qrCodeCount])).toEqual([
      [ada.id, 'Personal', 'personal', 'owner', 1, 0],
      [alpha.id, 'alpha team', 'team', 'owner', 1, 0],
      [zeta.id, 'Zeta crew', 'team', 'owner', 1, 1],
    ]);
    expect(await roles(t(), zeta.id, ada)).toEqual([['ada', 'owner']]);
    // Nobody else sees it.
    expect((await callerFor(t(), bob).workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
    // The team's row never signs in.
    const row = await t()
      .db.selectFrom('users')
      .selectAll()
      .where('id', '=', zeta.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'team', password: '!team', email: null });
    expect(row.username).toMatch(/^team~/);
  });

  it('invites by username: the invitation waits in the invitee’s list, accepting it makes them a member', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const team = await createTeam(t(), ada);

    const invitation = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      username: 'bob',
      role: 'editor',
    });
    expect(invitation).toMatchObject({
      workspaceId: team.id,
      workspaceName: 'Marketing',
      username: 'bob',
      email: null,
      role: 'editor',
      invitedBy: 'ada',
      status: 'pending',
    });
    expect(new Date(invitation.expiresAt).getTime() - new Date(invitation.createdAt).getTime()).toBe(
      7 * DAY_MS,
    );
    expect(
      (await callerFor(t(), ada).workspaces.invitations({ workspaceId: team.id })).map((i) => i.id),
    ).toEqual([invitation.id]);
    const bobs = callerFor(t(), bob);
    expect((await bobs.workspaces.myInvitations()).map((i) => [i.id, i.workspaceName, i.role])).toEqual([
      [invitation.id, 'Marketing', 'editor'],
    ]);

    const joined = await bobs.workspaces.accept({ invitationId: invitation.id });
    expect(joined).toMatchObject({
      id: team.id,
      name: 'Marketing',
      kind: 'team',
      role: 'editor',
      memberCount: 2,
    });
    expect((await bobs.workspaces.list()).map((w) => [w.name, w.role])).toEqual([
      ['Personal', 'owner'],
      ['Marketing', 'editor'],
    ]);
    expect(await roles(t(), team.id, bob)).toEqual([
      ['ada', 'owner'],
      ['bob', 'editor'],
    ]);
    expect(await bobs.workspaces.myInvitations()).toEqual([]);
    expect(await callerFor(t(), ada).workspaces.invitations({ workspaceId: team.id })).toEqual([]);
    // Answered once is answered.
    await expect(bobs.workspaces.accept({ invitationId: invitation.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
  });

  it('invites a user with a verified address by username and also mails them a link to their invitations', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    await t().db.updateTable('users').set({ email_verified: true }).where('id', '=', bob.id).execute();
    const team = await createTeam(t(), ada);
    await callerFor(t(), ada).workspaces.invite({ workspaceId: team.id, username: 'bob', role: 'viewer' });
    const links = await mailedLinks(t(), bob.email!);
    expect(links).toContain(`${t().config.publicUrl}/invitations`);
  });

  it('invites by e-mail: a mailed link whose token any signed-in holder can read and accept, once', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: carol } = await signedInUser(t(), 'carol');
    const team = await createTeam(t(), ada);

    const invitation = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      email: 'carol.work@example.com',
      role: 'viewer',
    });
    expect(invitation).toMatchObject({ email: 'carol.work@example.com', username: null, status: 'pending' });
    const links = await mailedLinks(t(), 'carol.work@example.com');
    const mail = (await readOutbox(t().outbox)).find((m) => m.includes('To: carol.work@example.com'))!;
    expect(mail).toContain('Inserted User invited you to Marketing');
    const link = links.find((l) => l.includes('#token='));
    expect(link?.startsWith(`${t().config.publicUrl}/invitations#token=`)).toBe(true);
    const token = tokenOf(link!);

    const carols = callerFor(t(), carol);
    expect(await carols.workspaces.invitationByToken({ token })).toMatchObject({
      id: invitation.id,
      workspaceName: 'Marketing',
      role: 'viewer',
      invitedBy: 'ada',
      status: 'pending',
    });
    expect(await carols.workspaces.accept({ token })).toMatchObject({ id: team.id, role: 'viewer' });
    expect(await roles(t(), team.id, carol)).toEqual([
      ['ada', 'owner'],
      ['carol', 'viewer'],
    ]);
    expect(await carols.workspaces.invitationByToken({ token })).toMatchObject({ status: 'accepted' });
    const { user: dan } = await signedInUser(t(), 'dan');
    await expect(callerFor(t(), dan).workspaces.accept({ token })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
    await expect(carols.workspaces.invitationByToken({ token: 'not-a-token' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: workspaceMessages.invitationNotFound,
    });
  });

  it('an e-mail invitation waits in the list of the person who verified that address, not of one who only typed it', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: claimer } = await signedInUser(t(), 'claimer');
    const team = await createTeam(t(), ada);
    const invitation = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      email: 'boss@example.com',
      role: 'admin',
    });
    // Anyone can type an address into their profile; until it is verified, it proves nothing.
    await t()
      .db.updateTable('users')
      .set({ email: 'Boss@Example.com', email_verified: false })
      .where('id', '=', claimer.id)
      .execute();
    const unverified = callerFor(t(), await fresh(t(), claimer));
    expect(await unverified.workspaces.myInvitations()).toEqual([]);
    await expect(unverified.workspaces.accept({ invitationId: invitation.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: workspaceMessages.invitationNotFound,
    });
    await expect(unverified.workspaces.decline({ invitationId: invitation.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await unverified.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);

    await t().db.updateTable('users').set({ email_verified: true }).where('id', '=', claimer.id).execute();
    const verified = callerFor(t(), await fresh(t(), claimer));
    expect((await verified.workspaces.myInvitations()).map((i) => i.id)).toEqual([invitation.id]);
    expect(await verified.workspaces.accept({ invitationId: invitation.id })).toMatchObject({
      role: 'admin',
    });
  });

  it('decline closes the invitation: gone from both lists, and it can no longer be accepted', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const team = await createTeam(t(), ada);
    const invitation = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      username: 'bob',
      role: 'editor',
    });

    const bobs = callerFor(t(), bob);
    expect(await bobs.workspaces.decline({ invitationId: invitation.id })).toEqual({
      success: true,
      message: workspaceMessages.declined,
    });
    expect(await bobs.workspaces.myInvitations()).toEqual([]);
    expect(await callerFor(t(), ada).workspaces.invitations({ workspaceId: team.id })).toEqual([]);
    await expect(bobs.workspaces.accept({ invitationId: invitation.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
    expect((await bobs.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
    // A declined invitation does not block a new one.
    await callerFor(t(), ada).workspaces.invite({ workspaceId: team.id, username: 'bob', role: 'viewer' });
    expect((await bobs.workspaces.myInvitations()).map((i) => i.role)).toEqual(['viewer']);
  });

  it('accept and decline by id answer only the invitee: anyone else gets 404', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const { user: eve } = await signedInUser(t(), 'eve');
    const team = await createTeam(t(), ada);
    const invitation = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      username: 'bob',
      role: 'admin',
    });
    const eves = callerFor(t(), eve);
    for (const invitationId of [invitation.id, invitation.id + 1000]) {
      await expect(eves.workspaces.accept({ invitationId })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: workspaceMessages.invitationNotFound,
      });
      await expect(eves.workspaces.decline({ invitationId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await callerFor(t(), bob).workspaces.myInvitations()).map((i) => i.status)).toEqual(['pending']);
    expect((await eves.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
  });

  it('revoke withdraws a pending invitation: the link and the list no longer lead in', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const team = await createTeam(t(), ada);
    const byName = await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      username: 'bob',
      role: 'editor',
    });
    await callerFor(t(), ada).workspaces.invite({
      workspaceId: team.id,
      email: 'friend@example.com',
      role: 'viewer',
    });
    const token = tokenOf((await mailedLinks(t(), 'friend@example.com')).find((l) => l.includes('#token='))!);
    const [byMail] = await callerFor(t(), ada).workspaces.invitations({ workspaceId: team.id });

    for (const invitationId of [byName.id, byMail!.id]) {
      expect(
        await callerFor(t(), ada).workspaces.revokeInvitation({ workspaceId: team.id, invitationId }),
      ).toEqual({
        success: true,
        message: workspaceMessages.revoked,
      });
    }
    expect(await callerFor(t(), ada).workspaces.invitations({ workspaceId: team.id })).toEqual([]);
    const bobs = callerFor(t(), bob);
    expect(await bobs.workspaces.myInvitations()).toEqual([]);
    await expect(bobs.workspaces.accept({ invitationId: byName.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
    expect(await bobs.workspaces.invitationByToken({ token })).toMatchObject({ status: 'revoked' });
    await expect(bobs.workspaces.accept({ token })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // Revoked is not pending: a second revoke finds nothing.
    await expect(
      callerFor(t(), ada).workspaces.revokeInvitation({ workspaceId: team.id, invitationId: byName.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: workspaceMessages.invitationNotFound });
  });

  it('an invitation of another team cannot be revoked through one’s own team', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: zed } = await signedInUser(t(), 'zed');
    const mine = await createTeam(t(), ada, 'Mine');
    const theirs = await createTeam(t(), zed, 'Theirs');
    const invitation = await callerFor(t(), zed).workspaces.invite({
      workspaceId: theirs.id,
      username: 'ada',
      role: 'viewer',
    });
    await expect(
      callerFor(t(), ada).workspaces.revokeInvitation({ workspaceId: mine.id, invitationId: invitation.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: workspaceMessages.invitationNotFound });
    expect((await callerFor(t(), ada).workspaces.myInvitations()).map((i) => i.status)).toEqual(['pending']);
  });

  it('an invitation lasts 7 days: after that it is expired, cannot be answered, and a new one may be sent', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    const { user: carol } = await signedInUser(t(), 'carol');
    const team = await createTeam(t(), ada);
    const admins = callerFor(t(), ada);
    const late = await admins.workspaces.invite({ workspaceId: team.id, username: 'bob', role: 'editor' });
    const onTime = await admins.workspaces.invite({
      workspaceId: team.id,
      username: 'carol',
      role: 'editor',
    });
    await admins.workspaces.invite({ workspaceId: team.id, email: 'dan@example.com', role: 'viewer' });
    const token = tokenOf((await mailedLinks(t(), 'dan@example.com')).find((l) => l.includes('#token='))!);

    // A minute before the end it still works.
    t().clock.advance(7 * DAY_MS - 60_000);
    expect(await callerFor(t(), carol).workspaces.accept({ invitationId: onTime.id })).toMatchObject({
      role: 'editor',
    });

    t().clock.advance(60_000);
    const bobs = callerFor(t(), bob);
    expect(await bobs.workspaces.myInvitations()).toEqual([]);
    expect(await admins.workspaces.invitations({ workspaceId: team.id })).toEqual([]);
    await expect(bobs.workspaces.accept({ invitationId: late.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
    await expect(bobs.workspaces.decline({ invitationId: late.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await bobs.workspaces.invitationByToken({ token })).toMatchObject({ status: 'expired' });
    await expect(bobs.workspaces.accept({ token })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: workspaceMessages.invitationGone,
    });
    expect((await bobs.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);

    // The expired one does not count as pending.
    const again = await admins.workspaces.invite({ workspaceId: team.id, username: 'bob', role: 'editor' });
    expect(await bobs.workspaces.accept({ invitationId: again.id })).toMatchObject({ role: 'editor' });
  });

  it('refuses a second pending invitation to the same person (409) and one to a member (409)', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const { user: bob } = await signedInUser(t(), 'bob');
    await signedInUser(t(), 'carol');
    const team = await createTeam(t(), ada);
    const admins = callerFor(t(), ada);
    const first = await admins.workspaces.invite({ workspaceId: team.id, username: 'carol', role: 'viewer' });
    await expect(
      admins.workspaces.invite({ workspaceId: team.id, username: 'carol', role: 'admin' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: workspaceMessages.alreadyInvited });
    await admins.workspaces.invite({ workspaceId: team.id, email: 'someone@example.com', role: 'viewer' });
    await expect(
      admins.workspaces.invite({ workspaceId: team.id, email: 'SomeOne@Example.com', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', message: workspaceMessages.alreadyInvited });
    expect((await admins.workspaces.invitations({ workspaceId: team.id })).length).toBe(2);
    expect(first.role).toBe('viewer');

    await addMember(t(), team.id, ada, bob, 'editor');
    for (const username of ['bob', 'ada']) {
      await expect(
        admins.workspaces.invite({ workspaceId: team.id, username, role: 'viewer' }),
      ).rejects.toMatchObject({
        code: 'CONFLICT',
        message: workspaceMessages.alreadyMember,
      });
    }
    await expect(
      admins.workspaces.invite({ workspaceId: team.id, username: 'nobody-here', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: workspaceMessages.noSuchUser });
  });

  it('an invitation needs exactly one of an address or a username, and a role below owner (400 naming the field)', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await createTeam(t(), ada);
    const admins = callerFor(t(), ada);
    expect(await issuesOf(admins.workspaces.invite({ workspaceId: team.id, role: 'viewer' }))).toEqual([
      { path: 'email', message: 'Give either an email address or a username' },
    ]);
    expect(
      await issuesOf(
        admins.workspaces.invite({
          workspaceId: team.id,
          username: 'bob',
          email: 'bob@example.com',
          role: 'viewer',
        }),
      ),
    ).toEqual([{ path: 'email', message: 'Give either an email address or a username' }]);
    expect(
      // @ts-expect-error: owner is not a role one invites with
      await issuesOf(admins.workspaces.invite({ workspaceId: team.id, username: 'bob', role: 'owner' })),
    ).toEqual([{ path: 'role', message: 'Role must be viewer, editor or admin' }]);
  });

  it('role changes: admins manage the roles below owner; only an owner gives or takes the owner role', async () => {
    const { team, owner, admin, editor, viewer } = await staffedTeam(t());
    const admins = callerFor(t(), admin);
    expect(
      await admins.workspaces.changeRole({ workspaceId: team.id, userId: editor.id, role: 'viewer' }),
    ).toMatchObject({
      username: 'edith',
      role: 'viewer',
    });
    expect(
      await admins.workspaces.changeRole({ workspaceId: team.id, userId: viewer.id, role: 'admin' }),
    ).toMatchObject({
      role: 'admin',
    });
    const ownerOnly = { code: 'FORBIDDEN', message: workspaceMessages.ownerOnly };
    await expect(
      admins.workspaces.changeRole({ workspaceId: team.id, userId: editor.id, role: 'owner' }),
    ).rejects.toMatchObject(ownerOnly);
    await expect(
      admins.workspaces.changeRole({ workspaceId: team.id, userId: owner.id, role: 'admin' }),
    ).rejects.toMatchObject(ownerOnly);
    await expect(
      admins.workspaces.removeMember({ workspaceId: team.id, userId: owner.id }),
    ).rejects.toMatchObject(ownerOnly);
    await expect(
      admins.workspaces.changeRole({ workspaceId: team.id, userId: admin.id, role: 'owner' }),
    ).rejects.toMatchObject(ownerOnly);
    // Editors manage nobody.
    await expect(
      callerFor(t(), editor).workspaces.changeRole({
        workspaceId: team.id,
        userId: viewer.id,
        role: 'viewer',
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: workspaceMessages.roleRequired('admin') });
    await expect(
      admins.workspaces.changeRole({ workspaceId: team.id, userId: 99_999, role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: workspaceMessages.memberNotFound });

    expect(await roles(t(), team.id, owner)).toEqual([
      ['olivia', 'owner'],
      ['adam', 'admin'],
      ['victor', 'admin'],
      ['edith', 'viewer'],
    ]);
    // The owner may make another owner, and then step down.
    const owners = callerFor(t(), owner);
    await owners.workspaces.changeRole({ workspaceId: team.id, userId: admin.id, role: 'owner' });
    await owners.workspaces.changeRole({ workspaceId: team.id, userId: owner.id, role: 'editor' });
    expect(await roles(t(), team.id, owner)).toEqual([
      ['adam', 'owner'],
      ['victor', 'admin'],
      ['olivia', 'editor'],
      ['edith', 'viewer'],
    ]);
  });

  it('the last owner cannot be demoted, removed, or leave (409); with a second owner they can', async () => {
    const { team, owner, admin } = await staffedTeam(t());
    const owners = callerFor(t(), owner);
    const lastOwner = { code: 'CONFLICT', message: workspaceMessages.lastOwner };
    await expect(
      owners.workspaces.changeRole({ workspaceId: team.id, userId: owner.id, role: 'admin' }),
    ).rejects.toMatchObject(lastOwner);
    await expect(
      owners.workspaces.removeMember({ workspaceId: team.id, userId: owner.id }),
    ).rejects.toMatchObject(lastOwner);
    await expect(owners.workspaces.leave({ workspaceId: team.id })).rejects.toMatchObject(lastOwner);
    expect((await roles(t(), team.id, owner))[0]).toEqual(['olivia', 'owner']);

    await owners.workspaces.changeRole({ workspaceId: team.id, userId: admin.id, role: 'owner' });
    expect(await owners.workspaces.leave({ workspaceId: team.id })).toEqual({
      success: true,
      message: workspaceMessages.left,
    });
    expect((await owners.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
    expect((await roles(t(), team.id, admin)).filter(([, role]) => role === 'owner')).toEqual([
      ['adam', 'owner'],
    ]);
    // The one who is left owning it is now the last.
    await expect(callerFor(t(), admin).workspaces.leave({ workspaceId: team.id })).rejects.toMatchObject(
      lastOwner,
    );
  });

  it('transfer makes another member the owner and the caller an admin; only an owner transfers', async () => {
    const { team, owner, editor, stranger } = await staffedTeam(t());
    const owners = callerFor(t(), owner);
    await expect(
      owners.workspaces.transfer({ workspaceId: team.id, userId: stranger.id }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: workspaceMessages.memberNotFound,
    });
    await expect(
      owners.workspaces.transfer({ workspaceId: team.id, userId: owner.id }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await owners.workspaces.transfer({ workspaceId: team.id, userId: editor.id })).toEqual({
      success: true,
      message: workspaceMessages.transferred,
    });
    expect(await roles(t(), team.id, owner)).toEqual([
      ['edith', 'owner'],
      ['adam', 'admin'],
      ['olivia', 'admin'],
      ['victor', 'viewer'],
    ]);
    await expect(
      owners.workspaces.transfer({ workspaceId: team.id, userId: owner.id }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: workspaceMessages.roleRequired('owner'),
    });
    const feed = await owners.workspaces.activity({ workspaceId: team.id, limit: 1 });
    expect(feed.items[0]).toMatchObject({
      action: 'workspace.transferred',
      actor: { id: owner.id, username: 'olivia' },
      targetLabel: 'edith',
    });
  });

  it('removing a member ends their access and deletes their API tokens of that workspace, not their own', async () => {
    const { team, admin, editor } = await staffedTeam(t());
    const now = new Date().toISOString();
    const token = (name: string, workspaceId: number) => ({
      user_id: editor.id,
      workspace_id: workspaceId,
      name,
      token_hash: `hash-${name}`,
      prefix: name.slice(0, 8),
      scope: 'write',
      created_at: now,
    });
    await t()
      .db.insertInto('api_tokens')
      .values([token('team-script', team.id), token('own-script', editor.id)])
      .execute();
    const personalCode = await insertQrRow(t().db, { userId: editor.id });

    expect(
      await callerFor(t(), admin).workspaces.removeMember({ workspaceId: team.id, userId: editor.id }),
    ).toEqual({
      success: true,
      message: workspaceMessages.removed,
    });
    const left = await t().db.selectFrom('api_tokens').select(['name', 'workspace_id']).execute();
    expect(left).toEqual([{ name: 'own-script', workspace_id: editor.id }]);
    const editors = callerFor(t(), editor);
    expect((await editors.workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
    await expect(editors.workspaces.get({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    expect(
      await t().db.selectFrom('qr_codes').select('id').where('user_id', '=', editor.id).execute(),
    ).toEqual([{ id: personalCode.id }]);
    const feed = await callerFor(t(), admin).workspaces.activity({ workspaceId: team.id, limit: 1 });
    expect(feed.items[0]).toMatchObject({
      action: 'member.removed',
      targetLabel: 'edith',
      details: { role: 'editor' },
    });
    await expect(
      callerFor(t(), admin).workspaces.removeMember({ workspaceId: team.id, userId: editor.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: workspaceMessages.memberNotFound });
  });

  it('switch remembers the workspace; a removed member’s remembered team falls back to their own', async () => {
    const { team, owner, editor, stranger } = await staffedTeam(t());
    const editors = callerFor(t(), editor);
    expect(await editors.workspaces.current()).toMatchObject({
      id: editor.id,
      kind: 'personal',
      name: 'Personal',
    });

    expect(await editors.workspaces.switch({ workspaceId: team.id })).toMatchObject({
      id: team.id,
      role: 'editor',
    });
    const remembered = await fresh(t(), editor);
    expect(remembered.current_workspace_id).toBe(team.id);
    expect(await callerFor(t(), remembered).workspaces.current()).toMatchObject({
      id: team.id,
      name: 'Marketing',
      role: 'editor',
    });
    // X-Workspace wins over the remembered one.
    expect(await callerFor(t(), remembered, { workspaceId: editor.id }).workspaces.current()).toMatchObject({
      kind: 'personal',
    });
    // Back to their own: nothing remembered.
    await callerFor(t(), remembered).workspaces.switch({ workspaceId: editor.id });
    expect((await fresh(t(), editor)).current_workspace_id).toBeNull();
    // Not theirs to switch to: 404 and nothing changes.
    const theirs = await createTeam(t(), stranger, 'Elsewhere');
    for (const workspaceId of [theirs.id, stranger.id]) {
      await expect(editors.workspaces.switch({ workspaceId })).rejects.toMatchObject(notFound);
    }
    expect((await fresh(t(), editor)).current_workspace_id).toBeNull();

    await editors.workspaces.switch({ workspaceId: team.id });
    const stale = await fresh(t(), editor);
    await callerFor(t(), owner).workspaces.removeMember({ workspaceId: team.id, userId: editor.id });
    expect((await fresh(t(), editor)).current_workspace_id).toBeNull();
    // Even a request still carrying the old choice lands in their own workspace.
    expect(stale.current_workspace_id).toBe(team.id);
    expect(await callerFor(t(), stale).workspaces.current()).toMatchObject({
      id: editor.id,
      kind: 'personal',
    });
  });

  it("a workspace one is not a member of is 404 'Workspace not found', by input and by X-Workspace", async () => {
    const { team, owner, stranger } = await staffedTeam(t());
    const strangers = callerFor(t(), stranger);
    await expect(strangers.workspaces.get({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    await expect(strangers.workspaces.members({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    await expect(strangers.workspaces.activity({ workspaceId: team.id, limit: 10 })).rejects.toMatchObject(
      notFound,
    );
    await expect(strangers.workspaces.invitations({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    await expect(
      strangers.workspaces.invite({ workspaceId: team.id, username: 'stranger', role: 'admin' }),
    ).rejects.toMatchObject(notFound);
    await expect(strangers.workspaces.leave({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    await expect(strangers.workspaces.delete({ workspaceId: team.id })).rejects.toMatchObject(notFound);
    // Another person's own workspace, and one that does not exist, answer the same.
    for (const workspaceId of [owner.id, 99_999]) {
      await expect(strangers.workspaces.get({ workspaceId })).rejects.toMatchObject(notFound);
    }
    for (const workspaceId of [team.id, owner.id, 99_999]) {
      await expect(callerFor(t(), stranger, { workspaceId }).workspaces.current()).rejects.toMatchObject(
        notFound,
      );
    }
  });

  it('a viewer may read the team but not invite (403 naming the role), and nothing is created', async () => {
    const { team, viewer } = await staffedTeam(t());
    const viewers = callerFor(t(), viewer);
    expect(await viewers.workspaces.get({ workspaceId: team.id })).toMatchObject({
      role: 'viewer',
      memberCount: 4,
    });
    expect((await viewers.workspaces.members({ workspaceId: team.id })).length).toBe(4);
    await expect(
      viewers.workspaces.invite({ workspaceId: team.id, email: 'friend@example.com', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: workspaceMessages.roleRequired('admin') });
    await expect(viewers.workspaces.invitations({ workspaceId: team.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(viewers.workspaces.rename({ workspaceId: team.id, name: 'Mine now' })).rejects.toMatchObject(
      {
        code: 'FORBIDDEN',
        message: workspaceMessages.roleRequired('owner'),
      },
    );
    expect(
      await t()
        .db.selectFrom('workspace_invitations')
        .select('id')
        .where('email', '=', 'friend@example.com')
        .execute(),
    ).toEqual([]);
  });

  it('a personal workspace has no members to manage (400)', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const own = callerFor(t(), ada);
    expect(await own.workspaces.members({ workspaceId: ada.id })).toMatchObject([
      { username: 'ada', role: 'owner' },
    ]);
    await expect(
      own.workspaces.invite({ workspaceId: ada.id, username: 'ada', role: 'viewer' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: workspaceMessages.personal });
    await expect(own.workspaces.leave({ workspaceId: ada.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(own.workspaces.delete({ workspaceId: ada.id })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('the activity feed is newest first and pages with nextBefore until null', async () => {
    const { user: ada } = await signedInUser(t(), 'ada');
    const team = await createTeam(t(), ada, 'Team 0');
    const owners = callerFor(t(), ada);
    for (let i = 1; i <= 4; i += 1)
      await owners.workspaces.rename({ workspaceId: team.id, name: `Team ${i}` });
    const labels = (items: { targetLabel: string | null }[]) => items.map((i) => i.targetLabel);

    const all = await owners.workspaces.activity({ workspaceId: team.id, limit: 50 });
    expect(all.nextBefore).toBeNull();
    expect(all.items.map((i) => i.action)).toEqual([
      'workspace.renamed',
      'workspace.renamed',
      'workspace.renamed',
      'workspace.renamed',
      'workspace.created',
    ]);
    expect(labels(all.items)).toEqual(['Team 4', 'Team 3', 'Team 2', 'Team 1', 'Team 0']);
    expect(all.items[0]).toMatchObject({
      actor: { id: ada.id, username: 'ada' },
      details: { from: 'Team 3', to: 'Team 4' },
    });

    const pages: (string | null)[][] = [];
    let before: number | undefined;
    for (;;) {
      const page = await owners.workspaces.activity({
        workspaceId: team.id,
        limit: 2,
        ...(before ? { before } : {}),
      });
      pages.push(labels(page.items));
      if (page.nextBefore === null) break;
      expect(page.nextBefore).toBe(page.items[page.items.length - 1]?.id);
      before = page.nextBefore;
    }
    expect(pages).toEqual([['Team 4', 'Team 3'], ['Team 2', 'Team 1'], ['Team 0']]);
    // An exact last page says so too.
    const exact = await owners.workspaces.activity({ workspaceId: team.id, limit: 5 });
    expect([exact.items.length, exact.nextBefore]).toEqual([5, null]);
  });

  it('delete: owners only; it deletes the team’s codes, folders, tokens and memberships, never a member’s own', async () => {
    const { team, owner, admin, editor } = await staffedTeam(t());
    const folder = await insertFolderRow(t().db, team.id, 'Menus');
    await insertQrRow(t().db, { userId: team.id, folderId: folder.id, isDynamic: true });
    await insertQrRow(t().db, { userId: team.id });
    const own = await insertQrRow(t().db, { userId: editor.id });
    await t()
      .db.insertInto('api_tokens')
      .values({
        user_id: admin.id,
        workspace_id: team.id,
        name: 'team-script',
        token_hash: 'hash-team',
        prefix: 'qrc_team',
        scope: 'read',
        created_at: new Date().toISOString(),
      })
      .execute();
    await callerFor(t(), editor).workspaces.switch({ workspaceId: team.id });
    expect(await callerFor(t(), owner).workspaces.get({ workspaceId: team.id })).toMatchObject({
      qrCodeCount: 2,
    });

    for (const who of [admin, editor]) {
      await expect(callerFor(t(), who).workspaces.delete({ workspaceId: team.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: workspaceMessages.roleRequired('owner'),
      });
    }
    expect(await callerFor(t(), owner).workspaces.delete({ workspaceId: team.id })).toEqual({
      success: true,
      message: workspaceMessages.deleted,
    });

    expect(await t().db.selectFrom('qr_codes').select(['id', 'user_id']).execute()).toEqual([
      { id: own.id, user_id: editor.id },
    ]);
    expect(await t().db.selectFrom('folders').select('id').execute()).toEqual([]);
    expect(await t().db.selectFrom('api_tokens').select('id').execute()).toEqual([]);
    expect(await t().db.selectFrom('workspace_members').select('user_id').execute()).toEqual([]);
    expect(await t().db.selectFrom('users').select('id').where('id', '=', team.id).execute()).toEqual([]);
    expect((await fresh(t(), editor)).current_workspace_id).toBeNull();
    for (const who of [owner, admin, editor]) {
      expect((await callerFor(t(), who).workspaces.list()).map((w) => w.name)).toEqual(['Personal']);
    }
  });
});
