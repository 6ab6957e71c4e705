import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenMessages } from '../../src/auth/api-token.schema.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertMember, insertTeam } from '../features/workspaces/workspaces.repository.js';
import { insertTestUser } from '../test/fixtures.js';
import { call, createTestApp } from '../test/test-app.js';
import type { TestDb } from '../test/test-db.js';
import type { CliIo } from './cli.js';
import { createTokenCommand } from './token-command.js';

// `create-token`: a token minted on the host, for scripts and CI. The first test runs the real entry
// (server/main.ts, as dist/server.mjs does) against a SQLite file; the refusals run the command in-process.

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A migrated SQLite file in a fresh DATA_DIR with the people a test needs; its ids. */
async function dataDirWith(setup: (db: TestDb['db']) => Promise<void>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-create-token-'));
  temps.push(dataDir);
  const url = `sqlite:${path.join(dataDir, 'qr-creator.db')}`;
  const handle = createDb(url);
  try {
    await migrateToLatest(handle.db);
    await setup(handle.db);
  } finally {
    await handle.close();
  }
  return { dataDir, url };
}

function testIo(dataDir: string) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    env: { DATA_DIR: dataDir },
    cwd: dataDir,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
  };
  return { io, out };
}

describe('create-token', () => {
  it('prints only the token, which then works on GET /api/qr-codes, and audits it as made on the command line', async () => {
    const { dataDir, url } = await dataDirWith(async (db) => {
      await insertTestUser(db, { username: 'ada' });
    });
    const made = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'server/main.ts'),
        'create-token',
        '--user',
        'Ada',
        '--name',
        'CI deploy',
        '--scope',
        'write',
        '--expires-days',
        '30',
      ],
      { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0' }, timeout: 60_000 },
    );
    expect(made.stdout).toMatch(/^qrc_[A-Za-z0-9_-]{30,}\n$/);
    const token = made.stdout.trim();
    expect(made.stderr).toMatch(
      /^Created the API token qrc_.{6}… "CI deploy" \(write\) for ada in their own workspace, expiring \d{4}-\d\d-\d\dT[\d:.]+Z\. It is shown only this once\.\n$/,
    );

    const handle = createDb(url);
    const db: TestDb = {
      handle,
      db: handle.db,
      dialect: handle.dialect,
      reset: () => Promise.resolve(),
      close: handle.close,
    };
    const t = await createTestApp(db);
    try {
      const listed = await call(t.app, 'GET', '/api/qr-codes', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toEqual([]);
      // Write scope: it may create too.
      const created = await call(t.app, 'POST', '/api/qr-codes', {
        headers: { authorization: `Bearer ${token}` },
        json: { name: 'From CI', type: 'url', content: 'https://example.com/ci' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const audit = await t.db
        .selectFrom('audit_log')
        .select(['actor_username', 'action', 'target_label'])
        .where('action', '=', 'token.created')
        .execute();
      expect(audit).toEqual([{ actor_username: 'ada', action: 'token.created', target_label: 'ada' }]);
    } finally {
      await t.close();
      await handle.close();
    }
  });

  it('refuses an unknown user, a bad scope, an admin scope for a non-admin and a team the user does not run, with exit code 2', async () => {
    let teamId = 0;
    const { dataDir } = await dataDirWith(async (db) => {
      const bob = await insertTestUser(db, { username: 'bob' });
      await insertTestUser(db, { username: 'root', isAdmin: true });
      teamId = (await insertTeam(db, 'Marketing', 'team~marketing1', new Date().toISOString())).id;
      await insertMember(db, teamId, bob.id, 'editor', new Date().toISOString());
    });
    const attempt = async (args: string[]) => {
      const { io, out } = testIo(dataDir);
      const code = await createTokenCommand(args, io);
      return { code, ...out };
    };
    const base = ['--name', 'Script'];
    expect(await attempt(['--user', 'nobody', ...base, '--scope', 'read'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'create-token refused: there is no user "nobody".\n',
    });
    expect(await attempt(['--user', 'bob', ...base, '--scope', 'owner'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'create-token refused: --scope: Scope must be read, write or admin.\n',
    });
    expect(await attempt(['--user', 'bob', ...base, '--scope', 'admin'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `create-token refused: ${tokenMessages.adminScope}: "bob" is not an admin.\n`,
    });
    expect(
      await attempt(['--user', 'bob', ...base, '--scope', 'read', '--expires-days', 'soon']),
    ).toMatchObject({
      code: 2,
      stderr: 'create-token refused: --expires-days must be a whole number of days.\n',
    });
    expect(await attempt(['--user', 'bob', ...base, '--scope', 'read', '--expires-days', '0'])).toMatchObject(
      {
        code: 2,
        stderr: 'create-token refused: --expires-days: expiresInDays must be between 1 and 3650.\n',
      },
    );
    expect(
      await attempt(['--user', 'bob', ...base, '--scope', 'write', '--workspace', String(teamId)]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `create-token refused: "bob" is an editor of workspace ${teamId} ("Marketing"); tokens of a team are made by its admins.\n`,
    });
    expect(
      await attempt(['--user', 'root', ...base, '--scope', 'read', '--workspace', String(teamId)]),
    ).toMatchObject({
      code: 2,
      stderr: `create-token refused: "root" is not a member of workspace ${teamId}.\n`,
    });
    const missing = await attempt(['--user', 'bob', '--scope', 'read']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Name the token: --name <label>/);
    expect((await attempt(['--user', 'bob', '--frob'])).stderr).toMatch(/^Unknown option --frob\./);

    // An admin may make an admin token; nothing of the refused ones was made.
    const ok = await attempt(['--user=root', '--name=Ops', '--scope=admin']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^qrc_\S+\n$/);
    const handle = createDb(`sqlite:${path.join(dataDir, 'qr-creator.db')}`);
    try {
      const rows = await handle.db.selectFrom('api_tokens').select(['name', 'scope', 'expires_at']).execute();
      expect(rows).toEqual([{ name: 'Ops', scope: 'admin', expires_at: null }]);
    } finally {
      await handle.close();
    }
  });
});
