import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  describeChanges,
  describeDesignChange,
  readSnapshot,
  sameState,
  snapshotOf,
  stateOf,
  type VersionSnapshot,
} from './history.js';

const base: VersionSnapshot = {
  name: 'Menu',
  content: 'https://example.com/menu',
  customization: { foregroundColor: '#000000', backgroundColor: '#FFFFFF', errorCorrectionLevel: 'M' },
};

describe('snapshotOf', () => {
  it("keeps the code's editable state (its short link's slug too), and the redirect options and password flag when the answer has them", () => {
    const code = {
      id: 3,
      name: 'Menu',
      content: 'https://example.com/menu',
      customization: { foregroundColor: '#000000' },
      slug: 'abc1234',
      updated: '2026-11-26T00:00:00.000Z',
    };
    expect(snapshotOf(code)).toEqual({
      name: 'Menu',
      content: 'https://example.com/menu',
      customization: { foregroundColor: '#000000' },
      slug: 'abc1234',
    });
    // A static code has no slug.
    expect(snapshotOf({ ...code, slug: null })).not.toHaveProperty('slug');
    const withOptions = { ...code, redirectOptions: { paused: true }, hasPassword: true, passwordHash: 'x' };
    expect(snapshotOf(withOptions)).toEqual({
      name: 'Menu',
      content: 'https://example.com/menu',
      customization: { foregroundColor: '#000000' },
      slug: 'abc1234',
      redirectOptions: { paused: true },
      hasPassword: true,
    });
    expect(snapshotOf({ ...code, redirectOptions: null, hasPassword: false })).toMatchObject({
      redirectOptions: null,
      hasPassword: false,
    });
  });
});

describe('readSnapshot', () => {
  it('reads JSON text or a parsed value, and a damaged one as empty', () => {
    expect(readSnapshot(JSON.stringify(base))).toEqual(base);
    expect(readSnapshot(base)).toEqual(base);
    expect(readSnapshot('not json')).toEqual({ name: '', content: '', customization: {} });
    expect(readSnapshot({ name: 3, content: 'x', hasPassword: 'yes' })).toEqual({
      name: '',
      content: 'x',
      customization: {},
    });
  });
});

describe('canonicalJson', () => {
  it('writes equal objects alike whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, { e: 2, f: 1 }] }, b: 1 }),
    );
  });
});

describe('describeDesignChange', () => {
  it('names only the aspects that changed, old and new', () => {
    expect(
      describeDesignChange(
        { foregroundColor: '#000000' },
        { foregroundColor: '#1A237E', logo: { url: '/api/uploads/abc', size: 40 } },
      ),
    ).toEqual({ before: 'foreground #000000, no logo', after: 'foreground #1A237E, logo 40 %' });
    expect(describeDesignChange({ logo: { url: '/api/uploads/abc', size: 40 } }, {})).toEqual({
      before: 'logo 40 %',
      after: 'logo removed',
    });
    expect(
      describeDesignChange(
        { logo: { url: '/api/uploads/a', size: 40 } },
        { logo: { url: '/api/uploads/b' } },
      ),
    ).toEqual({ before: 'logo 40 %', after: 'another logo' });
    expect(
      describeDesignChange(
        { backgroundColor: '#FFFFFF', errorCorrectionLevel: 'M' },
        { backgroundColor: 'transparent', errorCorrectionLevel: 'H' },
      ),
    ).toEqual({
      before: 'background #FFFFFF, error correction M',
      after: 'background transparent, error correction H',
    });
    expect(
      describeDesignChange({}, { frame: { enabled: true, text: 'Menu', style: 'square', color: '#112233' } }),
    ).toEqual({ before: 'no frame', after: 'frame “Menu” square #112233' });
  });

  it('is null for the same design, defaults written out or not', () => {
    expect(describeDesignChange({}, { foregroundColor: '#000000', style: 'square' })).toBeNull();
    // A disabled frame is no frame.
    expect(describeDesignChange({}, { frame: { enabled: false } })).toBeNull();
  });
});

describe('describeChanges', () => {
  it('says nothing for the same state', () => {
    expect(describeChanges('url', base, { ...base })).toEqual([]);
    expect(sameState('url', base, { ...base, customization: { style: 'square' } })).toBe(true);
  });

  it("reads a link code's content as its destination, any other as its description", () => {
    expect(describeChanges('url', base, { ...base, content: 'https://example.com/b' })).toEqual([
      { field: 'destination', before: 'https://example.com/menu', after: 'https://example.com/b' },
    ]);
    expect(
      describeChanges(
        'email',
        { ...base, content: 'mailto:a@example.com?subject=Hi' },
        { ...base, content: 'mailto:b@example.com?subject=Hi' },
      ),
    ).toEqual([
      { field: 'content', before: 'Email: a@example.com — Hi', after: 'Email: b@example.com — Hi' },
    ]);
    expect(stateOf('text', { ...base, content: 'Hello\nworld' })).toEqual({
      name: 'Menu',
      content: 'Text: Hello world',
    });
  });

  it('shortens a very long destination', () => {
    const long = `https://example.com/${'a'.repeat(400)}`;
    const [change] = describeChanges('url', base, { ...base, content: long });
    expect(Array.from(change!.after)).toHaveLength(300);
    expect(change!.after.endsWith('…')).toBe(true);
  });

  it('names rules, schedule, tracking and password changes of the redirect options', () => {
    const after: VersionSnapshot = {
      ...base,
      redirectOptions: {
        rules: [
          {
            label: 'iPhones',
            conditions: [{ kind: 'os', os: ['ios'] }],
            destination: 'https://apps.apple.com/x',
          },
          {
            conditions: [
              { kind: 'country', countries: ['FR', 'BE'] },
              { kind: 'time', days: [1, 2], from: '09:00', until: '17:00' },
            ],
            destination: 'https://example.fr/',
          },
        ],
        timeZone: 'Europe/Paris',
        activeUntil: '2026-12-31T23:00:00.000Z',
        maxScans: 100,
        paused: false,
        utm: { source: 'qr', campaign: 'winter' },
        forwardQuery: true,
      },
      hasPassword: true,
    };
    expect(describeChanges('url', base, after)).toEqual([
      {
        field: 'rules',
        before: 'none',
        after:
          '2 rules: iPhones → https://apps.apple.com/x; country FR, BE and Mon, Tue 09:00–17:00 → https://example.fr/ (Europe/Paris)',
      },
      {
        field: 'schedule',
        before: 'always active',
        after: 'until 2026-12-31T23:00:00.000Z, at most 100 scans',
      },
      {
        field: 'tracking',
        before: 'none',
        after: 'UTM utm_source=qr, utm_campaign=winter; forwards the scan’s query',
      },
      { field: 'password', before: 'none', after: 'set' },
    ]);
    // And back.
    expect(describeChanges('url', after, base).map((c) => [c.field, c.after])).toEqual([
      ['rules', 'none'],
      ['schedule', 'always active'],
      ['tracking', 'none'],
      ['password', 'none'],
    ]);
  });

  it('counts missing options, null options and options at their defaults as the same: none', () => {
    const defaults = {
      rules: [],
      timeZone: 'UTC',
      activeFrom: null,
      activeUntil: null,
      maxScans: null,
      paused: false,
      inactiveMessage: '',
      fallbackUrl: null,
      utm: null,
      forwardQuery: false,
    };
    expect(describeChanges('url', base, { ...base, redirectOptions: null, hasPassword: false })).toEqual([]);
    expect(describeChanges('url', base, { ...base, redirectOptions: defaults })).toEqual([]);
  });

  it('says a pause, and something new in the options it does not know', () => {
    expect(describeChanges('url', base, { ...base, redirectOptions: { paused: true, extra: 1 } })).toEqual([
      { field: 'schedule', before: 'always active', after: 'paused' },
      { field: 'options', before: '{}', after: '{"extra":1}' },
    ]);
  });
});
