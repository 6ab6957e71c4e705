import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { lazyRequire } from './lazy-require.js';

const root = path.resolve(import.meta.dirname, '..');

type WorkbookWriter = typeof ExcelJS.stream.xlsx.WorkbookWriter;
const WRITER = 'exceljs/lib/stream/xlsx/workbook-writer.js';

describe('lazyRequire', () => {
  it('loads the package once, at the first call', () => {
    const load = lazyRequire<WorkbookWriter>(WRITER);
    expect(load()).toBe(load());
    load.release();
  });

  it('release() takes the package out of the require cache; the next call loads it anew', () => {
    // In a process of its own: unit files share a worker's module cache, so exceljs may be loaded here.
    const probe = `
      import { createRequire } from 'node:module';
      const require = createRequire(${JSON.stringify(path.join(root, 'server/lazy-require.ts'))});
      const { lazyRequire } = await import(${JSON.stringify(path.join(root, 'server/lazy-require.ts'))});
      const before = new Set(Object.keys(require.cache));
      const load = lazyRequire(${JSON.stringify(WRITER)});
      const first = load();
      const added = Object.keys(require.cache).filter((file) => !before.has(file)).length;
      load.release();
      const left = Object.keys(require.cache).filter((file) => !before.has(file)).length;
      const underExcelJs = Object.keys(require.cache).filter((file) => file.includes('/node_modules/exceljs/')).length;
      const second = load();
      const fresh = second !== first;
      load.release();
      load.release(); // twice is harmless
      console.log(JSON.stringify({ loaded: added > 100, left, underExcelJs, fresh }));
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', probe], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    // exceljs's writer, archiver, graceful-fs… all loaded, then all gone, then loaded anew.
    expect(JSON.parse(result.stdout)).toEqual({ loaded: true, left: 0, underExcelJs: 0, fresh: true });
  });

  it('a released package can be garbage collected, although graceful-fs stays reachable from the global object', () => {
    // In a process of its own: here graceful-fs may already have been loaded by something else.
    const probe = `
      import { setImmediate as tick } from 'node:timers/promises';
      const { lazyRequire } = await import(${JSON.stringify(path.join(root, 'server/lazy-require.ts'))});
      const load = lazyRequire(${JSON.stringify(WRITER)});
      const writer = new WeakRef(load());
      const graceful = Symbol.for('graceful-fs.queue') in globalThis;
      load.release();
      await tick(); // a WeakRef holds its target until the current job ends
      gc();
      console.log(JSON.stringify({ graceful, collected: writer.deref() === undefined }));
    `;
    const result = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', probe],
      { cwd: root, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ graceful: true, collected: true });
  });
});
