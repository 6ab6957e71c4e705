import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  decideRedirect,
  defaultSmartRedirect,
  describeDecision,
  isPlainRedirect,
  needsScanCount,
  osNames,
  readSmartRedirect,
  sampleFacts,
  smartRedirectSchema,
  withTracking,
  type RedirectDecision,
  type RuleCondition,
  type ScanFacts,
  type SmartRedirect,
  type SmartRedirectInput,
} from './smart-redirect';

const RUNS = { numRuns: 500 };
const HOME = 'https://example.com/home';

const parse = (input: SmartRedirectInput) => smartRedirectSchema.parse(input);
const facts = (f: Partial<ScanFacts> & { at: Date }): ScanFacts => ({
  device: 'desktop',
  os: null,
  country: null,
  languages: [],
  scansBefore: 0,
  ...f,
});
const ruleTo = (destination: string, ...conditions: RuleCondition[]) => ({ conditions, destination });

// ---------------------------------------------------------------------------------------------------
// The oracle: the same rules written another way. Local time is read with Intl's own weekday and hour
// fields (not an offset), a time window is the set of minutes of the week it covers, and the order of
// the checks is a table.

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };
const WEEK = 7 * 1440;

function minuteOfWeek(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return WEEKDAYS[part('weekday')]! * 1440 + Number(part('hour')) * 60 + Number(part('minute'));
}

function coversMinute(c: Extract<RuleCondition, { kind: 'time' }>, minute: number): boolean {
  const [fh, fm] = c.from.split(':').map(Number) as [number, number];
  const [uh, um] = c.until.split(':').map(Number) as [number, number];
  const from = fh * 60 + fm;
  const until = uh * 60 + um;
  return c.days.some((day) => {
    const start = from === until ? day * 1440 : day * 1440 + from;
    const length = from === until ? 1440 : (until - from + 1440) % 1440;
    return (minute - start + WEEK) % WEEK < length;
  });
}

const deviceMatches: Record<ScanFacts['device'], string[]> = {
  mobile: ['mobile'],
  tablet: ['tablet'],
  desktop: ['desktop'],
  bot: [],
  unknown: [],
};

function oracleCondition(c: RuleCondition, f: ScanFacts, timeZone: string): boolean {
  const at = f.at.getTime();
  const table: { [K in RuleCondition['kind']]: (c: Extract<RuleCondition, { kind: K }>) => boolean } = {
    device: (c) => deviceMatches[f.device].some((d) => (c.devices as string[]).includes(d)),
    os: (c) => f.device !== 'bot' && c.os.some((os) => os === f.os),
    country: (c) => c.countries.some((country) => country === f.country),
    language: (c) => c.languages.some((l) => f.languages.includes(l)),
    time: (c) => coversMinute(c, minuteOfWeek(f.at, timeZone)),
    dates: (c) =>
      !(c.from !== null && at < new Date(c.from).getTime()) &&
      !(c.until !== null && at >= new Date(c.until).getTime()),
    scans: (c) => f.scansBefore >= c.after,
  };
  return (table[c.kind] as (c: RuleCondition) => boolean)(c);
}

function oracle(o: SmartRedirect, destination: string, f: ScanFacts): RedirectDecision {
  const at = f.at.getTime();
  const refusals: [boolean, 'paused' | 'not-started' | 'ended' | 'limit'][] = [
    [o.paused, 'paused'],
    [o.activeFrom !== null && at < new Date(o.activeFrom).getTime(), 'not-started'],
    [o.activeUntil !== null && at >= new Date(o.activeUntil).getTime(), 'ended'],
    [o.maxScans !== null && f.scansBefore + 1 > o.maxScans, 'limit'],
  ];
  const refusal = refusals.find(([applies]) => applies);
  if (refusal) return { kind: 'inactive', reason: refusal[1] };
  const index = o.rules.findIndex((r) => r.conditions.every((c) => oracleCondition(c, f, o.timeZone)));
  return index < 0
    ? { kind: 'go', url: destination, rule: null }
    : { kind: 'go', url: o.rules[index]!.destination, rule: index };
}

// ---------------------------------------------------------------------------------------------------
// Generators: instants from a small pool (so windows, dates and scans often meet exactly), zones with
// DST, half-hour and 45-minute offsets.

const BASE = Date.UTC(2026, 2, 27, 20, 0); // the weekend Europe's clocks go forward
const instant = fc.oneof(
  fc.integer({ min: 0, max: 24 * 14 }).map((k) => new Date(BASE + k * 30 * 60_000)),
  fc.integer({ min: 0, max: 24 * 14 }).map((k) => new Date(BASE + k * 30 * 60_000 - 1000)),
  fc.integer({ min: 0, max: 14 * 86_400_000 }).map((ms) => new Date(BASE + ms)),
);
// Stored date-times are whole seconds (canonicalDateTime); a scan's instant keeps its milliseconds.
const storedInstant = instant.map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
const zone = fc.constantFrom(
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
);
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 0, 30, 59, 1, 15))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const maybeIso = fc.option(
  storedInstant.map((d) => d.toISOString()),
  { nil: null },
);

const condition: fc.Arbitrary<RuleCondition> = fc.oneof(
  fc.record({
    kind: fc.constant('device' as const),
    devices: fc.subarray(['mobile', 'tablet', 'desktop'] as const, { minLength: 1 }),
  }),
  fc.record({ kind: fc.constant('os' as const), os: fc.subarray([...osNames], { minLength: 1 }) }),
  fc.record({
    kind: fc.constant('country' as const),
    countries: fc.subarray(['FR', 'US', 'DE', 'JP'], { minLength: 1 }),
  }),
  fc.record({
    kind: fc.constant('language' as const),
    languages: fc.subarray(['fr', 'en', 'de', 'es'], { minLength: 1 }),
  }),
  fc.record({
    kind: fc.constant('time' as const),
    days: fc.subarray([0, 1, 2, 3, 4, 5, 6], { minLength: 1 }),
    from: hhmm,
    until: hhmm,
  }),
  fc
    .tuple(maybeIso, maybeIso)
    .filter(
      ([from, until]) =>
        (from !== null || until !== null) && (from === null || until === null || until > from),
    )
    .map(([from, until]) => ({ kind: 'dates' as const, from, until })),
  fc.record({ kind: fc.constant('scans' as const), after: fc.integer({ min: 0, max: 12 }) }),
);

const options: fc.Arbitrary<SmartRedirect> = fc
  .record({
    rules: fc.array(
      fc.record({
        conditions: fc.array(condition, { minLength: 1, maxLength: 3 }),
        destination: fc.integer({ min: 1, max: 99 }).map((n) => `https://example.com/rule/${n}`),
      }),
      { maxLength: 5 },
    ),
    timeZone: zone,
    activeFrom: fc.option(
      storedInstant.map((d) => d.toISOString()),
      { nil: null, freq: 3 },
    ),
    activeUntil: fc.option(
      storedInstant.map((d) => d.toISOString()),
      { nil: null, freq: 3 },
    ),
    maxScans: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null, freq: 3 }),
    paused: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  })
  .filter((o) => o.activeFrom === null || o.activeUntil === null || o.activeUntil > o.activeFrom)
  .map((o) => parse(o));

const scanFacts: fc.Arbitrary<ScanFacts> = fc.record({
  device: fc.constantFrom('mobile', 'tablet', 'desktop', 'bot', 'unknown'),
  os: fc.constantFrom(...osNames, null),
  country: fc.constantFrom('FR', 'US', 'DE', null),
  languages: fc.subarray(['fr', 'en', 'de']),
  at: instant,
  scansBefore: fc.integer({ min: 0, max: 14 }),
});

describe('decideRedirect', () => {
  it('agrees with an independent oracle on every option set and scan', () => {
    fc.assert(
      fc.property(options, scanFacts, (o, f) => {
        expect(decideRedirect(o, HOME, f)).toEqual(oracle(o, HOME, f));
      }),
      RUNS,
    );
  });

  it('with nothing on, always sends a scan to the code’s own destination', () => {
    fc.assert(
      fc.property(scanFacts, (f) => {
        expect(decideRedirect(defaultSmartRedirect, HOME, f)).toEqual({ kind: 'go', url: HOME, rule: null });
      }),
      RUNS,
    );
  });

  it('checks paused, then not started, then ended, then the limit, then the rules in order', () => {
    const at = new Date('2026-06-01T12:00:00Z');
    const all = parse({
      paused: true,
      activeFrom: '2026-07-01T00:00:00Z',
      maxScans: 1,
      rules: [ruleTo('https://a.example/', { kind: 'scans', after: 0 })],
    });
    expect(decideRedirect(all, HOME, facts({ at, scansBefore: 5 }))).toEqual({
      kind: 'inactive',
      reason: 'paused',
    });
    expect(decideRedirect({ ...all, paused: false }, HOME, facts({ at, scansBefore: 5 }))).toEqual({
      kind: 'inactive',
      reason: 'not-started',
    });
    const ended = parse({ activeUntil: '2026-05-01T00:00:00Z', maxScans: 1 });
    expect(decideRedirect(ended, HOME, facts({ at, scansBefore: 5 }))).toEqual({
      kind: 'inactive',
      reason: 'ended',
    });
    const twoRules = parse({
      rules: [
        ruleTo('https://first.example/', { kind: 'scans', after: 0 }),
        ruleTo('https://second.example/', { kind: 'scans', after: 0 }),
      ],
    });
    expect(decideRedirect(twoRules, HOME, facts({ at }))).toEqual({
      kind: 'go',
      url: 'https://first.example/',
      rule: 0,
    });
  });

  describe('schedule edges', () => {
    const o = parse({ activeFrom: '2026-12-01T09:00:00+01:00', activeUntil: '2026-12-24T18:00:00+01:00' });
    it.each([
      ['2026-12-01T07:59:59.999Z', 'not-started'],
      ['2026-12-01T08:00:00.000Z', 'go'],
      ['2026-12-24T16:59:59.999Z', 'go'],
      ['2026-12-24T17:00:00.000Z', 'ended'],
    ])('at %s: %s (from inclusive, until exclusive)', (at, expected) => {
      const decision = decideRedirect(o, HOME, facts({ at: new Date(at) }));
      expect(decision.kind === 'go' ? 'go' : decision.reason).toBe(expected);
    });
  });

  describe('the N-th and N+1-th scan', () => {
    const at = new Date('2026-06-01T12:00:00Z');
    it('maxScans 3: the third scan goes (2 before it), the fourth is refused', () => {
      const o = parse({ maxScans: 3 });
      expect(decideRedirect(o, HOME, facts({ at, scansBefore: 2 })).kind).toBe('go');
      expect(decideRedirect(o, HOME, facts({ at, scansBefore: 3 }))).toEqual({
        kind: 'inactive',
        reason: 'limit',
      });
    });
    it('after 5 scans: the fifth scan goes to the default, the sixth to the rule', () => {
      const o = parse({ rules: [ruleTo('https://late.example/', { kind: 'scans', after: 5 })] });
      expect(decideRedirect(o, HOME, facts({ at, scansBefore: 4 }))).toEqual({
        kind: 'go',
        url: HOME,
        rule: null,
      });
      expect(decideRedirect(o, HOME, facts({ at, scansBefore: 5 }))).toEqual({
        kind: 'go',
        url: 'https://late.example/',
        rule: 0,
      });
    });
  });

  describe('time windows', () => {
    const office = parse({
      timeZone: 'Europe/Paris',
      rules: [
        ruleTo('https://office.example/', {
          kind: 'time',
          days: [1, 2, 3, 4, 5],
          from: '09:00',
          until: '17:00',
        }),
      ],
    });
    it.each([
      // Monday 2 March 2026, Paris is UTC+1.
      ['2026-03-02T07:59:59Z', false],
      ['2026-03-02T08:00:00Z', true],
      ['2026-03-02T15:59:59Z', true],
      ['2026-03-02T16:00:00Z', false],
      // Saturday.
      ['2026-03-07T10:00:00Z', false],
    ])('office hours in Paris at %s: %s', (at, inside) => {
      expect(
        decideRedirect(office, HOME, facts({ at: new Date(at) })).kind === 'go' &&
          (decideRedirect(office, HOME, facts({ at: new Date(at) })) as { rule: number | null }).rule === 0,
      ).toBe(inside);
    });

    it('follows the zone across a DST change (Paris, last Sunday of March)', () => {
      const sundayMorning = parse({
        timeZone: 'Europe/Paris',
        rules: [
          ruleTo('https://brunch.example/', { kind: 'time', days: [0], from: '09:00', until: '10:00' }),
        ],
      });
      const rule = (at: string) =>
        (decideRedirect(sundayMorning, HOME, facts({ at: new Date(at) })) as { rule: number | null }).rule;
      // 22 March: UTC+1, 09:00 is 08:00Z. 29 March: UTC+2, 09:00 is 07:00Z.
      expect(rule('2026-03-22T08:00:00Z')).toBe(0);
      expect(rule('2026-03-22T07:00:00Z')).toBeNull();
      expect(rule('2026-03-29T07:00:00Z')).toBe(0);
      expect(rule('2026-03-29T08:00:00Z')).toBeNull();
    });

    it('spans midnight from the day it starts on (Friday 22:00–02:00)', () => {
      const night = parse({
        timeZone: 'UTC',
        rules: [ruleTo('https://night.example/', { kind: 'time', days: [5], from: '22:00', until: '02:00' })],
      });
      const rule = (at: string) =>
        (decideRedirect(night, HOME, facts({ at: new Date(at) })) as { rule: number | null }).rule;
      expect(rule('2026-03-06T21:59:00Z')).toBeNull(); // Friday 21:59
      expect(rule('2026-03-06T22:00:00Z')).toBe(0); // Friday 22:00
      expect(rule('2026-03-07T01:59:59Z')).toBe(0); // Saturday 01:59
      expect(rule('2026-03-07T02:00:00Z')).toBeNull(); // Saturday 02:00
      expect(rule('2026-03-07T23:00:00Z')).toBeNull(); // Saturday night: Saturday is not listed
      expect(rule('2026-03-06T01:00:00Z')).toBeNull(); // Friday 01:00 belongs to Thursday's night
    });

    it('with from equal to until covers the whole day', () => {
      const allDay = parse({
        rules: [
          ruleTo('https://sunday.example/', { kind: 'time', days: [0], from: '00:00', until: '00:00' }),
        ],
      });
      const rule = (at: string) =>
        (decideRedirect(allDay, HOME, facts({ at: new Date(at) })) as { rule: number | null }).rule;
      expect(rule('2026-03-08T00:00:00Z')).toBe(0);
      expect(rule('2026-03-08T23:59:59Z')).toBe(0);
      expect(rule('2026-03-09T00:00:00Z')).toBeNull();
    });
  });

  describe('devices, systems, countries and languages', () => {
    const at = new Date('2026-06-01T12:00:00Z');
    const phones = parse({ rules: [ruleTo('https://m.example/', { kind: 'device', devices: ['mobile'] })] });
    it('a bot is never a phone, an unknown device is no device', () => {
      expect(decideRedirect(phones, HOME, facts({ at, device: 'mobile' })).kind === 'go').toBe(true);
      expect(decideRedirect(phones, HOME, facts({ at, device: 'mobile' }))).toMatchObject({ rule: 0 });
      expect(decideRedirect(phones, HOME, facts({ at, device: 'bot', os: 'android' }))).toMatchObject({
        rule: null,
      });
      expect(decideRedirect(phones, HOME, facts({ at, device: 'unknown' }))).toMatchObject({ rule: null });
    });
    it('an OS rule does not match a bot that claims that OS', () => {
      const ios = parse({ rules: [ruleTo('https://apps.apple.com/app', { kind: 'os', os: ['ios'] })] });
      expect(decideRedirect(ios, HOME, facts({ at, device: 'mobile', os: 'ios' }))).toMatchObject({
        rule: 0,
      });
      expect(decideRedirect(ios, HOME, facts({ at, device: 'bot', os: 'ios' }))).toMatchObject({
        rule: null,
      });
    });
    it('a language rule matches any language the browser accepts', () => {
      const french = parse({
        rules: [ruleTo('https://fr.example/', { kind: 'language', languages: ['FR'] })],
      });
      const go = (header: string) =>
        decideRedirect(french, HOME, facts({ at, languages: acceptedLanguages(header) }));
      expect(go('fr-CA,fr;q=0.9')).toMatchObject({ rule: 0 });
      expect(go('de, fr;q=0.5')).toMatchObject({ rule: 0 });
      expect(go('de, fr;q=0')).toMatchObject({ rule: null });
      expect(go('')).toMatchObject({ rule: null });
    });
    it('a country rule needs a known country', () => {
      const fr = parse({ rules: [ruleTo('https://fr.example/', { kind: 'country', countries: ['fr'] })] });
      expect(decideRedirect(fr, HOME, facts({ at, country: 'FR' }))).toMatchObject({ rule: 0 });
      expect(decideRedirect(fr, HOME, facts({ at, country: null }))).toMatchObject({ rule: null });
    });
    it('a sample scan: a French iPhone at 9:00 on Monday', () => {
      const o = parse({
        timeZone: 'Europe/Paris',
        rules: [
          ruleTo('https://play.google.com/app', { kind: 'os', os: ['android'] }),
          ruleTo(
            'https://apps.apple.com/fr/app',
            { kind: 'os', os: ['ios'] },
            { kind: 'language', languages: ['fr'] },
          ),
        ],
      });
      o.rules[1]!.label = 'App Store (FR)';
      const sample = sampleFacts({
        os: 'ios',
        country: 'FR',
        language: 'fr',
        at: new Date('2026-03-02T08:00:00Z'),
      });
      expect(sample).toMatchObject({ device: 'mobile', os: 'ios', country: 'FR', languages: ['fr'] });
      const decision = decideRedirect(o, HOME, sample);
      expect(decision).toEqual({ kind: 'go', url: 'https://apps.apple.com/fr/app', rule: 1 });
      expect(describeDecision(decision, o)).toBe('Rule 2 (App Store (FR)) → https://apps.apple.com/fr/app');
      expect(describeDecision({ kind: 'inactive', reason: 'paused' }, o)).toBe(
        'Inactive (Paused): shows a notice page',
      );
    });
  });
});

describe('smartRedirectSchema', () => {
  it('parses {} to nothing on', () => {
    expect(parse({})).toEqual(defaultSmartRedirect);
    expect(needsScanCount(parse({}))).toBe(false);
  });

  it('uses the fallback while the destination is down only when asked, and only with a fallback URL', () => {
    const asked = parse({ fallbackUrl: 'https://example.com/closed', fallbackWhenDown: true });
    expect(asked.fallbackWhenDown).toBe(true);
    expect(isPlainRedirect(asked)).toBe(false);
    const result = smartRedirectSchema.safeParse({ fallbackWhenDown: true });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['fallbackWhenDown', 'Set a fallback URL to use it while the destination is down'],
    ]);
  });

  it('names the rule, the condition and the field in its messages', () => {
    const result = smartRedirectSchema.safeParse({
      rules: [
        ruleTo('https://ok.example/', { kind: 'device', devices: ['mobile'] }),
        { conditions: [{ kind: 'os', os: [] }, { kind: 'weather' }], destination: 'javascript:alert(1)' },
        { conditions: [], destination: 'https://ok.example/' },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['rules.1.conditions.0.os', 'Rule 2, condition 1: Operating systems: choose at least one'],
      [
        'rules.1.conditions.1.kind',
        'Rule 2, condition 2: Condition kind must be device, os, country, language, time, dates or scans',
      ],
      ['rules.1.destination', 'Rule 2: Destination must be a valid URL'],
      ['rules.2.conditions', 'Rule 3: Conditions: add at least one'],
    ]);
  });

  it.each([
    [
      { activeFrom: '2026-12-02T00:00:00Z', activeUntil: '2026-12-01T00:00:00Z' },
      'Active until must be after active from',
    ],
    [{ activeFrom: '2026-02-30T00:00:00Z' }, 'Active from must be a date and time like 2026-12-24T18:00:00Z'],
    [{ timeZone: 'Mars/Olympus' }, 'Time zone must be a zone like Europe/Paris'],
    [{ maxScans: 0 }, 'Maximum scans must be at least 1'],
    [{ fallbackUrl: 'ftp://files.example/' }, 'Fallback URL must be a valid URL'],
    [{ inactiveMessage: 'x'.repeat(501) }, 'Inactive message must be at most 500 characters'],
    [{ utm: { source: 'x'.repeat(101) } }, 'UTM source must be at most 100 characters'],
    [
      { rules: Array.from({ length: 21 }, () => ruleTo('https://a.example/', { kind: 'scans', after: 1 })) },
      'At most 20 rules',
    ],
    [
      { rules: [ruleTo('https://a.example/', { kind: 'time', days: [7], from: '09:00', until: '10:00' })] },
      'Rule 1, condition 1: Days must be numbers from 0 (Sunday) to 6 (Saturday)',
    ],
    [
      { rules: [ruleTo('https://a.example/', { kind: 'time', days: [1], from: '9am', until: '10:00' })] },
      'Rule 1, condition 1: From must be a time like 09:00',
    ],
    [
      { rules: [ruleTo('https://a.example/', { kind: 'dates', from: null, until: null })] },
      'Rule 1, condition 1: From or until: give at least one',
    ],
    [
      { rules: [ruleTo('https://a.example/', { kind: 'country', countries: ['France'] })] },
      'Rule 1, condition 1: Countries must be two-letter codes like FR',
    ],
  ] as [SmartRedirectInput, string][])('refuses %j: %s', (input, message) => {
    const result = smartRedirectSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(message);
  });

  it('stores canonical values: upper-case countries, lower-case languages, UTC instants, sorted days, known zone', () => {
    const o = parse({
      timeZone: 'europe/paris',
      activeFrom: '2026-12-01T09:00:00+01:00',
      utm: { medium: 'poster' },
      rules: [
        ruleTo(
          ' https://a.example/ ',
          { kind: 'country', countries: ['fr', 'FR', 'de'] },
          { kind: 'language', languages: ['EN'] },
          {
            kind: 'time',
            days: [5, 1, 1],
            from: '09:00',
            until: '17:00',
          },
        ),
      ],
    });
    expect(o.timeZone).toBe('Europe/Paris');
    expect(o.activeFrom).toBe('2026-12-01T08:00:00.000Z');
    expect(o.utm).toEqual({ source: 'qr', medium: 'poster' });
    expect(o.rules[0]).toEqual({
      destination: 'https://a.example/',
      conditions: [
        { kind: 'country', countries: ['FR', 'DE'] },
        { kind: 'language', languages: ['en'] },
        { kind: 'time', days: [1, 5], from: '09:00', until: '17:00' },
      ],
    });
    // Stored as JSON and read back unchanged; a value no release wrote reads as null.
    expect(readSmartRedirect(JSON.stringify(o))).toEqual(o);
    expect(readSmartRedirect('{"rules": 3}')).toBeNull();
    expect(readSmartRedirect('not json')).toBeNull();
    expect(needsScanCount(o)).toBe(false);
    expect(needsScanCount(parse({ maxScans: 5 }))).toBe(true);
    expect(
      needsScanCount(parse({ rules: [ruleTo('https://a.example/', { kind: 'scans', after: 3 })] })),
    ).toBe(true);
  });
});

describe('withTracking', () => {
  const utm = parse({ utm: { medium: 'print', campaign: 'spring sale' } }).utm;

  it('appends UTM parameters, utm_source defaulting to qr', () => {
    expect(withTracking('https://example.com/menu', utm, false, '')).toBe(
      'https://example.com/menu?utm_source=qr&utm_medium=print&utm_campaign=spring+sale',
    );
  });

  it('keeps a UTM parameter the destination already has, without a second one', () => {
    expect(withTracking('https://example.com/?utm_source=newsletter&x=1#top', utm, false, '')).toBe(
      'https://example.com/?utm_source=newsletter&x=1&utm_medium=print&utm_campaign=spring+sale#top',
    );
  });

  it('forwards the scan’s query, never replacing a stored parameter or the code’s UTM', () => {
    expect(
      withTracking('https://shop.example/p?id=7', utm, true, 'id=666&ref=poster&utm_source=evil&ref=second'),
    ).toBe(
      'https://shop.example/p?id=7&utm_source=qr&utm_medium=print&utm_campaign=spring+sale&ref=poster&ref=second',
    );
  });

  it('changes nothing without UTM or forwarding, or with an empty query', () => {
    expect(withTracking('https://example.com/a?b=1', null, false, 'c=2')).toBe('https://example.com/a?b=1');
    expect(withTracking('https://example.com/a?b=1', null, true, '')).toBe('https://example.com/a?b=1');
    expect(withTracking('https://example.com/a?', null, true, 'c=2')).toBe('https://example.com/a?c=2');
  });

  it('never changes the scheme, host or path, and keeps every stored parameter first and as it was', () => {
    const paramName = fc.constantFrom('id', 'ref', 'utm_source', 'utm_medium', 'x', '', 'a b', '%41');
    const query = fc.array(fc.tuple(paramName, fc.string({ maxLength: 5 })), { maxLength: 5 });
    fc.assert(
      fc.property(query, query, fc.boolean(), fc.boolean(), (stored, incoming, withUtm, forward) => {
        const storedQuery = new URLSearchParams(stored).toString();
        const destination = `https://dest.example/path${storedQuery ? `?${storedQuery}` : ''}#frag`;
        const out = withTracking(
          destination,
          withUtm ? utm : null,
          forward,
          new URLSearchParams(incoming).toString(),
        );
        const url = new URL(out);
        expect(url.origin + url.pathname).toBe('https://dest.example/path');
        expect(url.hash).toBe('#frag');
        const before = [...new URLSearchParams(storedQuery)];
        const after = [...url.searchParams];
        expect(after.slice(0, before.length)).toEqual(before);
        // No added parameter shares a name with a stored one.
        const storedNames = new Set(before.map(([k]) => k));
        expect(after.slice(before.length).filter(([k]) => storedNames.has(k))).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('acceptedLanguages', () => {
  it('orders by quality, drops q=0 and *, keeps primary subtags once', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0, *;q=0.5')).toEqual(['fr', 'en']);
    expect(acceptedLanguages('en;q=0.2, ja')).toEqual(['ja', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('garbage;;;,,')).toEqual([]);
  });
});
