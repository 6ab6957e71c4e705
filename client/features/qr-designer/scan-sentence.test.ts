import { describe, expect, it } from 'vitest';
import { smartRedirectSchema } from '../../../src/qr/smart-redirect';
import { testScan, type SampleScan } from './scan-sentence';

const options = smartRedirectSchema.parse({
  timeZone: 'Europe/Paris',
  rules: [
    {
      label: 'App Store',
      conditions: [{ kind: 'os', os: ['ios'] }],
      destination: 'https://apps.apple.com/app/id1',
    },
    {
      conditions: [
        { kind: 'os', os: ['android'] },
        { kind: 'time', days: [1, 2, 3, 4, 5], from: '09:00', until: '17:00' },
      ],
      destination: 'https://play.google.com/store/apps/details?id=x',
    },
  ],
});

// Monday 30 November 2026.
const sample = (patch: Partial<SampleScan> = {}): SampleScan => ({
  device: 'iphone',
  country: 'FR',
  language: 'fr',
  date: '2026-11-30',
  time: '09:00',
  scansBefore: 0,
  ...patch,
});

describe('testScan', () => {
  it('with a password, says the scanner first sees the form, then where the right password leads', () => {
    const outcome = testScan(options, 'https://example.com', sample(), 'Europe/Paris', true);
    expect(outcome?.decision.kind).toBe('password');
    expect(outcome?.sentence).toBe(
      'An iPhone in France, in French, at 9:00 on Monday 30 November first sees the password form; after the right password, it goes to https://apps.apple.com/app/id1 (rule 1, App Store).',
    );
    // Paused (or outside the schedule, or over the limit) wins over the password, as on the server.
    const paused = testScan(
      { ...options, paused: true },
      'https://example.com',
      sample(),
      'Europe/Paris',
      true,
    );
    expect(paused?.decision).toEqual({ kind: 'inactive', reason: 'paused' });
    expect(paused?.sentence).toMatch(/sees the paused page, without the password form\.$/);
  });

  it('says where a French iPhone on a Monday morning goes, and by which rule', () => {
    expect(testScan(options, 'https://example.com', sample(), 'Europe/Paris')?.sentence).toBe(
      'An iPhone in France, in French, at 9:00 on Monday 30 November goes to https://apps.apple.com/app/id1 (rule 1, App Store).',
    );
  });

  it('reads the day and hours in the options’ zone', () => {
    const android = sample({ device: 'android-phone', country: null, language: null });
    expect(testScan(options, 'https://example.com', android, 'Europe/Paris')?.sentence).toBe(
      'An Android phone at 9:00 on Monday 30 November goes to https://play.google.com/store/apps/details?id=x (rule 2).',
    );
    const evening = testScan(options, 'https://example.com', { ...android, time: '17:00' }, 'Europe/Paris');
    expect(evening?.decision).toEqual({ kind: 'go', url: 'https://example.com', rule: null });
    expect(evening?.sentence).toMatch(
      /goes to https:\/\/example\.com \(no rule matches: the code’s own link\)\.$/,
    );
  });

  it('goes to the code’s own link with no options, and says what an inactive code shows', () => {
    expect(testScan(null, 'https://example.com', sample({ device: 'mac' }), 'UTC')?.sentence).toBe(
      'A Mac in France, in French, at 9:00 on Monday 30 November goes to https://example.com.',
    );
    const paused = { ...options, paused: true };
    expect(testScan(paused, 'https://example.com', sample(), 'Europe/Paris')?.sentence).toMatch(
      /sees the paused page\.$/,
    );
    const limited = { ...options, maxScans: 100, fallbackUrl: 'https://example.com/over' };
    expect(
      testScan(limited, 'https://example.com', sample({ scansBefore: 100 }), 'Europe/Paris')?.sentence,
    ).toBe(
      'An iPhone in France, in French, at 9:00 on Monday 30 November, after 100 earlier scans, goes to the fallback https://example.com/over (the scan limit is reached).',
    );
  });

  it('says where scans go while the destination is down, when the code uses its fallback then', () => {
    const fallback = { ...options, fallbackUrl: 'https://example.com/sorry', fallbackWhenDown: true };
    expect(testScan(fallback, 'https://example.com', sample(), 'Europe/Paris')?.sentence).toBe(
      'An iPhone in France, in French, at 9:00 on Monday 30 November goes to https://apps.apple.com/app/id1 (rule 1, App Store), or to the fallback https://example.com/sorry while it is down.',
    );
    // Without the choice, the fallback is for an inactive code only: not named here.
    expect(
      testScan({ ...fallback, fallbackWhenDown: false }, 'https://example.com', sample(), 'Europe/Paris')
        ?.sentence,
    ).not.toContain('fallback');
  });

  it('shows the UTM parameters the scan will carry', () => {
    const tracked = { ...options, utm: { source: 'qr', campaign: 'spring' } };
    expect(testScan(tracked, 'https://example.com', sample(), 'Europe/Paris')?.sentence).toContain(
      'goes to https://apps.apple.com/app/id1?utm_source=qr&utm_campaign=spring (rule 1, App Store).',
    );
  });

  it('names countries as a sentence does', () => {
    const us = sample({ country: 'US', language: 'en', device: 'windows' });
    expect(testScan(null, 'https://example.com', us, 'UTC')?.sentence).toMatch(
      /^A Windows computer in the United States, in English, at 9:00 /,
    );
  });

  it('waits for a complete day and time', () => {
    expect(testScan(options, 'https://example.com', sample({ time: '' }), 'Europe/Paris')).toBeNull();
  });
});
