// `npm test`: every check, in two lanes side by side, because the browser tests mostly wait on pages
// while the unit tests mostly compute (one after the other they took about 10 minutes on 2 cores).
//   lane 1: build the app once (client and server bundle), then most of the browser project;
//   lane 2: typecheck, lint, the unit project (after the build: some unit tests run dist/), then the
//           browser files of LATER, so that both lanes end at about the same time.
// Lane 1's output is kept and printed at the end, so the lanes do not interleave. Every step runs even
// when another failed; the exit code is 0 only when all passed. The Vitest JSON reports are merged into
// test-results/vitest.json (.ci/run prints its "N passed, N failed" line).
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
      env: process.env,
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
 * Browser files for lane 2, once the unit tests are done (about a minute of the browser project's eight):
 * lane 1 starts its browser tests about six minutes earlier. Measured, not guessed: move a file when
 * one lane keeps finishing long after the other.
 */
const LATER = ['client/e2e/app-shell.e2e.ts', 'client/e2e/admin-dashboard.e2e.ts'];
const e2e = path.join(root, 'client/e2e');
const browserFiles = fs
  .readdirSync(e2e)
  .filter((name) => name.endsWith('.e2e.ts'))
  .map((name) => `client/e2e/${name}`);
const later = browserFiles.filter((file) => LATER.includes(file));
const first = browserFiles.filter((file) => !LATER.includes(file));

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

const started = Date.now();
const build = run('build', process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')]);

const browserLane = build.then(async (built) =>
  built.code === 0 ? [built, await vitest('browser', 'browser', first, { keep: true })] : [built],
);

const unitLane = (async () => {
  const steps = [await run('typecheck', 'npm', ['run', '--silent', 'typecheck'])];
  steps.push(await run('lint', 'npm', ['run', '--silent', 'lint']));
  const built = await build;
  if (built.code === 0) {
    steps.push(await vitest('unit', 'unit', []));
    if (later.length > 0) steps.push(await vitest('browser-later', 'browser', later));
  }
  return steps;
})();

const unitSteps = await unitLane;
const browserSteps = await browserLane;
const browser = browserSteps.find((s) => s.label.startsWith('vitest'));
if (browser) {
  console.log(`\n──────── ${browser.label} (${first.length} files, lane 1) ────────\n`);
  process.stdout.write(browser.output);
}

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
const expected = later.length > 0 ? 6 : 5;
process.exit(steps.every((step) => step.code === 0) && steps.length === expected ? 0 : 1);
