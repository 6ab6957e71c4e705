// `npm test`: every check, in two lanes side by side, because the browser tests mostly wait on pages
// while the unit tests mostly compute (one after the other they took about 10 minutes on 2 cores).
//   lane 1: build the app once (client and server bundle), then the browser project;
//   lane 2: typecheck, lint, then the unit project (after the build: some unit tests run dist/).
// The browser lane's output is kept and printed after the unit lane's, so neither interleaves. Every
// step runs even when another failed; the exit code is 0 only when all passed. The two Vitest JSON
// reports are merged into test-results/vitest.json (.ci/run prints its "N passed, N failed" line).
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

const vitestJson = (project) => path.join(results, `vitest-${project}.json`);
const vitest = (project, options) =>
  run(
    `vitest --project ${project}`,
    bin('vitest'),
    ['run', '--project', project, `--outputFile.json=${vitestJson(project)}`],
    options,
  );

fs.mkdirSync(results, { recursive: true });
for (const project of ['unit', 'browser']) fs.rmSync(vitestJson(project), { force: true });
fs.rmSync(path.join(results, 'vitest.json'), { force: true });

const started = Date.now();
const build = run('build', process.execPath, [path.join(root, 'scripts/build/build-if-needed.mjs')]);

const browserLane = build.then(async (built) =>
  built.code === 0 ? [built, await vitest('browser', { keep: true })] : [built],
);

const unitLane = (async () => {
  const steps = [await run('typecheck', 'npm', ['run', '--silent', 'typecheck'])];
  steps.push(await run('lint', 'npm', ['run', '--silent', 'lint']));
  const built = await build;
  if (built.code === 0) steps.push(await vitest('unit'));
  return steps;
})();

const unitSteps = await unitLane;
const browserSteps = await browserLane;
const browser = browserSteps.find((s) => s.label.startsWith('vitest'));
if (browser) {
  console.log('\n──────── browser project ────────\n');
  process.stdout.write(browser.output);
}

// One report for .ci/run: the counts summed, the files of both.
const reports = ['unit', 'browser']
  .map((project) => vitestJson(project))
  .filter((file) => fs.existsSync(file))
  .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
if (reports.length > 0) {
  const sum = (key) => reports.reduce((total, r) => total + (r[key] ?? 0), 0);
  const merged = {
    ...reports[0],
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
    success: reports.every((r) => r.success),
    testResults: reports.flatMap((r) => r.testResults),
  };
  fs.writeFileSync(path.join(results, 'vitest.json'), JSON.stringify(merged));
}

const steps = [...unitSteps, ...browserSteps];
console.log('\n──────── npm test ────────');
for (const step of steps)
  console.log(`${step.code === 0 ? 'ok    ' : 'FAILED'} ${step.label} (${step.seconds} s)`);
console.log(`in all ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(steps.every((step) => step.code === 0) && steps.length === 5 ? 0 : 1);
