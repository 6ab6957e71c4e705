/**
 * What a scan of a short link ends in, decided once for the server (server/features/redirect) and for the
 * designer's "Test a scan" (client/features/qr-designer/scan-sentence.ts), so the two cannot drift; and how
 * each outcome is stored with the scan (`qr_scans.refused` and `qr_scans.rule`) and read back for the
 * details page. Pure: zod and src only.
 *
 * The server's order: paused → not started → ended → over the scan limit (each answered with its page or
 * the fallback URL, whatever the password) → behind a password without the right one, the password form →
 * the first matching rule → the code's own destination.
 */
import { z } from 'zod';
import { qrIdSchema } from './qr-id.js';
import {
  decideRedirect,
  inactiveReasons,
  type InactiveReason,
  type RedirectDecision,
  type ScanFacts,
  type SmartRedirect,
} from './smart-redirect.js';

/** A scan served a destination: by rule `rule` (0-based), or the code's own (null). */
export type GoDecision = Extract<RedirectDecision, { kind: 'go' }>;

/** What the scanner is shown: a decision, or the password form (and what follows the right password). */
export type ScanAnswer = RedirectDecision | { kind: 'password'; next: GoDecision };

/**
 * The decision behind the password gate: a scan the options refuse is refused whatever the password (the
 * inactive page or fallback shows no form), and one they would serve shows the form first while `locked`
 * (a password is set and this scanner has not given it). Allocates only for the password form.
 */
export function gateScan(decision: RedirectDecision, locked: boolean): ScanAnswer {
  return locked && decision.kind === 'go' ? { kind: 'password', next: decision } : decision;
}

/** The whole decision for a scan, as the server takes it: `decideRedirect`, then `gateScan`. */
export function decideScan(
  options: SmartRedirect | null,
  destination: string,
  facts: ScanFacts,
  locked: boolean,
): ScanAnswer {
  const decision: RedirectDecision = options
    ? decideRedirect(options, destination, facts)
    : { kind: 'go', url: destination, rule: null };
  return gateScan(decision, locked);
}

// ---- Stored with the scan ----

/**
 * `qr_scans.refused`: why a scan was not served its destination (null: served). 5 is the owner's in-app
 * scan test (served to no one), 6 a scan that got the password form.
 */
export const refusalCodes = {
  paused: 1,
  'not-started': 2,
  ended: 3,
  limit: 4,
  simulated: 5,
  password: 6,
} as const;
export type RefusalReason = keyof typeof refusalCodes;

/** The refusal stored for an answer (undefined: served). No allocation: the redirect's hot path. */
export function refusalOf(answer: ScanAnswer): InactiveReason | 'password' | undefined {
  return answer.kind === 'inactive' ? answer.reason : answer.kind === 'password' ? 'password' : undefined;
}

/** `qr_scans.rule` for an answer: 1..N the rule that served it, 0 the code's own destination, null not served. */
export function storedRuleOf(answer: ScanAnswer): number | null {
  return answer.kind === 'go' ? (answer.rule === null ? 0 : answer.rule + 1) : null;
}

// ---- Read back ----

export const scanOutcomeKinds = [
  'rule',
  'default',
  'password',
  ...inactiveReasons,
  'simulated',
  'unknown',
] as const;
export type ScanOutcomeKind = (typeof scanOutcomeKinds)[number];

export const scanOutcomeSchema = z
  .object({
    kind: z.enum(scanOutcomeKinds),
    rule: z.number().int().min(1).nullable(),
  })
  .meta({
    description:
      "Where the scan went: `rule` (the rule numbered `rule`, 1 = first, as the code's rules are numbered now), `default` (the code's own destination), `password` (got the password form), `paused`, `not-started`, `ended`, `limit` (refused: its page or the fallback URL), `simulated` (the owner's in-app test), `unknown` (served before outcomes were recorded).",
  });
export type ScanOutcome = z.infer<typeof scanOutcomeSchema>;

const reasonOfCode = Object.fromEntries(Object.entries(refusalCodes).map(([k, v]) => [v, k])) as Record<
  number,
  RefusalReason
>;

/** The outcome of a stored scan from its `refused` and `rule` columns. */
export function outcomeOfStored(
  refused: number | null | undefined,
  rule: number | null | undefined,
): ScanOutcome {
  if (refused !== null && refused !== undefined) {
    return { kind: reasonOfCode[Number(refused)] ?? 'unknown', rule: null };
  }
  if (rule === null || rule === undefined) return { kind: 'unknown', rule: null };
  const n = Number(rule);
  return n > 0 ? { kind: 'rule', rule: n } : { kind: 'default', rule: null };
}

/** `excludeBots`: "true"/"false" in a query string, a boolean in tRPC (as the other analytics inputs). */
export const qrCodeOutcomesInput = z.object({
  id: qrIdSchema,
  excludeBots: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], {
      error: 'excludeBots must be true or false',
    })
    .transform((v) => v === true || v === 'true' || v === '1')
    .default(false),
});

/** Scans of one outcome, for the details page. */
export const outcomeCountSchema = scanOutcomeSchema.extend({ count: z.number().int().min(0) });
export type OutcomeCount = z.infer<typeof outcomeCountSchema>;

export const scanOutcomesSchema = z.object({
  outcomes: z.array(outcomeCountSchema).meta({
    description:
      'Scans per outcome, most first: the kept raw scans (all time, or since `from` with SCAN_RETENTION_DAYS).',
  }),
  from: z.iso.datetime().nullable().meta({
    description: 'With SCAN_RETENTION_DAYS: the counts cover scans from this time on. Null: all time.',
  }),
  servedScans: z.number().int().min(0).meta({
    description:
      "Scans by people that were served a destination, all time: what the code's scan limit counts (bots, refused scans, password forms and the owner's tests never count).",
  }),
});
export type ScanOutcomes = z.infer<typeof scanOutcomesSchema>;

export const inactivePageNames: Record<InactiveReason, string> = {
  paused: 'the paused page',
  'not-started': 'the “not active yet” page',
  ended: 'the “has ended” page',
  limit: 'the “scan limit reached” page',
};

/**
 * An outcome in a few words, for the history's Destination column and the outcome counts:
 * 'Rule 2 (App Store) → https://apps.apple.com/…', 'Default → https://…', 'Password form',
 * 'Refused: paused'. `options` are the code's current ones (a rule's destination as it is now).
 */
export function describeOutcome(
  outcome: ScanOutcome,
  options: SmartRedirect | null,
  destination: string,
): { label: string; url: string | null } {
  switch (outcome.kind) {
    case 'rule': {
      const rule = options?.rules[outcome.rule! - 1];
      return {
        label: `Rule ${outcome.rule}${rule?.label ? ` (${rule.label})` : ''}`,
        url: rule?.destination ?? null,
      };
    }
    case 'default':
      return { label: 'Default', url: destination };
    case 'password':
      return { label: 'Password form', url: null };
    case 'paused':
      return { label: 'Refused: paused', url: null };
    case 'not-started':
      return { label: 'Refused: not started', url: null };
    case 'ended':
      return { label: 'Refused: ended', url: null };
    case 'limit':
      return { label: 'Refused: scan limit', url: null };
    case 'simulated':
      return { label: 'Your test scan', url: null };
    case 'unknown':
      return { label: 'Served (not recorded)', url: null };
  }
}
