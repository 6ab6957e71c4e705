import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIfNeeded, startBuiltServer } from '../../scripts/built-app.mjs';
import { createDb } from '../db/create-db.js';
import { backupSqlite } from './backup.js';

/** Password and session hashes, uploads, mails and backups are readable by the server's user alone. */

let folder: string;
const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-private-'));
});
afterAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('private files', () => {
  it('the real server creates DATA_DIR 0700, its database, WAL, shared memory, admin password and mails 0600', async () => {
    buildIfNeeded();
    const dataDir = path.join(folder, 'fresh', 'data');
    const server = await startBuiltServer({
      dataDir,
      env: { LOG_LEVEL: 'warn', REQUIRE_EMAIL_VERIFICATION: 'true' },
    });
    try {
      const base = server.url;
      // A registration mails its link to the outbox.
      const res = await fetch(`${base}/api/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'privy',
          password: 'secret-pass',
          name: 'Pri Vy',
          email: 'privy@example.com',
        }),
      });
      expect(res.status).toBe(200);
      const outbox = path.join(dataDir, 'outbox');
      // A mail is written as <name>.eml.part, then renamed: only a whole .eml counts.
      const mails = () =>
        fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
      for (let i = 0; i < 300 && mails().length === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const db = path.join(dataDir, 'qr-creator.db');
      expect({
        dataDir: modeOf(dataDir),
        db: modeOf(db),
        wal: modeOf(`${db}-wal`),
        shm: modeOf(`${db}-shm`),
        adminPassword: modeOf(path.join(dataDir, 'initial-admin-password.txt')),
        outbox: modeOf(outbox),
        mail: modeOf(path.join(outbox, mails()[0]!)),
      }).toEqual({
        dataDir: '700',
        db: '600',
        wal: '600',
        shm: '600',
        adminPassword: '600',
        outbox: '700',
        mail: '600',
      });
    } finally {
      await server.stop();
    }
  }, 240_000);

  it('narrows a database an older version left readable, and writes backups 0600', async () => {
    const dir = path.join(folder, 'old');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const file = path.join(dir, 'qr-creator.db');
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    const handle = createDb(`sqlite:${file}`);
    await handle.db.schema.createTable('t').addColumn('a', 'integer').execute();
    await handle.close();
    expect([modeOf(dir), modeOf(file)]).toEqual(['700', '600']);
    const backup = await backupSqlite(file, path.join(dir, 'backups', 'copy.db'));
    expect([modeOf(path.dirname(backup.file)), modeOf(backup.file)]).toEqual(['700', '600']);
  });
});
