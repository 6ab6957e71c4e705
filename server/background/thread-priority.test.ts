import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../db/create-db.js';
import {
  BACKGROUND_NICE,
  backgroundPriority,
  withPriorityCeiling,
  type ThreadPriority,
} from './thread-priority.js';

/** This thread's nice value (Linux: field 19 of /proc/thread-self/stat). */
function niceOfThisThread(): number {
  const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

const linux = process.platform === 'linux';
let priority: ThreadPriority | null = null;
afterAll(() => priority?.high());

describe.runIf(linux)('the background thread’s priority ceiling', () => {
  it('runs at a low priority (nice 10), and at the normal one while a statement runs or a transaction is open', () => {
    priority = backgroundPriority();
    if (!priority) {
      // Not allowed to raise a thread's priority here: it must then have stayed at the normal one.
      expect(niceOfThisThread()).toBeLessThanOrEqual(1);
      return;
    }
    expect(niceOfThisThread()).toBe(BACKGROUND_NICE);
    const db = withPriorityCeiling(openSqlite(':memory:'), priority);
    db.exec('create table t (id integer primary key, v text)');
    expect(niceOfThisThread()).toBe(BACKGROUND_NICE);

    const seen: number[] = [];
    db.function('nice_now', () => niceOfThisThread());
    // Inside a statement: raised.
    seen.push((db.prepare('select nice_now() as n').get() as { n: number }).n);
    expect(niceOfThisThread()).toBe(BACKGROUND_NICE);
    // Between the statements of a transaction (the write lock held): still raised; lowered after COMMIT.
    db.prepare('begin immediate').run();
    db.prepare('insert into t (v) values (?)').run('a');
    seen.push(niceOfThisThread());
    db.prepare('commit').run();
    expect(seen).toEqual([0, 0]);
    expect(niceOfThisThread()).toBe(BACKGROUND_NICE);
    // better-sqlite3's own transactions too.
    db.transaction(() => {
      db.prepare('insert into t (v) values (?)').run('b');
      seen.push(niceOfThisThread());
    })();
    expect(seen).toEqual([0, 0, 0]);
    expect(niceOfThisThread()).toBe(BACKGROUND_NICE);
    expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: 2 });
    priority.high();
    expect(niceOfThisThread()).toBe(0);
  });
});
