import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertTeam } from '../features/workspaces/workspaces.repository.js';
import type { CliIo } from './cli.js';
import { createAdminCommand } from './create-admin-command.js';

// `create-admin <username>` makes a person an admin, never a team workspace's row (kind 'team').

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it("refuses a team workspace's handle as a taken username and leaves the team as it was", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-create-admin-team-'));
  temps.push(dataDir);
  const url = `sqlite:${path.join(dataDir, 'qr-creator.db')}`;
  const handle = createDb(url);
  let teamId: number;
  try {
    await migrateToLatest(handle.db);
    teamId = (await insertTeam(handle.db, 'Marketing', 'team~marketing1', new Date().toISOString())).id;
  } finally {
    await handle.close();
  }

  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    env: { DATA_DIR: dataDir, ADMIN_PASSWORD: 'long-enough' },
    cwd: dataDir,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
  };
  expect(await createAdminCommand(['TEAM~marketing1'], io)).toBe(1);
  expect(out.stderr).toBe('create-admin refused: the username "TEAM~marketing1" is taken.\n');

  const after = createDb(url);
  try {
    const rows = await after.db.selectFrom('users').select(['id', 'username', 'is_admin', 'kind']).execute();
    expect(rows).toEqual([{ id: teamId, username: 'team~marketing1', is_admin: 0, kind: 'team' }]);
    expect(await after.db.selectFrom('audit_log').select('id').execute()).toEqual([]);
  } finally {
    await after.close();
  }
});
