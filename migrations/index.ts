import type { Migration } from 'kysely';
import * as initial from './2026-11-22T0500-initial.js';
import * as passwordResetTokens from './2026-11-22T0600-password-reset-tokens.js';
import * as uploads from './2026-11-22T0700-uploads.js';
import * as scanRollups from './2026-11-22T0800-scan-rollups.js';
import * as account from './2026-11-25T0700-account.js';
import * as admin from './2026-11-25T1200-admin.js';
import * as apiTokens from './2026-11-25T1500-api-tokens.js';
import * as throttledScans from './2026-11-25T1800-throttled-scans.js';
import * as leanScans from './2026-11-25T2000-lean-scans.js';
import * as scanVerdicts from './2026-11-26T0500-scan-verdicts.js';
import * as smartRedirects from './2026-11-26T0600-smart-redirects.js';
import * as uniqueScanners from './2026-11-26T0630-unique-scanners.js';
import * as codeVersions from './2026-11-26T0700-code-versions.js';
import * as stripeEventOrder from './2026-11-27T0900-stripe-event-order.js';
import * as accountSafety from './2026-11-27T1000-account-safety.js';
import * as scanOutcomes from './2026-11-28T0900-scan-outcomes.js';
import * as mailQueue from './2026-11-29T0900-mail-queue.js';
import * as workspaces from './2026-11-30T0900-workspaces.js';
import * as sso from './2026-12-01T0900-sso.js';
import * as idempotencyKeys from './2026-12-02T0900-idempotency-keys.js';
import * as slugAliases from './2026-12-06T0900-slug-aliases.js';
import * as shortDomains from './2026-12-07T0900-short-domains.js';
import * as linkImports from './2026-12-08T0900-link-imports.js';
import * as destinationChecks from './2026-12-08T1000-destination-checks.js';
import * as analyticsShares from './2026-12-09T0900-analytics-shares.js';
import * as webhooks from './2026-12-09T1000-webhooks.js';
import * as analyticsForwarding from './2026-12-09T1100-analytics-forwarding.js';
import * as userLanguage from './2026-12-10T0900-user-language.js';

/** Explicit provider: every migration imported statically, in order (works in tsx, Vitest and bundles). */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0500-initial': initial,
  '2026-11-22T0600-password-reset-tokens': passwordResetTokens,
  '2026-11-22T0700-uploads': uploads,
  '2026-11-22T0800-scan-rollups': scanRollups,
  '2026-11-25T0700-account': account,
  '2026-11-25T1200-admin': admin,
  '2026-11-25T1500-api-tokens': apiTokens,
  '2026-11-25T1800-throttled-scans': throttledScans,
  '2026-11-25T2000-lean-scans': leanScans,
  '2026-11-26T0500-scan-verdicts': scanVerdicts,
  '2026-11-26T0600-smart-redirects': smartRedirects,
  '2026-11-26T0630-unique-scanners': uniqueScanners,
  '2026-11-26T0700-code-versions': codeVersions,
  '2026-11-27T0900-stripe-event-order': stripeEventOrder,
  '2026-11-27T1000-account-safety': accountSafety,
  '2026-11-28T0900-scan-outcomes': scanOutcomes,
  '2026-11-29T0900-mail-queue': mailQueue,
  '2026-11-30T0900-workspaces': workspaces,
  '2026-12-01T0900-sso': sso,
  '2026-12-02T0900-idempotency-keys': idempotencyKeys,
  '2026-12-06T0900-slug-aliases': slugAliases,
  '2026-12-07T0900-short-domains': shortDomains,
  '2026-12-08T0900-link-imports': linkImports,
  '2026-12-08T1000-destination-checks': destinationChecks,
  '2026-12-09T0900-analytics-shares': analyticsShares,
  '2026-12-09T1000-webhooks': webhooks,
  '2026-12-09T1100-analytics-forwarding': analyticsForwarding,
  '2026-12-10T0900-user-language': userLanguage,
};
