import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer } from '../../scripts/built-app.mjs';

/**
 * `npm run package` builds one executable; copied alone into an empty folder (no node_modules, no
 * sources) it answers --version and --help, and with no argument it runs the app like `npm start`: the
 * demo user signs in, creates a dynamic code, and its short link redirects.
 */

const root = path.resolve(import.meta.dirname, '../..');
let folder: string;
let binary: string;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-binary-'));
  const built = path.join(folder, 'build', 'qr-creator-linux-x64');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build/package.mjs')], {
    cwd: root,
    env: { ...process.env, PACKAGE_OUTPUT: built },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  console.log(result.stdout.trim().split('\n').at(-1));
  // Alone in an empty folder: nothing of the repository next to it.
  const alone = path.join(folder, 'alone');
  fs.mkdirSync(alone);
  binary = path.join(alone, 'qr-creator-linux-x64');
  fs.copyFileSync(built, binary);
  fs.chmodSync(binary, 0o755);
  fs.rmSync(path.join(folder, 'build'), { recursive: true });
}, 300_000);

afterAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('the single executable', () => {
  const env = () => ({
    PATH: '/usr/bin:/bin',
    HOME: folder,
    QR_CREATOR_CACHE: path.join(folder, 'cache'),
  });

  it('answers --version and --help, and refuses an unknown argument', () => {
    const version = spawnSync(binary, ['--version'], {
      cwd: path.dirname(binary),
      env: env(),
      encoding: 'utf8',
    });
    expect(version.status).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toContain(`qr-creator ${pkg.version}`);
    const help = spawnSync(binary, ['--help'], { cwd: path.dirname(binary), env: env(), encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: qr-creator-linux-x64');
    const bad = spawnSync(binary, ['--frobnicate'], {
      cwd: path.dirname(binary),
      env: env(),
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('Unknown argument: --frobnicate');
  });

  it('starts like npm start: the demo user signs in, creates a dynamic code and its short link redirects', async () => {
    const cwd = path.dirname(binary);
    const started = Date.now();
    const server = await startBuiltServer({
      command: binary,
      args: [],
      cwd,
      inheritEnv: false,
      env: env(),
      dataDir: null,
    });
    const base = server.url;
    try {
      console.log(
        `the binary answered /readyz ${Date.now() - started} ms after start (first start: unpacking)`,
      );
      // Data lands under ./data of the working directory, as with npm start.
      expect(fs.existsSync(path.join(cwd, 'data', 'qr-creator.db'))).toBe(true);
      const page = await fetch(`${base}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: 'demo123' }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const created = await fetch(`${base}/api/qr-codes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: base },
        body: JSON.stringify({
          name: 'From the binary',
          type: 'url',
          content: 'https://example.com/from-the-binary',
          isDynamic: true,
        }),
      });
      expect(created.status).toBe(201);
      const code = (await created.json()) as { id: number; slug: string };
      const followed = await fetch(`${base}/r/${code.slug}`, { redirect: 'manual' });
      expect(followed.status).toBe(302);
      expect(followed.headers.get('location')).toBe('https://example.com/from-the-binary');
      // The server renders images with its native addon too.
      const png = await fetch(`${base}/api/qr-codes/${code.id}/image?format=png&size=128`, {
        headers: { cookie },
      });
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
