/**
 * `npm run lint`'s check of line length: no line of code longer than 120 characters. Biome wraps
 * code at that width but cannot wrap a comment or a long string; `npm run format` rewraps comments
 * (./rewrap-comments.ts), ./split-strings.ts splits long strings at spaces, and what is left (a regex,
 * a string with no space, a template whose long part is an expression, a comment after code) is
 * split by hand.
 *
 * What is not split yet is counted, per file, in ./long-lines.json: a file may not have more lines
 * over the width than its count there (a new long line fails), and the count only goes down
 * (`--update` writes the counts of now, refusing to raise any; `--reset` writes them as they are, for a
 * merge that brought new long lines). Exit 1 listing the lines of each file
 * over its count (path:line: width), 0 otherwise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeFiles, MAX_LINE, ROOT, widthOf } from './files.js';

export const ALLOWED_FILE = join(import.meta.dirname, 'long-lines.json');

/** The 1-based numbers and widths of the lines of `text` longer than `max`. */
export function longLines(text: string, max = MAX_LINE): { line: number; width: number }[] {
  const out: { line: number; width: number }[] = [];
  for (const [i, l] of text.split('\n').entries()) {
    const width = widthOf(l);
    if (width > max) out.push({ line: i + 1, width });
  }
  return out;
}

/** The files with more long lines than `allowed` lets them have, and the new counts (never above the old). */
export function judge(
  found: Readonly<Record<string, number>>,
  allowed: Readonly<Record<string, number>>,
): { over: string[]; counts: Record<string, number> } {
  const over = Object.keys(found).filter((f) => found[f]! > (allowed[f] ?? 0));
  const counts: Record<string, number> = {};
  for (const f of Object.keys(found).sort()) if (found[f]! > 0) counts[f] = Math.min(found[f]!, allowed[f] ?? 0);
  return { over, counts };
}

function main(argv: readonly string[]): void {
  const allowed = JSON.parse(readFileSync(ALLOWED_FILE, 'utf8')) as { files: Record<string, number> };
  const lines = new Map<string, { line: number; width: number }[]>();
  const found: Record<string, number> = {};
  for (const file of codeFiles()) {
    const long = longLines(readFileSync(join(ROOT, file), 'utf8'));
    if (long.length === 0) continue;
    lines.set(file, long);
    found[file] = long.length;
  }
  const { over, counts } = judge(found, allowed.files);
  // --reset: the counts of now, whatever they were (once, when a merge brings new long lines to split).
  const reset = argv.includes('--reset');
  if (reset || argv.includes('--update')) {
    const files = reset ? found : counts;
    writeFileSync(ALLOWED_FILE, `${JSON.stringify({ ...allowed, files }, null, 2)}\n`);
    console.log(`line-length: ${Object.values(files).reduce((a, b) => a + b, 0)} long line(s) still allowed`);
    if (reset) return;
  }
  for (const file of over) {
    for (const { line, width } of lines.get(file)!) console.error(`${file}:${line}: ${width} characters`);
    console.error(`${file}: ${found[file]} line(s) over ${MAX_LINE} characters, ${allowed.files[file] ?? 0} allowed`);
  }
  if (over.length > 0) {
    console.error(
      `line-length: ${over.length} file(s) with lines longer than ${MAX_LINE} characters `
        + `(scripts/style/line-length.ts, `
        + 'allowed counts in scripts/style/long-lines.json). Run `npm run format` (Biome wraps code, the rewrap wraps '
        + 'comments); split long strings by hand.',
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main(process.argv.slice(2));
