import { describe, expect, it } from 'vitest';
import { mayPreload } from './use-idle-preload';

describe('fetching the next pages ahead', () => {
  it('happens on a fast link or one the browser says nothing about', () => {
    expect(mayPreload(undefined)).toBe(true);
    expect(mayPreload({ effectiveType: '4g' })).toBe(true);
    expect(mayPreload({})).toBe(true);
  });

  it('never when the browser saves data, nor on 2G or 3G', () => {
    expect(mayPreload({ saveData: true, effectiveType: '4g' })).toBe(false);
    for (const effectiveType of ['slow-2g', '2g', '3g']) expect(mayPreload({ effectiveType })).toBe(false);
  });
});
