import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './harness';

const root = path.resolve(import.meta.dirname, '../..');

function runMain(env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'dist/server.mjs')], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the server process', () => {
  it.each([
    ['PORT', 'abc'],
    ['SEED_DEMO', 'maybe'],
    ['DATABASE_URL', 'mysql://db/app'],
    ['PUBLIC_URL', 'ftp://example.com'],
  ])('refuses to start with %s=%s, in one line naming the variable', async (name, value) => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-cfg-'));
    const { code, stderr } = await runMain({ DATA_DIR: dataDir, [name]: value });
    await fs.rm(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.trim() && !l.includes('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(lines[0]).not.toContain(value);
  });

  it('answers /healthz and /readyz, serves deep links, 404s a missing asset, and exits 0 on SIGTERM with one summary line', async () => {
    const server = await startServer({ SEED_DEMO: 'false' });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const deepLink = await fetch(`${server.url}/qr-details/5`);
      expect(deepLink.status).toBe(200);
      expect(await deepLink.text()).toContain('<div id="root">');
      // A chunk of an older build: a 404, not the page parsed as JavaScript.
      const staleChunk = await fetch(`${server.url}/assets/index-0ld0ld0l.js`);
      expect(staleChunk.status).toBe(404);
      expect(await staleChunk.text()).toBe('Not found: /assets/index-0ld0ld0l.js\n');
      const api404 = await fetch(`${server.url}/api/nothing-here`);
      expect(api404.status).toBe(404);
      expect(await api404.json()).toMatchObject({ code: 'NOT_FOUND' });
      const generated = await fs.readFile(path.join(server.dataDir, 'initial-admin-password.txt'), 'utf8');
      expect(generated.trim().length).toBeGreaterThanOrEqual(16);
      expect((await fs.stat(path.join(server.dataDir, 'initial-admin-password.txt'))).mode & 0o777).toBe(
        0o600,
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const stopped = server.logs.filter((line) => line.includes('"msg":"stopped"'));
    expect(stopped).toHaveLength(1);
    const line = JSON.parse(stopped[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, signal: 'SIGTERM', refused: 0 });
    expect(typeof line.finishedInFlight).toBe('number');
    expect(typeof line.ms).toBe('number');
  });
});
