// npm run bench:bulk-parse — the short link while spreadsheets are read (issue 27, item 4).
// Starts the built server exactly as `npm start` does (dist/server.mjs with its environment and Node
// flags; the spreadsheet reader is dist/bulk-parse-worker.mjs beside it) on a temporary DATA_DIR, signs
// in as the demo user and makes a dynamic code, then, in the same run, over HTTP on loopback:
//   1. the first and the next read of a small CSV (the first starts a worker);
//   2. /r/<slug> alone: a request every 10 ms for SECONDS (default 5), each timed from when it was due;
//   3. the same while two clients upload without pause, one a "zip bomb" (406 KiB, 400 MiB unpacked, as
//      the file of issue 27) and one a big legit workbook (ROWS rows, default 20,000, written by ExcelJS);
//   4. the same while the two worst files known are uploaded: a workbook of 10,000 merged ranges (seconds
//      of reading) and a 2 KB one whose one merged range spans the whole sheet (fills any heap).
// Then /r/<slug> alone again. Prints p50/p99/max of the short link in each phase, the reads' answers and
// times, and the server's RSS (peak in each phase, and once the idle workers have ended).
//
//   SECONDS=10 npm run bench:bulk-parse     longer phases
//   SERVER_DIR=/tmp/before WORST=0          the built server of another checkout (the same measurements,
//                                           its own build), without phase 4 (it took the former down)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { slowWorkbook, xlsxBomb } from '../../server/features/qr/bulk-parse.test-helpers.js';
import { freePort, startCommand } from './start-command.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.resolve(process.env.SERVER_DIR ?? root);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROWS = Number(process.env.ROWS ?? 20_000);
const INTERVAL_MS = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** A workbook as Excel writes one: ROWS codes with a name, link, folder, kind and note each. */
async function bigWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Codes');
  sheet.addRow(['Name', 'URL', 'Folder', 'Dynamic', 'Notes']);
  for (let i = 0; i < ROWS; i++) {
    sheet.addRow([
      `Table ${i + 1}`,
      { text: `https://example.com/table/${i + 1}`, hyperlink: `https://example.com/table/${i + 1}` },
      `Floor ${(i % 7) + 1}`,
      i % 3 !== 0,
      `Printed ${new Date(Date.UTC(2026, i % 12, (i % 28) + 1)).toISOString().slice(0, 10)}`,
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A 2 KB workbook whose one merged range spans the whole sheet. */
function heapFiller(): Buffer {
  const files = unzipSync(slowWorkbook(1));
  const sheet = new TextDecoder().decode(files['xl/worksheets/sheet1.xml']).replace('C5:D5', 'C5:XFD1048576');
  return Buffer.from(zipSync({ ...files, 'xl/worksheets/sheet1.xml': strToU8(sheet) }));
}

// A SERVER_DIR checkout from before scripts/ was sorted has its build script one folder up.
const buildScript = ['scripts/build/build-if-needed.mjs', 'scripts/build-if-needed.mjs']
  .map((file) => path.join(serverDir, file))
  .find((file) => fs.existsSync(file));
if (!buildScript) throw new Error(`no build-if-needed.mjs under ${serverDir}/scripts`);
const build = spawnSync(process.execPath, [buildScript], {
  cwd: serverDir,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const files = {
  bomb: xlsxBomb(400),
  big: await bigWorkbook(),
  slow: slowWorkbook(10_000),
  heap: heapFiller(),
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-parse-'));
const port = await freePort();
const start = startCommand(serverDir);
const child = spawn(process.execPath, start.args, {
  cwd: serverDir,
  env: {
    ...process.env,
    ...start.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    // The probe comes from one address: every scan is stored, as from phones.
    SCANS_PER_CLIENT_MINUTE: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null || i > 600) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyAt = performance.now();
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo123' }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const created = await fetch(`${base}/api/qr-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: base },
    body: JSON.stringify({
      name: 'Bench',
      type: 'url',
      content: 'https://example.com/bench',
      isDynamic: true,
    }),
  });
  const { slug } = (await created.json()) as { slug: string };

  const parse = async (bytes: Buffer, name: string) => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)]), name);
    const started = performance.now();
    const res = await fetch(`${base}/api/qr-codes/bulk/parse`, {
      method: 'POST',
      headers: { cookie, origin: base },
      body,
    });
    const answer = (await res.json()) as { message?: string; rows?: unknown[] };
    return {
      status: res.status,
      ms: performance.now() - started,
      message: answer.message,
      rows: answer.rows?.length,
    };
  };

  // Codes without a scan-safety verdict (the demo's, this one) have their images rendered in the
  // background, first 5 s after start (scan-verdicts.ts): not under the measurements.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, readyAt + 8000 - performance.now())));

  // 1. A worker's start, as the built server pays it.
  const csv = Buffer.from('Name,URL\nMenu,https://example.com/menu\n');
  const rssBefore = rssMiB(child.pid!);
  const first = await parse(csv, 'codes.csv');
  const next = await parse(csv, 'codes.csv');
  console.log(
    `small CSV: first read ${first.ms.toFixed(1)} ms (starts the worker), next ${next.ms.toFixed(1)} ms ` +
      `(answers ${first.status}, ${next.status}); RSS ${rssBefore.toFixed(0)} MiB before, ` +
      `${rssMiB(child.pid!).toFixed(0)} MiB with the idle worker`,
  );

  /** Short links every INTERVAL_MS for SECONDS, timed from when each was due; the server's peak RSS. */
  const probe = async () => {
    const latencies: number[] = [];
    let peak = rssMiB(child.pid!);
    const started = performance.now();
    for (let i = 0; performance.now() - started < SECONDS * 1000; i++) {
      const due = started + i * INTERVAL_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const res = await fetch(`${base}/r/${slug}`, { redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status !== 302) throw new Error(`the short link answered ${res.status}`);
      latencies.push(performance.now() - due);
      if (i % 10 === 0) peak = Math.max(peak, rssMiB(child.pid!));
    }
    latencies.sort((a, b) => a - b);
    return { latencies, peak };
  };

  /** Uploads `bytes` again and again until `stop()`; its answers and times. */
  const uploader = (bytes: Buffer, name: string) => {
    let running = true;
    const answers: Awaited<ReturnType<typeof parse>>[] = [];
    const done = (async () => {
      while (running) answers.push(await parse(bytes, name));
    })();
    return {
      stop: async () => {
        running = false;
        await done;
        return answers;
      },
    };
  };

  const summary = (label: string, r: { latencies: number[]; peak: number }) =>
    console.log(
      `${label}: ${r.latencies.length} requests, p50 ${percentile(r.latencies, 0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(r.latencies, 0.99).toFixed(1)} ms, max ${r.latencies.at(-1)!.toFixed(1)} ms; ` +
        `server peak RSS ${r.peak.toFixed(0)} MiB`,
    );
  const reads = (label: string, answers: Awaited<ReturnType<typeof parse>>[]) => {
    const byStatus = new Map<string, number[]>();
    for (const a of answers) {
      const key = `${a.status}${a.rows !== undefined ? ` (${a.rows} rows)` : a.message ? ` "${a.message.slice(0, 48)}…"` : ''}`;
      byStatus.set(key, [...(byStatus.get(key) ?? []), a.ms]);
    }
    for (const [key, times] of byStatus) {
      times.sort((a, b) => a - b);
      console.log(
        `  ${label}: ${times.length}× ${key}, median ${percentile(times, 0.5).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms`,
      );
    }
  };

  // Warm-up, not counted.
  for (let i = 0; i < 100; i++)
    await (await fetch(`${base}/r/${slug}`, { redirect: 'manual' })).arrayBuffer();

  summary('/r/<slug> alone', await probe());

  const pairs: [string, [string, Buffer, string][]][] = [
    [
      `a zip bomb (${(files.bomb.length / 1024).toFixed(0)} KB → 400 MiB) and a workbook of ${ROWS.toLocaleString('en-US')} rows (${(files.big.length / 1024).toFixed(0)} KB)`,
      [
        ['bomb', files.bomb, 'bomb.xlsx'],
        ['big sheet', files.big, 'codes.xlsx'],
      ],
    ],
    [
      `10,000 merged ranges (${(files.slow.length / 1024).toFixed(0)} KB) and one merged range over the whole sheet (${files.heap.length} bytes)`,
      [
        ['merges', files.slow, 'merges.xlsx'],
        ['whole-sheet merge', files.heap, 'merged.xlsx'],
      ],
    ],
  ];
  if (process.env.WORST === '0') pairs.pop();
  for (const [label, uploads] of pairs) {
    const running = uploads.map(([, bytes, name]) => uploader(bytes, name));
    const result = await probe();
    const answers = await Promise.all(running.map((u) => u.stop()));
    summary(`/r/<slug> while uploading ${label}`, result);
    uploads.forEach(([name], i) => reads(name, answers[i]!));
  }
  summary('/r/<slug> alone again', await probe());
  // Idle workers end after 10 s (bulk-parse.ts): what the server holds once they have.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  console.log(`RSS once the workers have ended: ${rssMiB(child.pid!).toFixed(0)} MiB`);
} finally {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  console.log(`server exit code after SIGTERM: ${String(await exited)}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
