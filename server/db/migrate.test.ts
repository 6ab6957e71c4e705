import { describe, expect, it } from 'vitest';
import { retryingCatalogRaces } from './migrate.js';

/** A migrator call answering `answers` in turn, counting its attempts. */
function scripted(answers: { error?: unknown; results?: { status: string }[] }[]) {
  let calls = 0;
  const run = () => Promise.resolve(answers[Math.min(calls++, answers.length - 1)]!);
  return { run, calls: () => calls };
}

describe('retryingCatalogRaces', () => {
  it.each([
    'relation "t9f0_1.scan_code_days" does not exist',
    'schema "t6749a2a5_5560491f7ade486f" does not exist',
    'column "unique_scanners" of relation "scan_user_quarters" does not exist',
    'cache lookup failed for relation 41237',
  ])('tries again after another schema changed under the introspection: %s', async (message) => {
    const call = scripted([{ error: new Error(message) }, { results: [{ status: 'Success' }] }]);
    expect(await retryingCatalogRaces(call.run)).toEqual({ results: [{ status: 'Success' }] });
    expect(call.calls()).toBe(2);
  });

  it('never retries a migration that failed, whatever its message', async () => {
    const failed = {
      error: new Error('column "unique_scanners" of relation "scan_user_quarters" does not exist'),
      results: [{ status: 'Success' }, { status: 'Error' }],
    };
    const call = scripted([failed, { results: [] }]);
    expect(await retryingCatalogRaces(call.run)).toBe(failed);
    expect(call.calls()).toBe(1);
  });

  it('gives up after five attempts, and passes other errors straight through', async () => {
    const race = scripted([{ error: new Error('schema "gone" does not exist') }]);
    expect((await retryingCatalogRaces(race.run)).error).toBeInstanceOf(Error);
    expect(race.calls()).toBe(5);
    const other = scripted([{ error: new Error('permission denied for schema public') }]);
    await retryingCatalogRaces(other.run);
    expect(other.calls()).toBe(1);
  });
});
