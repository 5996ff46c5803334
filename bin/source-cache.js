// The compiled form of a clone's sources for `npx conformance` (bin/conformance.js), so a run does
// not compile every module through tsx's loader at each start (about half a second of CPU).
//
// It can never run stale code: the cache is keyed by a hash of every source file's path and bytes
// (src/**/*.ts but the tests, package.json, tsconfig.json and this file), computed at every start
// from the files as they are, and an entry is only ever used for exactly the sources it was built
// from. An edit makes a new entry (built once, by esbuild: tsx's own compiler, ~0.2 s); the
// dependencies are not bundled, so they are read from node_modules as they are. Entries live in
// .source-cache/<hash>/ (two levels below the root, as dist/'s modules are one level below it: the
// lookups relative to a module, ../../schemas/ and the like, find the same files); older entries
// are removed when a new one is written. Anything unexpected (no esbuild, a read-only checkout, a
// failed build) falls back to tsx: the cache is a speed-up, never a requirement.
// CONFORMANCE_SOURCE_CACHE=0 turns it off (tsx then runs the sources, as before).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CACHE = join(ROOT, '.source-cache');
/**
 * Entry points: the command, the validator's child process (schema/validator-process.ts starts
 * ./validator-child.js beside it), the embedded mock's worker (mock/in-worker.ts starts
 * ./mock-worker.js) and the secret guard's search (report/guard-search.ts starts ./guard-worker.js).
 * Split: what is only imported when needed (the mock, msw) is a chunk of its own, loaded when
 * imported, not at every start.
 */
const ENTRIES = {
  main: 'src/cli/main.ts',
  'validator-child': 'src/schema/validator-child.ts',
  'mock-worker': 'src/mock/mock-worker.ts',
  'guard-worker': 'src/report/guard-worker.ts',
};

/** Every source file that can reach the bundle (tests excluded), sorted. */
function sources(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.(ts|mts|js|mjs|json)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** The hash of the sources as they are now. */
function sourceHash() {
  const h = createHash('sha256');
  const files = [
    ...sources(join(ROOT, 'src')),
    join(ROOT, 'package.json'),
    join(ROOT, 'tsconfig.json'),
    fileURLToPath(import.meta.url),
  ];
  for (const f of files) {
    h.update(f.slice(ROOT.length));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 24);
}

/**
 * The URL of the compiled command's module for the sources as they are, building it if needed;
 * undefined when it cannot be had (then run the sources through tsx).
 */
export async function compiledMain() {
  if (process.env.CONFORMANCE_SOURCE_CACHE === '0') return undefined;
  try {
    const hash = sourceHash();
    const dir = join(CACHE, hash);
    const main = join(dir, 'main.js');
    if (existsSync(join(dir, 'complete'))) return pathToFileURL(main).href;
    if (!existsSync(join(ROOT, 'node_modules', 'esbuild'))) return undefined;
    const { build } = await import('esbuild');
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    await build({
      entryPoints: Object.entries(ENTRIES).map(([out, inp]) => ({ out, in: join(ROOT, inp) })),
      outdir: tmp,
      bundle: true,
      splitting: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      tsconfig: join(ROOT, 'tsconfig.json'),
    });
    writeFileSync(join(tmp, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(tmp, 'complete'), `${new Date().toISOString()}\n`);
    try {
      renameSync(tmp, dir);
    } catch {
      // Another process built the same sources first: use its entry.
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(join(dir, 'complete'))) return undefined;
    }
    // Entries of other sources unused for an hour go (a run of them may still be going: its
    // validator child starts from its entry; a switch back rebuilds in a fraction of a second).
    const old = Date.now() - 3600_000;
    for (const e of readdirSync(CACHE)) {
      const p = join(CACHE, e);
      if (e !== hash && statSync(p).mtimeMs < old) rmSync(p, { recursive: true, force: true });
    }
    return pathToFileURL(main).href;
  } catch {
    return undefined;
  }
}

export { CACHE as SOURCE_CACHE_DIR, sourceHash };
