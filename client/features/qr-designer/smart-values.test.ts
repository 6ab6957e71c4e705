import { describe, expect, it } from 'vitest';
import { smartRedirectSchema, type SmartRedirect } from '../../../src/qr/smart-redirect';
import {
  checkSmart,
  initialSmartValues,
  newCondition,
  newRule,
  passwordOf,
  redirectOptionsOf,
  smartDraftOf,
  smartPartOf,
  smartRedirectApplies,
  smartSummaries,
  smartValuesFromDraft,
  smartValuesOf,
  type SmartRedirectValues,
} from './smart-values';

const base = (patch: Partial<SmartRedirectValues> = {}): SmartRedirectValues => ({
  ...initialSmartValues('Europe/Paris'),
  ...patch,
});

function appRules(): SmartRedirectValues {
  const ios = newRule();
  ios.conditions[0]!.os = ['ios'];
  ios.destination = 'apps.apple.com/app/id1';
  const android = newRule();
  android.conditions[0]!.os = ['android'];
  android.destination = 'https://play.google.com/store/apps/details?id=x';
  return base({ rules: [ios, android] });
}

describe('redirectOptionsOf', () => {
  it('is null when nothing is on', () => {
    expect(redirectOptionsOf(base())).toBeNull();
    expect(checkSmart(base())).toEqual({ options: null, errors: {}, problem: null });
  });

  it('sends the rules in order, bare domains completed, through the shared schema', () => {
    const options = redirectOptionsOf(appRules())!;
    expect(options.rules).toEqual([
      { conditions: [{ kind: 'os', os: ['ios'] }], destination: 'https://apps.apple.com/app/id1' },
      {
        conditions: [{ kind: 'os', os: ['android'] }],
        destination: 'https://play.google.com/store/apps/details?id=x',
      },
    ]);
    expect(options.timeZone).toBe('Europe/Paris');
    expect(smartRedirectSchema.parse(options)).toEqual(options);
  });

  it('reads schedule times on the wall clock of the chosen zone', () => {
    const options = redirectOptionsOf(
      base({ activeFrom: '2026-12-01T09:00', activeUntil: '2026-12-24T18:00', maxScans: 500 }),
    )!;
    expect(options.activeFrom).toBe('2026-12-01T08:00:00.000Z');
    expect(options.activeUntil).toBe('2026-12-24T17:00:00.000Z');
    expect(options.maxScans).toBe(500);
  });

  it('sends UTM (source defaulting to qr), pause, message and fallback', () => {
    const options = redirectOptionsOf(
      base({
        paused: true,
        inactiveMessage: '  Back in spring  ',
        fallbackUrl: 'example.com/closed',
        utmOn: true,
        utm: { source: '', medium: 'print', campaign: 'spring', term: '', content: '' },
        forwardQuery: true,
      }),
    )!;
    expect(options).toMatchObject({
      paused: true,
      inactiveMessage: 'Back in spring',
      fallbackUrl: 'https://example.com/closed',
      utm: { source: 'qr', medium: 'print', campaign: 'spring' },
      forwardQuery: true,
    });
  });
});

describe('checkSmart', () => {
  it('puts each problem under its input, without repeating the rule number', () => {
    const v = appRules();
    v.rules[1]!.destination = '';
    v.rules[0]!.conditions.push({ ...newCondition('dates') });
    const { errors, options, problem } = checkSmart(v);
    expect(options).toBeUndefined();
    // The shared schema's wording, minus the 'Rule 1, condition 2: ' its messages start with.
    expect(Object.keys(errors)).toEqual(['smart.rules.0.conditions.1.dateFrom', 'smart.rules.1.destination']);
    expect(errors['smart.rules.1.destination']).toMatch(/^Destination is required$/);
    expect(errors['smart.rules.0.conditions.1.dateFrom']).toMatch(/^[A-Z](?!ule \d)/);
    expect(problem).toBe(`Rule 1, condition 2: ${errors['smart.rules.0.conditions.1.dateFrom']}`);
  });

  it('maps a condition’s date range and an empty choice to their inputs', () => {
    const v = base({ rules: [newRule()] });
    v.rules[0]!.destination = 'https://example.com';
    v.rules[0]!.conditions = [
      { ...newCondition('dates'), dateFrom: '2026-05-02T10:00', dateUntil: '2026-05-01T10:00' },
      newCondition('country'),
    ];
    const { errors } = checkSmart(v);
    expect(Object.keys(errors)).toEqual([
      'smart.rules.0.conditions.0.dateUntil',
      'smart.rules.0.conditions.1.countries',
    ]);
    expect(errors['smart.rules.0.conditions.0.dateUntil']).toMatch(/after/i);
    expect(errors['smart.rules.0.conditions.1.countries']).toMatch(/at least one/i);
  });

  it('checks the schedule and asks for a password only while one is being set', () => {
    const v = base({ activeFrom: '2026-05-02T10:00', activeUntil: '2026-05-01T10:00', maxScans: 0 });
    const { errors } = checkSmart(v);
    expect(Object.keys(errors).sort()).toEqual(['smart.activeUntil', 'smart.maxScans']);
    expect(errors['smart.activeUntil']).toMatch(/after/i);
    expect(errors['smart.maxScans']).toMatch(/at least 1/);
    expect(checkSmart(base({ protect: true, password: 'abc' })).errors).toEqual({
      'smart.password': 'Password must be at least 6 characters',
    });
    expect(checkSmart(base({ protect: true, hasPassword: true })).errors).toEqual({});
    expect(checkSmart(base({ protect: true, hasPassword: true, changePassword: true })).errors).toEqual({
      'smart.password': 'Password must be at least 6 characters',
    });
  });
});

describe('passwordOf', () => {
  it('sends a new password, null to remove the saved one, undefined to keep', () => {
    expect(passwordOf(base())).toBeUndefined();
    expect(passwordOf(base({ protect: true, password: 'secret1' }))).toBe('secret1');
    expect(passwordOf(base({ hasPassword: true, protect: true }))).toBeUndefined();
    expect(
      passwordOf(base({ hasPassword: true, protect: true, changePassword: true, password: 'n3wpass' })),
    ).toBe('n3wpass');
    expect(passwordOf(base({ hasPassword: true, protect: false }))).toBeNull();
  });
});

describe('smartValuesOf', () => {
  it('shows saved options in the inputs, and they come back unchanged', () => {
    const saved: SmartRedirect = smartRedirectSchema.parse({
      rules: [
        {
          label: 'Evenings',
          conditions: [
            { kind: 'time', days: [5, 6], from: '18:00', until: '23:00' },
            { kind: 'dates', from: '2026-12-01T08:00:00Z', until: null },
            { kind: 'scans', after: 10 },
            { kind: 'device', devices: ['tablet'] },
          ],
          destination: 'https://example.com/evening',
        },
      ],
      timeZone: 'Europe/Paris',
      activeFrom: '2026-11-30T23:00:00Z',
      maxScans: 1000,
      utm: { source: 'flyer' },
    });
    const v = smartValuesOf(saved, true);
    expect(v.rules[0]!.conditions[1]!.dateFrom).toBe('2026-12-01T09:00');
    expect(v.activeFrom).toBe('2026-12-01T00:00');
    expect(v).toMatchObject({ hasPassword: true, protect: true, utmOn: true, maxScans: 1000 });
    expect(redirectOptionsOf(v)).toEqual(saved);
    expect(passwordOf(v)).toBeUndefined();
  });
});

describe('fallbackWhenDown', () => {
  it('comes back from a saved code and goes out again unchanged (a save does not reset it)', () => {
    const saved: SmartRedirect = smartRedirectSchema.parse({
      fallbackUrl: 'https://example.com/sorry',
      fallbackWhenDown: true,
    });
    const v = smartValuesOf(saved);
    expect(v).toMatchObject({ fallbackUrl: 'https://example.com/sorry', fallbackWhenDown: true });
    expect(redirectOptionsOf(v)).toEqual(saved);
    // Off by default, and off comes back off.
    expect(initialSmartValues().fallbackWhenDown).toBe(false);
    const off = smartRedirectSchema.parse({ fallbackUrl: 'https://example.com/sorry' });
    expect(smartValuesOf(off).fallbackWhenDown).toBe(false);
    expect(redirectOptionsOf(smartValuesOf(off))).toEqual(off);
  });

  it('is sent with a fallback URL only, without an error when the URL is emptied', () => {
    const on = base({ fallbackUrl: 'example.com/sorry', fallbackWhenDown: true });
    expect(redirectOptionsOf(on)).toMatchObject({
      fallbackUrl: 'https://example.com/sorry',
      fallbackWhenDown: true,
    });
    const emptied = { ...on, fallbackUrl: '  ' };
    expect(checkSmart(emptied)).toEqual({ options: null, errors: {}, problem: null });
    // The choice stays in the inputs: typing a fallback URL again brings it back.
    expect(emptied.fallbackWhenDown).toBe(true);
    expect(smartPartOf('smart.fallbackWhenDown')).toBe('schedule');
  });

  it('is kept by a draft', () => {
    const v = base({ fallbackUrl: 'https://example.com/sorry', fallbackWhenDown: true });
    const back = smartValuesFromDraft(JSON.parse(JSON.stringify(smartDraftOf(v))) as unknown);
    expect(back.fallbackWhenDown).toBe(true);
    expect(smartValuesFromDraft({ fallbackWhenDown: 'yes' }).fallbackWhenDown).toBe(false);
  });
});

describe('drafts', () => {
  it('never keep a typed password, and read back leniently', () => {
    const v = { ...appRules(), protect: true, password: 'hunter22' };
    const stored = JSON.parse(JSON.stringify(smartDraftOf(v))) as unknown;
    expect(JSON.stringify(stored)).not.toContain('hunter22');
    const back = smartValuesFromDraft(stored);
    expect(back.protect).toBe(true);
    expect(back.password).toBe('');
    expect(redirectOptionsOf(back)).toEqual(redirectOptionsOf(v));
    expect(smartValuesFromDraft('garbage').rules).toEqual([]);
    expect(smartValuesFromDraft({ rules: 'x', paused: 'yes' })).toMatchObject({ rules: [], paused: false });
  });
});

describe('parts and summaries', () => {
  it('names the part an error path belongs to', () => {
    expect(smartPartOf('smart.rules.0.destination')).toBe('rules');
    expect(smartPartOf('smart.activeUntil')).toBe('schedule');
    expect(smartPartOf('smart.password')).toBe('password');
    expect(smartPartOf('smart.utm.source')).toBe('tracking');
    expect(smartPartOf('fields.url')).toBeNull();
  });

  it('summarises each closed part', () => {
    expect(smartSummaries(appRules())).toMatchObject({
      rules: '2 rules',
      schedule: 'Always on',
      password: 'Off',
      tracking: 'Off',
    });
    expect(
      smartSummaries(
        base({ paused: true, protect: true, utmOn: true, forwardQuery: true, rules: [newRule()] }),
      ),
    ).toMatchObject({ rules: '1 rule', schedule: 'Paused', password: 'Password', tracking: 'UTM + Query' });
    expect(smartSummaries(base({ maxScans: 1500 })).schedule).toBe('Up to 1,500 scans');
  });

  it('applies to dynamic codes of redirecting types only', () => {
    expect(smartRedirectApplies('url', true)).toBe(true);
    expect(smartRedirectApplies('pdf', true)).toBe(true);
    expect(smartRedirectApplies('url', false)).toBe(false);
    expect(smartRedirectApplies('vcard', true)).toBe(false);
  });
});
