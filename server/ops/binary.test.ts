import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer } from '../../scripts/built-app.mjs';
import { startCommand } from '../../scripts/bench/start-command.mjs';

/**
 * `npm run package` builds one executable; copied alone into an empty folder (no node_modules, no
 * sources) it answers --version itself and passes every other argument to the server bundle, which runs
 * with npm start's memory settings; with no argument it runs the app like `npm start`: the demo user signs
 * in, creates a dynamic code, and its short link redirects. A start removes the unpacked copies of other
 * versions that no running process uses.
 */

const root = path.resolve(import.meta.dirname, '../..');
let folder: string;
let binary: string;
let cache: string;

/**
 * Loaded into the executable's server through NODE_OPTIONS (an operator's setting it must keep): once the
 * launcher has handed over to the bundle, it writes what the bundle sees to $PROBE_OUT.
 */
const probe = `
const write = () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify({
  pid: process.pid,
  argv: process.argv,
  heapSizeLimit: require('node:v8').getHeapStatistics().heap_size_limit,
  sourceMaps: process.sourceMapsEnabled,
  env: { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ },
}));
setTimeout(write, 0);
process.on('exit', write);
`;

beforeAll(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-binary-'));
  cache = path.join(folder, 'cache');
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
  fs.writeFileSync(path.join(folder, 'probe.cjs'), probe);
}, 300_000);

afterAll(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

/** The child processes of a process (its threads are not counted). */
const childrenOf = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);

describe('the single executable', () => {
  const env = () => ({
    PATH: '/usr/bin:/bin',
    HOME: folder,
    QR_CREATOR_CACHE: cache,
  });

  it('answers --version without unpacking, and passes other arguments to the bundle with npm start’s settings', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const version = spawnSync(binary, ['--version'], {
      cwd: path.dirname(binary),
      env: env(),
      encoding: 'utf8',
    });
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`qr-creator ${pkg.version} (Node ${process.version})\n`);
    expect(fs.existsSync(cache)).toBe(false);

    // An argument the launcher does not know goes to the bundle as `node dist/server.mjs version` would.
    // The operator's own settings are kept: a MALLOC_ARENA_MAX and a NODE_OPTIONS flag of theirs.
    const out = path.join(folder, 'probe.json');
    const child = spawn(binary, ['version'], {
      cwd: path.dirname(binary),
      env: {
        ...env(),
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(folder, 'data-version'),
        MALLOC_ARENA_MAX: '4',
        NODE_OPTIONS: `--require ${path.join(folder, 'probe.cjs')}`,
        PROBE_OUT: out,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await expect.poll(() => fs.existsSync(out), { timeout: 60_000, interval: 50 }).toBe(true);
    const seen = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      pid: number;
      argv: string[];
      heapSizeLimit: number;
      sourceMaps: boolean;
      env: Record<string, string>;
    };
    // The bundle runs the command and exits: the build's version and the database's state.
    expect(await exited, output).toBe(0);
    expect(output).toContain(`qr-creator ${pkg.version} (Node ${process.version})\n`);
    expect(output).toContain('database: sqlite:');
    expect(output).not.toContain('Server listening');
    // --help: the launcher's lines, then the server's commands; an unknown command is named, exit 2.
    const help = spawnSync(binary, ['--help'], { env: env(), encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('QR_CREATOR_CACHE');
    for (const command of ['backup', 'restore', 'migrate', 'check-config', 'create-admin', 'version'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const unknown = spawnSync(binary, ['frobnicate'], { env: env(), encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown argument "frobnicate"');

    const hash = fs.readdirSync(cache).find((name) => /^[0-9a-f]{16}$/.test(name));
    expect(seen.argv).toEqual([binary, path.join(cache, hash!, 'dist', 'server.mjs'), 'version']);
    // The executable became the server itself (execve): no launcher stays behind.
    expect(seen.pid).toBe(child.pid);
    // npm start's Node flags: the same heap limit as `node <its flags>` (512 MiB old space, 4 MiB
    // semi-spaces), and source maps.
    const start = startCommand(root);
    const flags = start.args.filter((arg) => arg.startsWith('--'));
    const expected = spawnSync(
      process.execPath,
      [...flags, '-p', "require('node:v8').getHeapStatistics().heap_size_limit"],
      { encoding: 'utf8' },
    );
    expect(seen.heapSizeLimit).toBe(Number(expected.stdout));
    expect(seen.heapSizeLimit).toBeLessThan(600 * 1024 * 1024);
    expect(seen.sourceMaps).toBe(true);
    expect(seen.env).toEqual({ ...start.env, MALLOC_ARENA_MAX: '4' });
  }, 120_000);

  it('starts like npm start: the demo user signs in, creates a dynamic code and its short link redirects', async () => {
    const cwd = path.dirname(binary);
    // What earlier versions left in the cache: a copy whose process is gone (removed), one a running
    // process uses (kept), a folder being unpacked right now (kept), and a link to a folder elsewhere.
    const hash = fs.readdirSync(cache).find((name) => /^[0-9a-f]{16}$/.test(name))!;
    const copy = (name: string, pid: number, started: string) => {
      fs.mkdirSync(path.join(cache, name, '.in-use'), { recursive: true });
      fs.writeFileSync(path.join(cache, name, '.complete'), '');
      fs.writeFileSync(path.join(cache, name, '.in-use', String(pid)), started);
    };
    const ended = spawnSync('true');
    copy('0000000000000001', ended.pid, '1');
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    copy('0000000000000002', process.pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!);
    fs.mkdirSync(path.join(cache, `0000000000000003.tmp-${ended.pid}`));
    const elsewhere = path.join(folder, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'keep'), '');
    fs.symlinkSync(elsewhere, path.join(cache, '0000000000000004'));

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
      console.log(`the binary answered /readyz ${Date.now() - started} ms after start`);
      // One process, the server: it runs from the unpacked copy and marks it in use while it runs.
      expect(childrenOf(server.child.pid!)).toEqual([]);
      expect(fs.existsSync(path.join(cache, hash, '.in-use', String(server.child.pid)))).toBe(true);
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

      // Pruned after the start, in one line.
      await expect
        .poll(() => server.logs.filter((line) => line.includes('unpacked cop')), { timeout: 15_000 })
        .toEqual([`QR Creator removed 1 unpacked copy of other versions from ${cache}: 0000000000000001`]);
      expect(fs.readdirSync(cache).sort()).toEqual(
        ['0000000000000002', `0000000000000003.tmp-${ended.pid}`, '0000000000000004', hash].sort(),
      );
      expect(fs.readdirSync(elsewhere)).toEqual(['keep']);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Its mark goes with it.
    expect(fs.readdirSync(path.join(cache, hash, '.in-use'))).toEqual([]);
  }, 120_000);
});
