import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

/** WCAG 2.2 AA as the issue states it: these tags and no others (no best-practice rules). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core in every document of the context. An init script runs outside the page's Content-Security-Policy
 * (script-src 'self' refuses an inline <script>), and once per document, so client-side navigations keep it.
 */
export async function installAxe(context: BrowserContext) {
  await context.addInitScript({ content: axeSource });
}

/** For a page whose document was not made under `installAxe` (page.setContent keeps the init scripts). */
export async function ensureAxe(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
}

export interface Finding {
  rule: string;
  help: string;
  target: string;
  /** axe's own words: for color-contrast the ratio, both colours, the font and the ratio expected. */
  summary: string;
}

/** The violations of the WCAG rules on the page as it is now (the whole document, portals included). */
export async function audit(page: Page): Promise<Finding[]> {
  await ensureAxe(page);
  const findings = await auditOnce(page);
  if (findings.length === 0) return findings;
  // What a user sees once the page has settled: a finding of a moment (a control re-rendered while axe
  // read it, a transition half-way) is gone on a second look; a real one is found again.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  await page.waitForTimeout(300);
  return auditOnce(page);
}

function auditOnce(page: Page): Promise<Finding[]> {
  return page.evaluate(async (tags) => {
    type AxeResult = {
      violations: {
        id: string;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run(ctx: unknown, options: unknown): Promise<AxeResult> } })
      .axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) =>
      v.nodes.map((n) => ({
        rule: v.id,
        help: v.help,
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    );
  }, WCAG_TAGS);
}

/** Collects findings under a label (the route, role, theme and width) and reports them once, deduplicated. */
export class Findings {
  private readonly seen = new Map<string, { finding: Finding; where: string[] }>();
  audits = 0;

  add(where: string, findings: Finding[]) {
    this.audits += 1;
    for (const f of findings) {
      const key = `${f.rule}|${f.target}|${f.summary}`;
      const entry = this.seen.get(key) ?? { finding: f, where: [] };
      entry.where.push(where);
      this.seen.set(key, entry);
    }
  }

  get count() {
    return this.seen.size;
  }

  /** Counts per rule: for the report and the failure message. */
  byRule(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { finding } of this.seen.values()) counts[finding.rule] = (counts[finding.rule] ?? 0) + 1;
    return counts;
  }

  report(): string {
    const lines = [...this.seen.values()].map(({ finding: f, where }) => {
      const places = where.length > 3 ? `${where.slice(0, 3).join('; ')}; +${where.length - 3} more` : where;
      return `- ${f.rule} (${f.help}) on ${f.target}\n    ${f.summary}\n    at ${String(places)}`;
    });
    return `${this.count} axe violation(s) in ${this.audits} audits, by rule ${JSON.stringify(this.byRule())}:\n${lines.join('\n')}`;
  }
}

/**
 * WCAG 1.4.10 (reflow): at 320 CSS px, and at 640 px (1280 px zoomed to 200 %), the page needs no
 * horizontal scrolling. Data tables may scroll, inside their own box: the page itself may not.
 */
export async function reflow(page: Page): Promise<Finding[]> {
  const findings: Finding[] = [];
  const size = page.viewportSize();
  for (const width of [320, 640]) {
    await page.setViewportSize({ width, height: 800 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const overflow = await page.evaluate(() => {
      const root = document.documentElement;
      if (root.scrollWidth <= root.clientWidth + 1) return null;
      // The widest element that sticks out, to say where.
      let widest = '';
      let right = root.clientWidth;
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const box = el.getBoundingClientRect();
        if (box.right > right + 1) {
          right = box.right;
          widest = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`;
        }
      }
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest };
    });
    if (overflow) {
      findings.push({
        rule: 'reflow',
        help: 'Content reflows without horizontal scrolling (1.4.10)',
        target: overflow.widest,
        summary: `at ${width} px the page is ${overflow.scrollWidth} px wide`,
      });
    }
  }
  if (size) await page.setViewportSize(size);
  return findings;
}

/** Client-side: the router follows popstate, as it does for the browser's Back button. */
export async function go(page: Page, path: string) {
  await page.evaluate((to) => {
    const state: unknown = window.history.state;
    window.history.pushState(state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state }));
  }, path);
}

/** Lazy pages loaded, queries answered: no loader, skeleton or busy region left. */
export async function settle(page: Page) {
  await page.waitForFunction(
    () =>
      document.querySelector('#root > :not(.skip-link)') !== null &&
      document.querySelector(
        '.mantine-Skeleton-root[data-visible], .mantine-Loader-root, [aria-busy="true"]',
      ) === null,
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => new Promise(requestAnimationFrame));
}
