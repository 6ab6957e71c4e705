import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FREE_LIMIT,
  limitDialogText,
  limitReachedMessage,
  monthlyPrice,
  paidPlansLine,
  plans,
  PRO_PLAN_LIMIT,
} from './plans';

const root = path.resolve(import.meta.dirname, '..');

/** Every source file of the app (tests and the plan table itself excepted). */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test|e2e)\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => file !== path.join(root, 'src', 'plans.ts'));
}

describe('plan texts', () => {
  it('are written from the plan table', () => {
    expect(monthlyPrice('pro')).toBe(`$${plans.pro.priceMonthly}/month`);
    expect(paidPlansLine).toBe(
      `Pro ($${plans.pro.priceMonthly}/month, up to ${PRO_PLAN_LIMIT} codes) and ` +
        `Premium ($${plans.premium.priceMonthly}/month, unlimited codes)`,
    );
    expect(limitDialogText(3, 3)).toBe(
      `You've created 3 of 3 QR codes on the free plan. Upgrade to Pro to create up to ${PRO_PLAN_LIMIT} QR codes with advanced features.`,
    );
    expect(limitReachedMessage(DEFAULT_FREE_LIMIT)).toBe(
      `QR code limit reached. Your plan allows ${DEFAULT_FREE_LIMIT} QR codes: upgrade to Pro to create up to ${PRO_PLAN_LIMIT}.`,
    );
  });

  it('are not written out anywhere else, so a plan change is one edit in src/plans.ts', () => {
    const literals = [
      `up to ${PRO_PLAN_LIMIT}`,
      `$${plans.pro.priceMonthly}/`,
      `$${plans.premium.priceMonthly}/`,
      `$${plans.pro.priceMonthly} `,
      `$${plans.premium.priceMonthly} `,
    ];
    const found = ['src', 'server', 'client'].flatMap(sourceFiles).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return literals.filter((l) => text.includes(l)).map((l) => `${path.relative(root, file)}: ${l}`);
    });
    expect(found).toEqual([]);
  });
});
