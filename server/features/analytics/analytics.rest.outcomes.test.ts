import { expect, it } from 'vitest';
import type { ScanOutcomes } from '../../../src/qr/scan-outcome.js';
import { call, signedInUser, type TestApp } from '../../test/test-app.js';
import { describeEachDb } from '../../test/test-db.js';
import { createCode } from '../qr/qr.test-helpers.js';
import {
  ANDROID,
  DESKTOP,
  GOOGLEBOT,
  HOME,
  IPHONE,
  scan,
  storeRules as rules,
  withConfig,
} from '../redirect/redirect.test-helpers.js';
import type { QrCodeAnalyticsWithOutcomes } from './scan-outcomes.js';

// What each scan of a smart code led to, through the real short link: the rule that served it, the
// default, the password form, refusals by pause, schedule and limit; per outcome on
// /api/analytics/qr-codes/{id}/outcomes and per scan in the history's rows.

async function outcomesOf(t: TestApp, cookie: string, id: number, query = '') {
  const res = await call(t.app, 'GET', `/api/analytics/qr-codes/${id}/outcomes${query}`, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ScanOutcomes>();
}

describeEachDb('scan outcomes', (getDb) => {
  const t = withConfig(getDb, {});

  it('stores the rule that served each scan, the default and each refusal, and counts them per outcome', async () => {
    const owner = await signedInUser(t(), 'outcomes1');
    const code = await createCode(t(), owner.cookie, {
      content: HOME,
      redirectOptions: { rules, maxScans: 3 },
    });
    const slug = code.slug!;
    const empty = await outcomesOf(t(), owner.cookie, code.id);
    expect(empty).toEqual({ outcomes: [], from: null, servedScans: 0 });

    for (const ua of [IPHONE, ANDROID, GOOGLEBOT, DESKTOP])
      await scan(t(), slug, { headers: { 'user-agent': ua } });
    // The limit of 3 is used up (the bot took no place): the next scan is refused.
    expect((await scan(t(), slug, { headers: { 'user-agent': IPHONE } })).statusCode).toBe(410);

    const all = await outcomesOf(t(), owner.cookie, code.id);
    expect(all).toEqual({
      outcomes: [
        { kind: 'rule', rule: 1, count: 1 },
        { kind: 'rule', rule: 2, count: 1 },
        { kind: 'default', rule: null, count: 2 },
        { kind: 'limit', rule: null, count: 1 },
      ],
      from: null,
      servedScans: 3,
    });
    const people = await outcomesOf(t(), owner.cookie, code.id, '?excludeBots=true');
    expect(people.outcomes.find((o) => o.kind === 'default')?.count).toBe(1);

    // Paused: refused whatever the device.
    const paused = await call(t().app, 'PUT', `/api/qr-codes/${code.id}`, {
      cookie: owner.cookie,
      json: { redirectOptions: { rules, maxScans: 3, paused: true } },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    await scan(t(), slug, { headers: { 'user-agent': ANDROID } });
    expect((await outcomesOf(t(), owner.cookie, code.id)).outcomes.at(-2)).toEqual({
      kind: 'paused',
      rule: null,
      count: 1,
    });

    // Each history row says where its scan went, newest first.
    const res = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, { cookie: owner.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json<QrCodeAnalyticsWithOutcomes>().scans.map((s) => s.outcome);
    expect(history).toEqual([
      { kind: 'paused', rule: null },
      { kind: 'limit', rule: null },
      { kind: 'default', rule: null },
      { kind: 'default', rule: null },
      { kind: 'rule', rule: 2 },
      { kind: 'rule', rule: 1 },
    ]);
  });

  it('counts the scans that got the password form apart from those turned away; they take no place under a limit', async () => {
    const owner = await signedInUser(t(), 'outcomes2');
    const code = await createCode(t(), owner.cookie, {
      content: HOME,
      password: 'correct horse',
      redirectOptions: { rules, maxScans: 1 },
    });
    for (let i = 0; i < 3; i++) {
      const form = await scan(t(), code.slug!, { headers: { 'user-agent': IPHONE } });
      expect(form.statusCode).toBe(200);
    }
    const outcomes = await outcomesOf(t(), owner.cookie, code.id);
    expect(outcomes).toEqual({
      outcomes: [{ kind: 'password', rule: null, count: 3 }],
      from: null,
      servedScans: 0,
    });
    const details = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}`, {
      cookie: owner.cookie,
    });
    const body = details.json<QrCodeAnalyticsWithOutcomes>();
    // Scans (someone scanned), not turned away by the options.
    expect(body.totalScans).toBe(3);
    expect(body.refusedScans).toBe(0);
  });

  it('answers 404 for another user’s code and a 400 naming excludeBots', async () => {
    const owner = await signedInUser(t(), 'outcomes3');
    const other = await signedInUser(t(), 'outcomes4');
    const code = await createCode(t(), owner.cookie, { content: HOME, redirectOptions: { rules } });
    const theirs = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}/outcomes`, {
      cookie: other.cookie,
    });
    expect(theirs.statusCode).toBe(404);
    const bad = await call(t().app, 'GET', `/api/analytics/qr-codes/${code.id}/outcomes?excludeBots=maybe`, {
      cookie: owner.cookie,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('excludeBots must be true or false');
  });
});
