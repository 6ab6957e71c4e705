import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expiryLabel, isOpen } from './invitation-format';

// The card's words are said in the screens' language: English here, as the app starts.
beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const now = Date.parse('2026-12-01T12:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const HOUR = 3_600_000;

describe('expiryLabel', () => {
  it.each([
    [7 * 24 * HOUR, 'Expires in 7 days'],
    [24 * HOUR + 1, 'Expires in 1 day'],
    [24 * HOUR - 1, 'Expires in 23 hours'],
    [HOUR, 'Expires in 1 hour'],
    [HOUR - 1, 'Expires in less than an hour'],
    [0, 'Expired'],
    [-HOUR, 'Expired'],
  ])('%d ms left → %s', (left, label) => {
    expect(expiryLabel(at(left), now)).toBe(label);
  });

  it('says so when the date cannot be read', () => {
    expect(expiryLabel('soon', now)).toBe('Expiry unknown');
  });
});

describe('isOpen', () => {
  it('is open while pending and not expired', () => {
    expect(isOpen({ status: 'pending', expiresAt: at(HOUR) }, now)).toBe(true);
    expect(isOpen({ status: 'pending', expiresAt: at(-1) }, now)).toBe(false);
    expect(isOpen({ status: 'accepted', expiresAt: at(HOUR) }, now)).toBe(false);
    expect(isOpen({ status: 'expired', expiresAt: at(HOUR) }, now)).toBe(false);
  });
});
