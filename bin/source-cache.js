// The compiled form of a clone's sources for `npx conformance` (bin/conformance.js), so a run does
// not compile every module through tsx's loader at each start (about half a second of CPU).
//
// It can never run stale code: the cache is keyed by a hash of every source file's path and bytes (src/**/*.ts but the
// tests, package.json, tsconfig.json and this file), and an entry is only ever used for exactly the sources it was
// built from. The hash is computed from the files as they are unless their stat (path, size, mtime, ctime, inode) is
// the one recorded beside the hash when it was last computed (.source-cache/stamp): ~250 stats instead of reading and
// hashing 1.5 MB at every start. A write to a file changes its ctime (which no tool sets back), and a stamp is only
// recorded when every file's times are older than STAMP_SETTLED_MS, so an edit after it cannot share a time with what
// was recorded (git's "racy" files: an edit within the clock's tick of the stamp). An edit makes a new entry (built
// once, by esbuild: tsx's own compiler, ~0.2 s); the dependencies are not bundled, so they are read from node_modules
// as they are. Entries live in .source-cache/<hash>/ (two levels below the root, as dist/'s modules are one level below
// it: the lookups relative to a module, ../../schemas/ and the like, find the same files); older entries are removed
// when a new one is written. Anything unexpected (no esbuild, a read-only checkout, a failed build) falls back to tsx:
// the cache is a speed-up, never a requirement. CONFORMANCE_SOURCE_CACHE=0 turns it off (tsx then runs the sources, as
// before).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** The files the hash covers under `root`, this file last (its path is not under every root a test gives). */
function hashedFiles(root) {
  return [
    ...sources(join(root, 'src')),
    join(root, 'package.json'),
    join(root, 'tsconfig.json'),
    fileURLToPath(import.meta.url),
  ];
}

/** The hash of the sources as they are now (read and hashed, whatever the stamp says). */
async function sourceHash(root = ROOT) {
  // Loaded only here: node:crypto costs a start that finds the stamp fresh some milliseconds.
  const { createHash } = await import('node:crypto');
  const h = createHash('sha256');
  for (const f of hashedFiles(root)) {
    h.update(f.startsWith(root) ? f.slice(root.length) : f);
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 24);
}

/** How recent a file's times may be for a stamp to be recorded (well above any file system's clock tick). */
const STAMP_SETTLED_MS = 2000;

/**
 * The stat of every hashed file, one line each, and the newest time among them. A changed file
 * changes its line: its size, its mtime, or its ctime (set by the kernel at each write).
 */
function statLines(root) {
  let newest = 0;
  const lines = hashedFiles(root).map((f) => {
    const st = statSync(f, { bigint: true });
    const ms = Math.max(Number(st.ctimeMs), Number(st.mtimeMs));
    if (ms > newest) newest = ms;
    return `${f}\t${st.size}\t${st.mtimeNs}\t${st.ctimeNs}\t${st.ino}`;
  });
  return { text: lines.join('\n'), newest };
}

/**
 * The hash of the sources as they are now: the stamp's when every file's stat is the one recorded
 * with it, else read and hashed, and the stamp recorded when the files have settled. `via` says
 * which (the test's evidence). `cache` is where the stamp lives; `settledMs` is for the test.
 */
async function currentHash(root = ROOT, cache = CACHE, settledMs = STAMP_SETTLED_MS) {
  const stamp = join(cache, STAMP);
  const now = statLines(root);
  try {
    const [hash, ...lines] = readFileSync(stamp, 'utf8').split('\n');
    if (hash && /^[0-9a-f]{24}$/.test(hash) && lines.join('\n') === now.text) return { hash, via: 'stamp' };
  } catch {
    // No stamp yet.
  }
  const hash = await sourceHash(root);
  // A file written within STAMP_SETTLED_MS (an editor saving, a checkout) may be written again within
  // the same clock tick: no stamp for it yet, the next start hashes again.
  if (Date.now() - now.newest > settledMs) {
    try {
      mkdirSync(cache, { recursive: true });
      const tmp = `${stamp}.tmp-${process.pid}`;
      writeFileSync(tmp, `${hash}\n${now.text}`);
      renameSync(tmp, stamp);
    } catch {
      // A read-only checkout: hashed at every start, as before.
    }
  }
  return { hash, via: 'hash' };
}

/** The stamp's name in .source-cache/ (no entry's: entries are named by a hash). */
const STAMP = 'stamp';

/**
 * The URL of the compiled command's module for the sources as they are, building it if needed;
 * undefined when it cannot be had (then run the sources through tsx).
 */
export async function compiledMain() {
  if (process.env.CONFORMANCE_SOURCE_CACHE === '0') return undefined;
  try {
    const { hash } = await currentHash();
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
      if (e !== hash && !e.startsWith(STAMP) && statSync(p).mtimeMs < old) rmSync(p, { recursive: true, force: true });
    }
    return pathToFileURL(main).href;
  } catch {
    return undefined;
  }
}

export { CACHE as SOURCE_CACHE_DIR, currentHash, sourceHash, STAMP_SETTLED_MS };
