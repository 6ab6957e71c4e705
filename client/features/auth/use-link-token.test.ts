import { describe, expect, it } from 'vitest';
import { tokenOfFragment } from './use-link-token';

describe('tokenOfFragment', () => {
  it.each([
    ['#token=abc_DEF-123', 'abc_DEF-123'],
    ['token=abc', 'abc'],
    ['#token=a%2Bb%20c', 'a+b c'],
    ['#from=mail&token=t1', 't1'],
  ])('%j → %j', (hash, token) => expect(tokenOfFragment(hash)).toBe(token));

  it.each(['', '#', '#token=', '#tokens=abc', '#section-2'])('%j has none', (hash) =>
    expect(tokenOfFragment(hash)).toBeUndefined(),
  );
});
