#!/usr/bin/env node
// `npx conformance` in a clone: the in-repo alias of `accommodation-conformance`. It runs what is
// checked out, with no build step: the sources compiled once per version of them into
// .source-cache/ (bin/source-cache.js: keyed by a hash of every source file, checked at every
// start, so never stale), or through tsx (a devDependency) when that cannot be had. Where there
// are no sources (an installed package) it runs the compiled dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { lowerBackgroundThreads } from './background-threads.js';

// First, before the command starts a thread of its own: see ./background-threads.js.
lowerBackgroundThreads();

const source = new URL('../src/cli/main.ts', import.meta.url);

/**
 * A `run` that will likely use the embedded mock (no target URL among its flags or environment)
 * starts the mock's worker thread now, so that its modules load on the other core while this
 * thread loads the command's (src/mock/in-worker.ts takes it, with the options, when the session
 * opens). Unreferenced: a run that does not take it (a target in a config file) is not kept alive by
 * it, and it costs that run only the worker's start on the other core.
 */
function earlyMockWorker(file) {
  const args = process.argv.slice(2);
  if (args[0] !== 'run' || args.some((a) => /^--(book|search|transfers)-url\b|^--help$|^-h$/.test(a))) return;
  if (['CONFORMANCE_BOOK_URL', 'CONFORMANCE_SEARCH_URL', 'CONFORMANCE_TRANSFERS_URL'].some((v) => process.env[v]))
    return;
  try {
    const path = fileURLToPath(file);
    if (!existsSync(path)) return;
    const worker = new Worker(path, { workerData: { early: true }, stdout: false, stderr: false });
    worker.unref();
    const early = { worker, file: path, exited: false };
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      early.exited = true;
    });
    globalThis[Symbol.for('accommodation-conformance.early-mock-worker')] = early;
  } catch {
    // The session starts its own.
  }
}
if (existsSync(source)) {
  const { compiledMain } = await import('./source-cache.js');
  const compiled = await compiledMain();
  if (compiled) {
    earlyMockWorker(new URL('./mock-worker.js', compiled));
    const { cliEntry } = await import(compiled);
    await cliEntry();
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    const { cliEntry } = await import(source.href);
    await cliEntry();
  }
} else {
  earlyMockWorker(new URL('../dist/mock/mock-worker.js', import.meta.url));
  const { cliEntry } = await import('../dist/cli/main.js');
  await cliEntry();
}
