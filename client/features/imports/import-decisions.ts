// What becomes of each link of an import (issue 35, item 3), decided on the review step: the actions a row
// allows, its default, a rename's live check, "Rename all conflicts", how many links an import would make,
// and the decisions a run sends. Pure: the page keeps the decisions in React state, keyed by row.
import {
  IMPORT_ROWS_PER_CALL,
  importMessages,
  type ImportAction,
  type ImportLink,
  type ImportRowDecision,
} from '../../../src/imports/import.schema';
import { SLUG_MAX_LENGTH, normalizeSlug, slugProblem } from '../../../src/qr/slug';

/** A row's decision: its action, and the new back-half as typed (kept while another action is chosen). */
export interface Decision {
  action: ImportAction;
  slug?: string;
}

/** The decisions made so far, by row; a row without one has its default (defaultAction). */
export type Decisions = ReadonlyMap<number, Decision>;

/** The link's fields the decisions read. */
export type DecidedLink = Pick<ImportLink, 'row' | 'slug' | 'conflict' | 'result'>;

/**
 * Whether the row was carried out for good: a code made or overwritten, whose result the server answers
 * whenever it is sent again. A skipped or failed row may be decided again (imports.service.ts).
 */
export function isDone(link: Pick<ImportLink, 'result'>): boolean {
  return link.result?.status === 'created' || link.result?.status === 'overwritten';
}

/**
 * The actions a row allows, in the order the Decision select lists them. None once it is done. Without a
 * conflict: as it is, under another back-half, or not at all. `taken` (another workspace's link): skip or
 * rename; `yours` (a code of this workspace has it): also overwrite that code; `invalid` and `repeated`:
 * rename or skip; `destination` (no web address we send to): skip only.
 */
export function allowedActions(link: DecidedLink): ImportAction[] {
  if (isDone(link)) return [];
  switch (link.conflict?.kind) {
    case undefined:
      return ['create', 'rename', 'skip'];
    case 'taken':
      return ['skip', 'rename'];
    case 'yours':
      return ['skip', 'rename', 'overwrite'];
    case 'invalid':
    case 'repeated':
      return ['rename', 'skip'];
    case 'destination':
      return ['skip'];
  }
}

/** A row without a conflict is created as it is; a row with one is skipped until the user decides. */
export function defaultAction(link: DecidedLink): ImportAction {
  return link.conflict ? 'skip' : 'create';
}

/**
 * The row's decision now: the one made, while its action is still allowed (a conflict that appeared since,
 * after a reload, takes it away), else the default.
 */
export function decisionOf(decisions: Decisions, link: DecidedLink): Decision {
  const made = decisions.get(link.row);
  if (made && allowedActions(link).includes(made.action)) return made;
  return { action: defaultAction(link), ...(made?.slug !== undefined ? { slug: made.slug } : {}) };
}

/** The back-half the row will have (lower case, as links are compared), or null when it makes no link. */
function finalSlugOf(link: DecidedLink, decision: Decision): string | null {
  if (isDone(link)) return link.result?.slug?.toLowerCase() ?? null;
  if (decision.action === 'skip') return null;
  if (decision.action === 'rename') return normalizeSlug(decision.slug ?? '');
  return link.slug.toLowerCase();
}

/** A row that has or will have a back-half, and what to say to another row that wants it. */
interface SlugUse {
  row: number;
  why: string;
}

/**
 * The back-halves of an import that a rename may not take, each with the rows that hold it and why: every
 * row's own (the server calls a later row with the same one `repeated`, whether the earlier is skipped or
 * not, and a `taken` or `yours` conflict says a code has it), and the one each row will end up with (a
 * rename's, or a done row's code's). Built once a render, so checking a page of renames stays quick on
 * an import of thousands of links.
 */
export class SlugIndex {
  private readonly uses = new Map<string, SlugUse[]>();
  /** The rows whose own back-half a code has (`taken`, `yours`): not theirs to rename to either. */
  private readonly heldByCode = new Set<number>();

  constructor(links: readonly DecidedLink[], decisions: Decisions) {
    for (const link of links) this.add(link, decisionOf(decisions, link));
  }

  private use(slug: string, use: SlugUse) {
    const uses = this.uses.get(slug);
    if (uses) uses.push(use);
    else this.uses.set(slug, [use]);
  }

  /** Notes the back-halves of `link` under `decision` (a rename decided since adds its new one). */
  add(link: DecidedLink, decision: Decision) {
    const held = link.conflict?.kind === 'taken' || link.conflict?.kind === 'yours';
    if (held) this.heldByCode.add(link.row);
    const why =
      isDone(link) && link.result?.codeId ? importMessages.taken : importMessages.repeated(link.row + 1);
    const own = link.slug.toLowerCase();
    this.use(own, { row: link.row, why: held ? importMessages.taken : why });
    const final = finalSlugOf(link, decision);
    if (final && final !== own) this.use(final, { row: link.row, why });
  }

  /** Why `slug` is not free for a rename of `link`, or null. */
  refusal(slug: string, link: DecidedLink): string | null {
    if (this.heldByCode.has(link.row) && slug === link.slug.toLowerCase()) return importMessages.taken;
    return this.uses.get(slug)?.find((u) => u.row !== link.row)?.why ?? null;
  }
}

/** The index of an import's back-halves under these decisions. */
export function slugIndex(links: readonly DecidedLink[], decisions: Decisions): SlugIndex {
  return new SlugIndex(links, decisions);
}

/**
 * What is wrong with a rename's back-half as typed, or null: the rules of a chosen back-half (src/qr/slug.ts),
 * then whether another row of the import has it, or a code is known to. The server checks again when it runs.
 */
export function renameProblem(text: string, link: DecidedLink, index: SlugIndex): string | null {
  const slug = normalizeSlug(text);
  if (slug === '') return importMessages.renameNeedsSlug;
  return slugProblem(slug) ?? index.refusal(slug, link);
}

/** The start of a suggested back-half: the source's in lower case, what a back-half may not hold made `-`. */
function stemOf(slug: string): string {
  const stem = normalizeSlug(slug)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return stem === '' ? 'link' : stem;
}

/** The first of `stem-2`, `stem-3`… that is a valid back-half, free for the row. */
function suffixed(stem: string, link: DecidedLink, index: SlugIndex): string {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const slug = `${stem.slice(0, SLUG_MAX_LENGTH - suffix.length)}${suffix}`;
    if (slugProblem(slug) === null && index.refusal(slug, link) === null) return slug;
  }
}

/** A back-half to offer when the user picks Rename for a row: its own with the first free suffix. */
export function suggestRename(link: DecidedLink, index: SlugIndex): string {
  return suffixed(stemOf(link.slug), link, index);
}

/** Whether the row has a conflict still to decide (not done). */
export function hasOpenConflict(link: DecidedLink): boolean {
  return link.conflict !== null && !isDone(link);
}

/** "Skip all conflicts": every row with a conflict, not done, is skipped (a typed rename is kept aside). */
export function skipAllConflicts(links: readonly DecidedLink[], decisions: Decisions): Map<number, Decision> {
  const next = new Map(decisions);
  for (const link of links) {
    if (!hasOpenConflict(link)) continue;
    const slug = decisions.get(link.row)?.slug;
    next.set(link.row, { action: 'skip', ...(slug !== undefined ? { slug } : {}) });
  }
  return next;
}

/**
 * "Rename all conflicts": every row with a conflict that may be renamed gets its back-half with `-2`, `-3`…,
 * the first that is valid and unique within the import, row by row (so two rows never get the same one).
 * Rows that only allow Skip (a destination we cannot send to) are left as they are.
 */
export function renameAllConflicts(
  links: readonly DecidedLink[],
  decisions: Decisions,
): Map<number, Decision> {
  const next = new Map(decisions);
  const index = slugIndex(links, decisions);
  for (const link of links) {
    if (!hasOpenConflict(link) || !allowedActions(link).includes('rename')) continue;
    const decision: Decision = { action: 'rename', slug: suggestRename(link, index) };
    next.set(link.row, decision);
    index.add(link, decision);
  }
  return next;
}

/** The rows a run would carry out and make a link for: not done, not skipped ("Import N links"). */
export function countToImport(links: readonly DecidedLink[], decisions: Decisions): number {
  let n = 0;
  for (const link of links) if (!isDone(link) && decisionOf(decisions, link).action !== 'skip') n++;
  return n;
}

/** The rows whose rename cannot be sent as typed (the Import button waits for them). */
export function renameProblems(links: readonly DecidedLink[], decisions: Decisions): number[] {
  const rows: number[] = [];
  let index: SlugIndex | undefined;
  for (const link of links) {
    if (isDone(link)) continue;
    const decision = decisionOf(decisions, link);
    if (decision.action !== 'rename') continue;
    index ??= slugIndex(links, decisions);
    if (renameProblem(decision.slug ?? '', link, index) !== null) rows.push(link.row);
  }
  return rows;
}

/** What a run sends for each row not done, in row order: skips too, so the import ends complete. */
export function decisionsToSend(links: readonly DecidedLink[], decisions: Decisions): ImportRowDecision[] {
  const rows: ImportRowDecision[] = [];
  for (const link of links) {
    if (isDone(link)) continue;
    const { action, slug } = decisionOf(decisions, link);
    rows.push(
      action === 'rename'
        ? { row: link.row, action, slug: normalizeSlug(slug ?? '') }
        : { row: link.row, action },
    );
  }
  return rows.sort((a, b) => a.row - b.row);
}

/** The rows in calls of at most IMPORT_ROWS_PER_CALL. */
export function inCalls<T>(rows: readonly T[], size = IMPORT_ROWS_PER_CALL): T[][] {
  const calls: T[][] = [];
  for (let i = 0; i < rows.length; i += size) calls.push(rows.slice(i, i + size));
  return calls;
}

/** The review table's filters. */
export type RowFilter = 'all' | 'conflicts' | 'ready';

/** Whether a row shows under a filter: conflicts still to decide, or rows ready as they are (neither done). */
export function inFilter(link: DecidedLink, filter: RowFilter): boolean {
  if (filter === 'all') return true;
  if (isDone(link)) return false;
  return filter === 'conflicts' ? link.conflict !== null : link.conflict === null;
}

/** How many rows each filter shows. */
export function filterCounts(links: readonly DecidedLink[]): Record<RowFilter, number> {
  const counts = { all: links.length, conflicts: 0, ready: 0 };
  for (const link of links) {
    if (inFilter(link, 'conflicts')) counts.conflicts++;
    else if (inFilter(link, 'ready')) counts.ready++;
  }
  return counts;
}

/**
 * What the rows carried out came to: counts by status, the visits brought, and the rows that failed (with
 * the server's reason, null when it gave none: the page says "Not imported").
 */
export function resultTotals(links: readonly Pick<ImportLink, 'row' | 'slug' | 'result'>[]) {
  const totals = { created: 0, overwritten: 0, skipped: 0, failed: 0, visits: 0 };
  const failedRows: { row: number; slug: string; message: string | null }[] = [];
  for (const link of links) {
    const result = link.result;
    if (!result) continue;
    totals[result.status]++;
    totals.visits += result.visits ?? 0;
    if (result.status === 'failed')
      failedRows.push({ row: link.row, slug: link.slug, message: result.message ?? null });
  }
  return { ...totals, failedRows };
}
