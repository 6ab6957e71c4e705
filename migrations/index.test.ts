import { describe, expect, it } from 'vitest';
import { migrations } from './index.js';

describe('the migration list', () => {
  it('is in the order of the names, the order they run in (the upgrade tests step back by it)', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
  });
});
