// `npm test`: every check, in three lanes side by side. The browser tests mostly wait on pages (about
// 0.8 of a core while they run) and the unit tests mostly compute, so on this 2-core machine one after the
// other took about 10 minutes, side by side well under 8:
//   lane 1: typecheck, ESLint, then the unit project (after the build: some unit tests run dist/);
//   lanes 2 and 3: once the app is built (client and server bundle), half the browser files each, then
//   lane 2 the rest of the lint (Prettier, the file-cycle and folder rules, the words not marked for
//   translation and the catalogs: `npm run lint:rest`).
// The browser lanes' output is kept and printed at the end, so lanes do not interleave. Every step runs
// even when another failed; the exit code is 0 only when all passed. The Vitest JSON reports are merged
// into test-results/vitest.json (.ci/run prints its "N passed, N failed" line).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
const bin = (name) => path.join(root, 'node_modules/.bin', name);

/** Runs a command; resolves with its exit code. With `keep`, its output is collected, not shown. */
function run(label, command, args, { keep = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // The servers the tests start write their logs under test-results/server-logs (scripts/built-app.mjs).
      env: { SERVER_LOG_DIR: path.join(results, 'server-logs'), ...process.env },
    });
    const output = [];
    if (keep) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      resolve({ label, code: code ?? (signal ? 1 : 0), seconds, output: Buffer.concat(output) });
    });
  });
}

/**
 * Seconds each browser file took in its lane (measured on the 2-core machine in a full run, 2026-11-27); a file
 * not listed counts a second per 30 lines. The files are dealt to the two browser lanes longest first, each
 * to the lane with less so far, so that both end at about the same time. Update the figures when a lane
 * keeps finishing long after the other.
 */
const SECONDS = {
  'a11y-audit': 170,
  'qr-codes': 93,
  analytics: 89,
  'app-shell': 82,
  account: 73,
  'charts-a11y': 66,
  'first-use': 55,
  'plans-nav': 55,
  'admin-users': 52,
  'shared-dashboard': 47,
  'smart-rules': 43,
  webhooks: 40,
  forwarding: 15,
  'my-codes-list': 31,
  verification: 29,
  'print-download': 27,
  'scan-safety': 27,
  'admin-dashboard': 25,
  history: 21,
  'unique-scanners': 20,
  'bulk-create': 19,
  'bulk-limits': 18,
  'smart-redirect': 16,
  'smart-story': 15,
  'a11y-keyboard': 15,
};
const e2e = path.join(root, 'client/e2e');
const browserFiles = fs
  .readdirSync(e2e)
  .filter((name) => name.endsWith('.e2e.ts'))
  .map((name) => {
    const lines = fs.readFileSync(path.join(e2e, name), 'utf8').split('\n').length;
    return { file: `client/e2e/${name}`, seconds: SECONDS[name.slice(0, -'.e2e.ts'.length)] ?? lines / 30 };
  })
  .sort((a, b) => b.seconds - a.seconds);
const halves = [
  { files: [], seconds: 0 },
  { files: [], seconds: 0 },
];
for (const { file, seconds } of browserFiles) {
  const lighter = halves[0].seconds <= halves[1].seconds ? halves[0] : halves[1];
  lighter.files.push(file);
  lighter.seconds += seconds;
}

const reports = [];
function vitest(label, project, files, options) {
  const report = path.join(results, `vitest-${label}.json`);
  reports.push(report);
  fs.rmSync(report, { force: true });
  return run(
    `vitest ${label}`,
    bin('vitest'),
    ['run', '--project', project, `--outputFile.json=${report}`, ...files],
    options,
  );
}

fs.mkdirSync(results, { recursive: true });
fs.rmSync(path.join(results, 'vitest.json'), { force: true });
fs.rmSync(path.join(results, 'server-logs'), { recursive: true, force: true });

const started = Date.now();
const build = run('build', process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')]);

const browserLanes = halves.map((half, i) =>
  build.then(async (built) => {
    const steps =
      built.code === 0 && half.files.length > 0
        ? [await vitest(`browser-${i + 1}`, 'browser', half.files, { keep: true })]
        : [];
    if (i === 0) steps.push(await run('lint:rest', 'npm', ['run', '--silent', 'lint:rest'], { keep: true }));
    return steps;
  }),
);

const unitLane = (async () => {
  const steps = [await run('typecheck', 'npm', ['run', '--silent', 'typecheck'])];
  steps.push(await run('eslint', bin('eslint'), ['.']));
  const built = await build;
  steps.push(built);
  if (built.code === 0) steps.push(await vitest('unit', 'unit', []));
  return steps;
})();

const unitSteps = await unitLane;
const browserResults = await Promise.all(browserLanes);
for (const [i, lane] of browserResults.entries()) {
  for (const step of lane) {
    const what = step.label.startsWith('vitest') ? ` (${halves[i].files.length} files)` : '';
    console.log(`\n──────── ${step.label}${what} ────────\n`);
    process.stdout.write(step.output);
  }
}
const browserSteps = browserResults.flat();

// One report for .ci/run: the counts summed, the files of all.
const found = reports
  .filter((file) => fs.existsSync(file))
  .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
if (found.length > 0) {
  const sum = (key) => found.reduce((total, r) => total + (r[key] ?? 0), 0);
  const merged = {
    ...found[0],
    numTotalTestSuites: sum('numTotalTestSuites'),
    numPassedTestSuites: sum('numPassedTestSuites'),
    numFailedTestSuites: sum('numFailedTestSuites'),
    numPendingTestSuites: sum('numPendingTestSuites'),
    numTotalTests: sum('numTotalTests'),
    numPassedTests: sum('numPassedTests'),
    numFailedTests: sum('numFailedTests'),
    numPendingTests: sum('numPendingTests'),
    numTodoTests: sum('numTodoTests'),
    numRuntimeErrorTestSuites: sum('numRuntimeErrorTestSuites'),
    success: found.every((r) => r.success),
    testResults: found.flatMap((r) => r.testResults),
  };
  fs.writeFileSync(path.join(results, 'vitest.json'), JSON.stringify(merged));
}

const steps = [...unitSteps, ...browserSteps];
console.log('\n──────── npm test ────────');
for (const step of steps)
  console.log(`${step.code === 0 ? 'ok    ' : 'FAILED'} ${step.label} (${step.seconds} s)`);
console.log(`in all ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(steps.every((step) => step.code === 0) && steps.length === 7 ? 0 : 1);
