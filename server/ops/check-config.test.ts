import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECK_CONFIG_USAGE, checkConfigCommand, type CheckConfigIo } from './check-config.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-check-config-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the command with this environment and folder; what it printed and its exit code. */
async function checkConfig(args: string[], env: NodeJS.ProcessEnv, cwd = os.tmpdir()) {
  const out = { stdout: '', stderr: '' };
  const io: CheckConfigIo = {
    env,
    cwd,
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
  };
  const code = await checkConfigCommand(args, io);
  return { code, ...out };
}

/** Every path under `dir` with its size and modification time: what "nothing written" compares. */
function snapshot(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => {
      const stat = fs.statSync(path.join(dir, name));
      return `${name} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

describe('check-config', () => {
  it('prints Configuration OK and each setting in effect with its source, secrets masked; writes nothing', async () => {
    const dir = tempDir();
    const conf = path.join(dir, 'qr-creator.conf');
    fs.writeFileSync(
      conf,
      'PUBLIC_URL=https://qr.example.com\n' +
        '# PostgreSQL on a port where nothing listens: the command must not connect.\n' +
        'DATABASE_URL=postgres://qr:db-pass-123@127.0.0.1:1/qr\n' +
        'LOG_LEVEL=warn\n',
      { mode: 0o600 },
    );
    const tokenFile = path.join(dir, 'metrics-token');
    fs.writeFileSync(tokenFile, 'metrics-token-0123456789\n', { mode: 0o600 });
    const dataDir = path.join(dir, 'not-yet', 'data');
    const before = snapshot(dir);

    const { code, stdout, stderr } = await checkConfig(
      ['--config', 'qr-creator.conf'],
      { DATA_DIR: dataDir, PORT: '8080', ADMIN_PASSWORD: 'admin-pass-456', METRICS_TOKEN_FILE: tokenFile },
      dir,
    );

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('Configuration OK');
    expect(lines[1]).toBe(`Config file: ${conf}`);
    const row = (name: string) => lines.find((line) => line.trim().startsWith(`${name} `))?.trim();
    expect(row('PORT')).toMatch(/^PORT +8080 +environment$/);
    expect(row('DATA_DIR')).toMatch(new RegExp(`^DATA_DIR +${dataDir} +environment$`));
    expect(row('PUBLIC_URL')).toMatch(new RegExp(`^PUBLIC_URL +https://qr.example.com +CONFIG_FILE line 1$`));
    expect(row('DATABASE_URL')).toMatch(
      new RegExp(`^DATABASE_URL +postgres://qr:\\*\\*\\*\\*@127.0.0.1:1/qr +CONFIG_FILE line 3$`),
    );
    expect(row('LOG_LEVEL')).toMatch(new RegExp(`^LOG_LEVEL +warn +CONFIG_FILE line 4$`));
    expect(row('ADMIN_PASSWORD')).toMatch(/^ADMIN_PASSWORD +\*{8} +environment$/);
    expect(row('METRICS_TOKEN')).toMatch(
      new RegExp(`^METRICS_TOKEN +\\*{8} +METRICS_TOKEN_FILE ${tokenFile}$`),
    );
    // Defaults and values derived from others are shown as the server would use them.
    expect(row('HOST')).toMatch(/^HOST +0\.0\.0\.0 +default$/);
    expect(row('SEED_DEMO')).toMatch(/^SEED_DEMO +false +default$/);
    expect(row('MAIL_FROM')).toMatch(/^MAIL_FROM +QR Creator <no-reply@qr\.example\.com> +default$/);
    expect(row('SMTP_URL')).toMatch(/^SMTP_URL +unset +default$/);
    for (const secret of ['db-pass-123', 'admin-pass-456', 'metrics-token-0123456789']) {
      expect(stdout).not.toContain(secret);
    }
    // No database opened or created, DATA_DIR not made, nothing written.
    expect(fs.existsSync(path.join(dir, 'not-yet'))).toBe(false);
    expect(snapshot(dir)).toEqual(before);
  });

  it('names every bad value at once and exits 1, then what the server would trip on in the file system', async () => {
    const dir = tempDir();
    const bad = await checkConfig([], {
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      METRICS_TOKEN_FILE: path.join(dir, 'missing-token'),
      CONFIG_FILE: path.join(dir, 'missing.conf'),
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      `Invalid configuration: CONFIG_FILE ${path.join(dir, 'missing.conf')} cannot be read: no such file\n` +
        `Invalid configuration: METRICS_TOKEN_FILE ${path.join(dir, 'missing-token')} cannot be read: no such file\n` +
        'Invalid configuration: PORT must be a port number\n' +
        'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent\n' +
        '4 problems: the server would not start.\n',
    );

    const notAFolder = path.join(dir, 'a-file');
    fs.writeFileSync(notAFolder, '');
    const places = await checkConfig([], {
      DATA_DIR: notAFolder,
      DATABASE_URL: `sqlite:${path.join(notAFolder, 'db', 'qr-creator.db')}`,
      GEOIP_CITY_DB: path.join(dir, 'GeoLite2-City.mmdb'),
    });
    expect(places.code).toBe(1);
    expect(places.stderr).toBe(
      `Invalid configuration: DATA_DIR ${notAFolder} is not a folder\n` +
        `Invalid configuration: DATABASE_URL ${path.join(notAFolder, 'db', 'qr-creator.db')}: ` +
        `cannot be created: ${notAFolder} is not a folder\n` +
        `Invalid configuration: GEOIP_CITY_DB ${path.join(dir, 'GeoLite2-City.mmdb')}: no such file\n` +
        '3 problems: the server would not start.\n',
    );
  });

  it('passes with warnings: a config file others can read holding a secret, TRUST_PROXY=true on 0.0.0.0', async () => {
    const dir = tempDir();
    const conf = path.join(dir, 'qr.conf');
    fs.writeFileSync(conf, 'SMTP_URL=smtp://mailer:mail-pass@mail.example.com:587\nTRUST_PROXY=true\n');
    fs.chmodSync(conf, 0o644);
    const { code, stdout, stderr } = await checkConfig([`--config=${conf}`], { DATA_DIR: dir });
    expect(code).toBe(0);
    expect(stdout).toContain('Configuration OK');
    expect(stdout).toContain('smtp://mailer:****@mail.example.com:587');
    expect(stdout).not.toContain('mail-pass');
    expect(stderr.split('\n')).toEqual([
      `Warning: CONFIG_FILE ${conf} holds secrets (SMTP_URL) and other users can read it (mode 0644): ` +
        'chmod 600 it, or move the secrets to files named by SMTP_URL_FILE.',
      expect.stringMatching(/^Warning: TRUST_PROXY=true believes X-Forwarded-For from any client/),
      '',
    ]);
  });

  it('answers --help, and refuses an unknown argument or --config without a file', async () => {
    expect(await checkConfig(['--help'], {})).toEqual({ code: 0, stdout: CHECK_CONFIG_USAGE, stderr: '' });
    const unknown = await checkConfig(['--verbose'], {});
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`check-config: unknown argument "--verbose".\n${CHECK_CONFIG_USAGE}`);
    const noFile = await checkConfig(['--config'], {});
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toBe(`check-config: --config needs a file name.\n${CHECK_CONFIG_USAGE}`);
  });
});
