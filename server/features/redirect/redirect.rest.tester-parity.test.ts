import { expect, it } from 'vitest';
import { refusalCodes, refusalOf, storedRuleOf } from '../../../src/qr/scan-outcome.js';
import type { SmartRedirectInput } from '../../../src/qr/smart-redirect.js';
import { testScan, type SampleScan } from '../../../client/features/qr-designer/scan-sentence.js';
import { signedInUser } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode } from '../qr/qr.test-helpers.js';
import {
  ANDROID,
  DESKTOP,
  HOME,
  IPHONE,
  scan,
  storeRules as rules,
  withConfig,
} from './redirect.test-helpers.js';

// The designer's "Test a scan" (client/features/qr-designer/scan-sentence.ts) and the real short link,
// given the same scan: the same outcome (password form, paused, not started, ended, over the limit, the
// rule or the default) and the same destination, so the tester cannot tell a story the server does not.

const agents = { iphone: IPHONE, 'android-phone': ANDROID, windows: DESKTOP } as const;
const DAY = 86_400_000;

interface Case {
  name: string;
  options: SmartRedirectInput;
  password?: boolean;
  device: keyof typeof agents;
  /** Served scans before this one (made first, by a desktop). */
  before?: number;
}

describeEachDb('"Test a scan" tells what the short link does', (getDb) => {
  const t = withConfig(getDb, {});

  async function compare(c: Case, i: number) {
    const owner = await signedInUser(t(), `parity${i}`);
    const code = await createCode(t(), owner.cookie, {
      content: HOME,
      redirectOptions: c.options,
      ...(c.password ? { password: 'correct horse' } : {}),
    });
    for (let n = 0; n < (c.before ?? 0); n++) {
      const res = await scan(t(), code.slug!, { headers: { 'user-agent': DESKTOP } });
      expect(res.statusCode, `${c.name}: earlier scan`).toBe(302);
    }
    const now = t().clock.now().toISOString();
    const sample: SampleScan = {
      device: c.device,
      country: null,
      language: null,
      date: now.slice(0, 10),
      time: now.slice(11, 16),
      scansBefore: c.before ?? 0,
    };
    const tester = testScan(code.redirectOptions, HOME, sample, 'UTC', c.password ?? false)!;
    const res = await scan(t(), code.slug!, { headers: { 'user-agent': agents[c.device] } });
    const stored = await t()
      .db.selectFrom('qr_scans')
      .select(['refused', 'rule'])
      .where('qr_code_id', '=', code.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const expectedRefusal = refusalOf(tester.decision);
    expect({ refused: stored.refused, rule: stored.rule }, `${c.name}: ${tester.sentence}`).toEqual({
      refused: expectedRefusal === undefined ? null : refusalCodes[expectedRefusal],
      rule: storedRuleOf(tester.decision),
    });
    if (tester.decision.kind === 'go') expect(res.headers.location, c.name).toBe(tester.decision.url);
    if (tester.decision.kind === 'password') {
      expect(res.body, c.name).toContain('This QR code is protected');
      expect(tester.sentence, c.name).toContain(
        'first sees the password form; after the right password, it goes to',
      );
    }
    return tester;
  }

  it('agrees with the server on password, pause, schedule, limit, rules and the default, in the server’s order', async () => {
    const now = t().clock.now().getTime();
    const cases: Case[] = [
      { name: 'password, iPhone', options: { rules }, password: true, device: 'iphone' },
      { name: 'password and paused', options: { rules, paused: true }, password: true, device: 'iphone' },
      {
        name: 'password, not started',
        options: { rules, activeFrom: new Date(now + DAY).toISOString() },
        password: true,
        device: 'android-phone',
      },
      {
        name: 'ended',
        options: {
          rules,
          activeUntil: new Date(now - DAY).toISOString(),
          activeFrom: new Date(now - 2 * DAY).toISOString(),
        },
        device: 'iphone',
      },
      { name: 'over the limit', options: { rules, maxScans: 2 }, device: 'iphone', before: 2 },
      { name: 'under the limit', options: { rules, maxScans: 2 }, device: 'iphone', before: 1 },
      { name: 'rule 2', options: { rules }, device: 'android-phone' },
      { name: 'default', options: { rules }, device: 'windows' },
    ];
    const kinds: string[] = [];
    for (const [i, c] of cases.entries()) kinds.push((await compare(c, i)).decision.kind);
    // Every kind of answer was tried.
    expect(new Set(kinds)).toEqual(new Set(['password', 'inactive', 'go']));
  });
});
