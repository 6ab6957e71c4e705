import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ExportQueue } from './export-queue.js';

function queue(options: { maxWaitMs?: number; idleMs?: number } = {}) {
  const released: string[] = [];
  const q = new ExportQueue({
    maxWaitMs: options.maxWaitMs ?? 10_000,
    idleMs: options.idleMs ?? 10_000,
    release: { pdf: () => released.push('pdf'), xlsx: () => released.push('xlsx') },
  });
  return { q, released };
}

describe('ExportQueue', () => {
  it('runs one export at a time, in the order they came', async () => {
    const { q } = queue();
    const log: string[] = [];
    const run = async (name: string, kind: 'pdf' | 'xlsx') => {
      const end = await q.turn(kind);
      log.push(`${name} starts`);
      await sleep(20);
      log.push(`${name} ends`);
      end();
    };
    await Promise.all([run('a', 'pdf'), run('b', 'xlsx'), run('c', 'pdf')]);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
  });

  it("lets the other kinds' libraries go when a turn starts, and all of them once idle", async () => {
    const { q, released } = queue({ idleMs: 30 });
    const first = await q.turn('pdf');
    expect(released).toEqual(['xlsx']);
    const second = q.turn('xlsx');
    first();
    (await second)();
    expect(released).toEqual(['xlsx', 'pdf']);
    await sleep(80);
    expect(released.slice(2).sort()).toEqual(['pdf', 'xlsx']);
  });

  it('keeps the libraries while exports follow each other within the idle time', async () => {
    const { q, released } = queue({ idleMs: 60 });
    (await q.turn('pdf'))();
    await sleep(20);
    const end = await q.turn('pdf');
    await sleep(80);
    expect(released).toEqual(['xlsx', 'xlsx']); // nothing let go while the second export runs
    end();
  });

  it('does not keep a waiting export back longer than maxWaitMs', async () => {
    const { q } = queue({ maxWaitMs: 30 });
    const stuck = await q.turn('xlsx'); // a download nobody reads on
    const started = Date.now();
    const next = await q.turn('pdf');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    next();
    stuck();
  });

  it('ends a turn once however often its end is called', async () => {
    const { q } = queue();
    const end = await q.turn('pdf');
    end();
    end();
    const log: string[] = [];
    const second = q.turn('pdf').then((e) => {
      log.push('second');
      return e;
    });
    const third = q.turn('pdf').then((e) => {
      log.push('third');
      return e;
    });
    (await second)();
    await sleep(10);
    expect(log).toEqual(['second', 'third']);
    (await third)();
  });
});
