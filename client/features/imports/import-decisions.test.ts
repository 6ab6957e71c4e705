import { describe, expect, it } from 'vitest';
import { importMessages, type ImportLink } from '../../../src/imports/import.schema';
import { slugMessages } from '../../../src/qr/slug';
import {
  allowedActions,
  countToImport,
  decisionOf,
  decisionsToSend,
  defaultAction,
  filterCounts,
  inCalls,
  inFilter,
  renameAllConflicts,
  renameProblem,
  renameProblems,
  resultTotals,
  skipAllConflicts,
  slugIndex,
  suggestRename,
  type Decision,
  type DecidedLink,
} from './import-decisions';

type Conflict = NonNullable<ImportLink['conflict']>;

function link(
  row: number,
  slug: string,
  conflict: Conflict['kind'] | null = null,
  result?: ImportLink['result'],
) {
  const messages: Record<Conflict['kind'], string> = {
    taken: importMessages.taken,
    yours: importMessages.yours('Lunch'),
    invalid: slugMessages.reserved,
    repeated: importMessages.repeated(1),
    destination: importMessages.badDestination,
  };
  return {
    row,
    slug,
    conflict: conflict ? { kind: conflict, message: messages[conflict] } : null,
    result: result ?? null,
  } satisfies DecidedLink;
}

const none = new Map<number, Decision>();

describe('allowed actions and defaults', () => {
  it('lets a row without a conflict be created, renamed or skipped, and creates it by default', () => {
    const l = link(0, 'menu');
    expect(allowedActions(l)).toEqual(['create', 'rename', 'skip']);
    expect(defaultAction(l)).toBe('create');
  });

  it.each([
    ['taken', ['skip', 'rename']],
    ['yours', ['skip', 'rename', 'overwrite']],
    ['invalid', ['rename', 'skip']],
    ['repeated', ['rename', 'skip']],
    ['destination', ['skip']],
  ] as const)('a %s conflict allows %j and is skipped by default', (kind, actions) => {
    const l = link(0, 'menu', kind);
    expect(allowedActions(l)).toEqual(actions);
    expect(defaultAction(l)).toBe('skip');
    expect(decisionOf(none, l)).toEqual({ action: 'skip' });
  });

  it('allows nothing once a row is done', () => {
    expect(allowedActions(link(0, 'menu', null, { status: 'created', codeId: 3, slug: 'menu' }))).toEqual([]);
  });

  it('keeps a decision only while its action is allowed (a conflict found since takes it away)', () => {
    const decisions = new Map<number, Decision>([[0, { action: 'create' }]]);
    expect(decisionOf(decisions, link(0, 'menu'))).toEqual({ action: 'create' });
    expect(decisionOf(decisions, link(0, 'menu', 'taken'))).toEqual({ action: 'skip' });
    const overwrite = new Map<number, Decision>([[0, { action: 'overwrite', slug: 'menu-9' }]]);
    // Overwriting is for one of your codes only; the typed back-half stays for a later rename.
    expect(decisionOf(overwrite, link(0, 'menu', 'taken'))).toEqual({ action: 'skip', slug: 'menu-9' });
  });
});

describe('a rename, checked live', () => {
  const links = [
    link(0, 'menu', 'yours'),
    link(1, 'wine'),
    link(2, 'Menu', 'repeated'),
    link(3, 'promo', 'taken'),
  ];

  it('follows the rules of a chosen back-half', () => {
    expect(renameProblem('', links[0]!, slugIndex(links, none))).toBe(importMessages.renameNeedsSlug);
    expect(renameProblem('ab', links[0]!, slugIndex(links, none))).toBe(slugMessages.tooShort);
    expect(renameProblem('a b c', links[0]!, slugIndex(links, none))).toBe(slugMessages.characters);
    expect(renameProblem('admin', links[0]!, slugIndex(links, none))).toBe(slugMessages.reserved);
    expect(renameProblem('  Menu-2 ', links[0]!, slugIndex(links, none))).toBeNull();
  });

  it('refuses a back-half another row has, or a code is known to have', () => {
    expect(renameProblem('wine', links[0]!, slugIndex(links, none))).toBe(importMessages.repeated(2));
    expect(renameProblem('promo', links[0]!, slugIndex(links, none))).toBe(importMessages.taken);
    // Its own back-half, which one of your codes has.
    expect(renameProblem('MENU', links[0]!, slugIndex(links, none))).toBe(importMessages.taken);
    // Row 3 renamed to menu-2 first: row 1 may not take it too.
    const decisions = new Map<number, Decision>([[2, { action: 'rename', slug: 'menu-2' }]]);
    expect(renameProblem('menu-2', links[0]!, slugIndex(links, decisions))).toBe(importMessages.repeated(3));
    expect(renameProblems(links, new Map([...decisions, [0, { action: 'rename', slug: 'menu-2' }]]))).toEqual(
      [0, 2],
    );
  });

  it('refuses the back-half of a code an earlier run made', () => {
    const done = [
      link(0, 'menu', null, { status: 'created', codeId: 7, slug: 'menu-3' }),
      link(1, 'x', 'invalid'),
    ];
    expect(renameProblem('menu-3', done[1]!, slugIndex(done, none))).toBe(importMessages.taken);
  });

  it('suggests the first free suffix', () => {
    expect(suggestRename(links[0]!, slugIndex(links, none))).toBe('menu-2');
    const taken = [...links, link(4, 'menu-2'), link(5, 'menu-3', 'taken')];
    expect(suggestRename(links[0]!, slugIndex(taken, none))).toBe('menu-4');
  });
});

describe('bulk helpers', () => {
  const links = [
    link(0, 'menu', 'yours'),
    link(1, 'menu-2'),
    link(2, 'MENU', 'repeated'),
    link(3, 'api', 'invalid'),
    link(4, 'bad', 'destination'),
    link(5, 'a.b!', 'invalid'),
    link(6, 'x'.repeat(64), 'taken'),
    link(7, 'done', 'taken', { status: 'skipped', message: 'Skipped' }),
  ];

  it('renames every conflict with -2, -3… until unique within the import and valid', () => {
    const decisions = renameAllConflicts(links, none);
    const slugs = [...decisions].map(([row, d]) => [row, d.action, d.slug]);
    expect(slugs).toEqual([
      [0, 'rename', 'menu-3'],
      [2, 'rename', 'menu-4'],
      [3, 'rename', 'api-2'],
      [5, 'rename', 'a-b-2'],
      [6, 'rename', `${'x'.repeat(62)}-2`],
      // Skipped before: it may be decided again.
      [7, 'rename', 'done-2'],
    ]);
    expect(decisionOf(decisions, links[4]!)).toEqual({ action: 'skip' });
    expect(renameProblems(links, decisions)).toEqual([]);
  });

  it('skips every conflict, keeping a typed rename aside', () => {
    const typed = new Map<number, Decision>([[0, { action: 'rename', slug: 'lunch' }]]);
    const decisions = skipAllConflicts(links, typed);
    expect(decisions.get(0)).toEqual({ action: 'skip', slug: 'lunch' });
    expect(countToImport(links, decisions)).toBe(1);
  });
});

describe('counting and sending', () => {
  const links = [
    link(0, 'menu', 'yours'),
    link(1, 'wine'),
    link(2, 'beer'),
    link(3, 'old', null, { status: 'created', codeId: 1, slug: 'old' }),
    link(4, 'bad', 'destination'),
  ];

  it('counts the rows not skipped and not done', () => {
    expect(countToImport(links, none)).toBe(2);
    const decisions = new Map<number, Decision>([
      [0, { action: 'overwrite' }],
      [2, { action: 'skip' }],
    ]);
    expect(countToImport(links, decisions)).toBe(2);
    expect(countToImport(links, new Map([[0, { action: 'rename', slug: 'menu-2' }]]))).toBe(3);
  });

  it('sends every row not done, in row order, a rename with its back-half as stored', () => {
    const decisions = new Map<number, Decision>([[0, { action: 'rename', slug: ' Menu-2 ' }]]);
    expect(decisionsToSend(links, decisions)).toEqual([
      { row: 0, action: 'rename', slug: 'menu-2' },
      { row: 1, action: 'create' },
      { row: 2, action: 'create' },
      { row: 4, action: 'skip' },
    ]);
  });

  it('splits the rows into calls of at most 100', () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    expect(inCalls(rows).map((c) => c.length)).toEqual([100, 100, 50]);
    expect(inCalls([])).toEqual([]);
  });

  it('filters and counts rows: conflicts and ready ones are those not done', () => {
    expect(filterCounts(links)).toEqual({ all: 5, conflicts: 2, ready: 2 });
    expect(links.filter((l) => inFilter(l, 'ready')).map((l) => l.row)).toEqual([1, 2]);
  });

  it('adds up the results', () => {
    const done = [
      link(0, 'a', null, { status: 'created', codeId: 1, visits: 10 }),
      link(1, 'b', null, { status: 'overwritten', codeId: 2, visits: 5 }),
      link(2, 'c', null, { status: 'failed', message: importMessages.taken }),
      link(3, 'd', null, { status: 'skipped' }),
      link(4, 'e'),
    ];
    expect(resultTotals(done)).toEqual({
      created: 1,
      overwritten: 1,
      skipped: 1,
      failed: 1,
      visits: 15,
      failedRows: [{ row: 2, slug: 'c', message: importMessages.taken }],
    });
  });

  it('stays quick on an import of 10,000 links, a thousand of them renamed', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      link(i, `link-${i % 9_000}`, i >= 9_000 ? 'repeated' : null),
    );
    const started = performance.now();
    const decisions = renameAllConflicts(many, none);
    expect(renameProblems(many, decisions)).toEqual([]);
    expect(countToImport(many, decisions)).toBe(10_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
