import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's API, named through a variable: package.mjs ships any quoted name after `.resolve(` as a package. */
const TSX_API = 'tsx/esm/api';

/**
 * Starts one of the server's worker threads: its bundle beside the server's (`dist/<name>-worker.mjs`, built
 * with dist/server.mjs by scripts/build/build-if-needed.mjs and shipped with it by scripts/build/package.mjs)
 * when the caller runs bundled, or its TypeScript source when the caller runs from source (tests, npm run
 * dev, the tsx scripts). `from` is the caller's `import.meta.url`; both files are named relative to it.
 */
export function startWorkerThread(
  from: string,
  files: { source: string; bundle: string },
  options: WorkerOptions,
): Worker {
  const fromSource = from.endsWith('.ts');
  const file = new URL(fromSource ? files.source : files.bundle, from);
  if (!fromSource) return new Worker(file, options);
  // Node 20 loads a worker's entry file before any --import hook: a bootstrap has tsx load the source.
  const bootstrap =
    `import(${JSON.stringify(import.meta.resolve(TSX_API))})` +
    `.then(({ tsImport }) => tsImport(${JSON.stringify(file.href)}, ${JSON.stringify(from)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}
