import { describe, expect, it } from 'vitest';
import { isoToZonedLocal, timeZoneChoices, zonedLocalToIso } from './zoned-time';

describe('zonedLocalToIso', () => {
  it('reads the wall clock of the given zone, not the browser’s', () => {
    expect(zonedLocalToIso('2026-01-15T09:00', 'Europe/Paris')).toBe('2026-01-15T08:00:00.000Z');
    expect(zonedLocalToIso('2026-07-15T09:00', 'Europe/Paris')).toBe('2026-07-15T07:00:00.000Z');
    expect(zonedLocalToIso('2026-07-15T09:00', 'America/New_York')).toBe('2026-07-15T13:00:00.000Z');
    expect(zonedLocalToIso('2026-07-15T09:00', 'UTC')).toBe('2026-07-15T09:00:00.000Z');
    expect(zonedLocalToIso('2026-07-15T09:00', 'Asia/Kolkata')).toBe('2026-07-15T03:30:00.000Z');
  });

  it('takes the first of a repeated hour and moves a skipped one forward', () => {
    // Paris falls back on 25 October 2026 at 03:00 → 02:00: 02:30 happens twice.
    expect(zonedLocalToIso('2026-10-25T02:30', 'Europe/Paris')).toBe('2026-10-25T00:30:00.000Z');
    // Paris springs forward on 29 March 2026 at 02:00 → 03:00: 02:30 does not exist; read as 03:30.
    expect(zonedLocalToIso('2026-03-29T02:30', 'Europe/Paris')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses what is no wall time', () => {
    expect(zonedLocalToIso('', 'UTC')).toBeNull();
    expect(zonedLocalToIso('2026-04-31T10:00', 'UTC')).toBeNull();
    expect(zonedLocalToIso('2026-04-30T24:00', 'UTC')).toBeNull();
    expect(zonedLocalToIso('30/04/2026 10:00', 'UTC')).toBeNull();
  });
});

describe('isoToZonedLocal', () => {
  it('shows an instant on the zone’s wall clock, and round-trips', () => {
    expect(isoToZonedLocal('2026-07-15T07:00:00.000Z', 'Europe/Paris')).toBe('2026-07-15T09:00');
    expect(isoToZonedLocal('2026-12-31T23:30:00.000Z', 'Asia/Tokyo')).toBe('2027-01-01T08:30');
    for (const zone of ['Europe/Paris', 'America/Los_Angeles', 'Australia/Lord_Howe', 'UTC']) {
      for (const local of ['2026-01-01T00:00', '2026-06-30T23:59', '2026-11-01T12:15']) {
        expect(isoToZonedLocal(zonedLocalToIso(local, zone), zone)).toBe(local);
      }
    }
  });

  it('is empty for nothing or an invalid instant', () => {
    expect(isoToZonedLocal(null, 'UTC')).toBe('');
    expect(isoToZonedLocal('soon', 'UTC')).toBe('');
  });
});

describe('timeZoneChoices', () => {
  it('lists UTC first and keeps a saved zone the list lacks', () => {
    const zones = timeZoneChoices();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Paris');
    expect(timeZoneChoices('Etc/GMT+5')[0]).toBe('Etc/GMT+5');
  });
});
