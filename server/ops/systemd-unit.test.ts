// The systemd unit an operator copies (docs/qr-creator.service) and the page that explains it
// (docs/operations.md, "Under systemd") must agree, and the unit must keep its hardening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConfig } from '../config.js';

const root = path.resolve(import.meta.dirname, '../..');
const unitText = fs.readFileSync(path.join(root, 'docs/qr-creator.service'), 'utf8');
const operations = fs.readFileSync(path.join(root, 'docs/operations.md'), 'utf8');

/** The unit's directives by section; a directive given several times keeps each value in order. */
function parseUnit(text: string): Record<string, Record<string, string[]>> {
  const sections: Record<string, Record<string, string[]>> = {};
  let section: Record<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = sections[header[1]!] = {};
      continue;
    }
    const match = /^(\w+)=(.*)$/.exec(line);
    if (!match || !section) throw new Error(`not a unit line: ${line}`);
    (section[match[1]!] ??= []).push(match[2]!);
  }
  return sections;
}

/** The ```-fenced block of the page whose first line is `firstLine`. */
function docBlock(firstLine: string): string {
  const start = operations.indexOf(`\n${firstLine}`);
  if (start < 0) throw new Error(`docs/operations.md has no block starting with ${firstLine}`);
  const end = operations.indexOf('\n```', start + 1);
  return operations.slice(start + 1, end + 1);
}

/** `Environment=` assignments (several a line, a whole assignment possibly in double quotes). */
function environmentOf(lines: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    for (const [, quoted, plain] of line.matchAll(/"([^"]*)"|(\S+)/g)) {
      const assignment = quoted ?? plain!;
      const equals = assignment.indexOf('=');
      env[assignment.slice(0, equals)] = assignment.slice(equals + 1);
    }
  }
  return env;
}

const unit = parseUnit(unitText);
const service = unit.Service!;
const one = (key: string) => {
  expect(service[key], key).toHaveLength(1);
  return service[key]![0]!;
};

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-unit-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe('docs/qr-creator.service', () => {
  it('is the unit docs/operations.md shows, line for line', () => {
    const firstLine = unitText.split('\n')[0]!;
    expect(firstLine).toMatch(/^# \/etc\/systemd\/system\/qr-creator\.service/);
    expect(docBlock(firstLine)).toBe(unitText);
    expect(operations).toContain('](qr-creator.service)');
  });

  it('runs as a user of its own, writes only its data folder, and keeps its hardening', () => {
    expect(one('User')).toBe('qr-creator');
    expect(one('Group')).toBe('qr-creator');
    expect(operations).toMatch(/^useradd --system .*qr-creator$/m);
    const hardening = {
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ReadWritePaths: '/var/lib/qr-creator',
      PrivateTmp: 'yes',
      ProtectHome: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectControlGroups: 'yes',
      LockPersonality: 'yes',
      CapabilityBoundingSet: '',
      UMask: '0077',
    };
    for (const [key, value] of Object.entries(hardening)) expect(one(key), key).toBe(value);
    expect(one('RestrictAddressFamilies').split(' ')).toEqual(
      expect.arrayContaining(['AF_INET', 'AF_INET6', 'AF_UNIX']),
    );
    // V8's JIT writes code and then runs it: with this the server aborts at start (docs say why).
    expect(service.MemoryDenyWriteExecute).toBeUndefined();
    expect(one('WorkingDirectory').startsWith(`${one('ReadWritePaths')}`)).toBe(true);
  });

  it('starts the executable where the docs install it, with their config file and its credentials', () => {
    const [binary, ...args] = one('ExecStart').split(' ');
    expect(operations).toContain(`install -D -m 0755 qr-creator-linux-x64 ${binary}\n`);
    expect(args).toEqual(['--config', expect.stringMatching(/^\/etc\/qr-creator\/.+\.conf$/)]);
    const configPath = args[1]!;
    // The page's example of that file, with the secrets the unit hands over as credentials.
    const example = docBlock(`# ${configPath} `);
    const configFile = path.join(temp, 'qr-creator.conf');
    fs.writeFileSync(configFile, example, { mode: 0o640 });
    const credentials = path.join(temp, 'credentials');
    fs.mkdirSync(credentials);
    const sampleSecrets: Record<string, string> = {
      'smtp-url': 'smtp://mailer:secret@mail.example.com:587\n',
      'metrics-token': 'abcdefabcdefabcdefabcdefabcdef12\n',
    };
    const ids = service.LoadCredential!.map((credential) => {
      const [id, source] = credential.split(':');
      expect(source).toBe(`/etc/qr-creator/credentials/${id}`);
      expect(operations).toContain(`/etc/qr-creator/credentials/${id}`);
      fs.writeFileSync(path.join(credentials, id!), sampleSecrets[id!] ?? '', { mode: 0o600 });
      return id!;
    });
    const env = environmentOf(service.Environment!);
    const fileVariables = Object.entries(env).filter(([name]) => name.endsWith('_FILE'));
    expect(fileVariables.map(([, value]) => value).sort()).toEqual(ids.map((id) => `%d/${id}`).sort());

    const resolved = Object.fromEntries(
      Object.entries(env).map(([name, value]) => [name, value.replace('%d', credentials)]),
    );
    const check = checkConfig({ ...resolved, CONFIG_FILE: configFile });
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([]);
    expect(check.config).toMatchObject({
      smtpUrl: 'smtp://mailer:secret@mail.example.com:587',
      metricsToken: 'abcdefabcdefabcdefabcdefabcdef12',
    });
    // Everything the service writes is under ReadWritePaths (ProtectSystem=strict: the rest is read-only).
    const writable = one('ReadWritePaths');
    for (const folder of [check.config!.dataDir, env.QR_CREATOR_CACHE!]) {
      expect(folder.startsWith(`${writable}/`), folder).toBe(true);
    }
  });
});
