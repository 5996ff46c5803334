/**
 * `npm run format`'s second step, after Biome: rewraps the comments Biome leaves as written (it wraps
 * code, never prose) so that no comment line is longer than 120 characters. Only a paragraph holding
 * a line over the width is refilled, so a comment already within it is never touched and a second run
 * changes nothing.
 *
 * What it reads as a comment comes from TypeScript's parser (never a `//` inside a string or a
 * template). It rewraps `//` runs on lines of their own and `/* *\/` blocks whose lines begin with
 * `*`; a paragraph ends at a blank comment line, a list item (`-`, `*`, `+`, `1.`, `(a)`), a JSDoc tag
 * or a change of indentation. Kept as they are: list markers and their hanging indentation, fenced
 * code, lines indented 4 or more (code samples), tables, directives (`biome-ignore`, `eslint-...`,
 * `@ts-...`, `///`), comments after code on the same line (split those by hand).
 *
 * `--write` rewrites the files, `--check` exits 1 naming those it would change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { codeFiles, MAX_LINE, ROOT, widthOf } from './files.js';

/** Comment lines never refilled nor merged with their neighbours. */
const DIRECTIVE = /^(?:\/|biome-ignore|eslint-|@ts-|prettier-ignore|#region|#endregion|c8 |istanbul )/;
/** A list item's marker and the spaces after it: the item's hanging indentation. */
const LIST_ITEM = /^(\s*)(?:[-*+•]|\d+[.)]|\([a-z0-9]{1,3}\)) +(?=\S)/;
const TAG = /^@\w+/;
/** Lines kept as written: fences, tables, XML and shell samples. */
const VERBATIM = /^\s*(?:```|\||<|\$ )/;
/** A word that, opening a line, would read as a list item or a tag on the next run. */
const OPENER = /^(?:[-*+•]|\d+[.)]|\([a-z0-9]{1,3}\)|@\w+|```|\||<|\$|\/)$|^@\w+/;

type Comment = { pos: number; end: number; kind: ts.CommentKind };

/** Every comment of the file, from the parser's view of its tokens. */
function commentsOf(file: string, text: string): Comment[] {
  const kind = /\.(?:js|mjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, Comment>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, { pos: r.pos, end: r.end, kind: r.kind });
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

/** Words of a paragraph; a `code span` with spaces stays one word. */
function wordsOf(lines: readonly string[]): string[] {
  const words: string[] = [];
  let open = '';
  for (const w of lines
    .join(' ')
    .split(' ')
    .filter((x) => x !== '')) {
    const joined = open ? `${open} ${w}` : w;
    if ((joined.match(/`/g)?.length ?? 0) % 2 === 1) open = joined;
    else {
      words.push(joined);
      open = '';
    }
  }
  if (open) words.push(...open.split(' '));
  return words;
}

/** Greedy fill of `words` into lines of at most `room(i)` characters; no line but the first opens with a marker. */
function fill(words: readonly string[], room: (i: number) => number): string[][] {
  const lines: string[][] = [];
  let cur: string[] = [];
  let width = 0;
  for (const w of words) {
    const need = cur.length === 0 ? widthOf(w) : width + 1 + widthOf(w);
    if (cur.length > 0 && need > room(lines.length)) {
      lines.push(cur);
      cur = [];
      width = 0;
      if (OPENER.test(w) && lines.at(-1)!.length > 1) {
        const moved = lines.at(-1)!.pop()!;
        cur = [moved];
        width = widthOf(moved);
      }
      width = cur.length === 0 ? widthOf(w) : width + 1 + widthOf(w);
      cur.push(w);
    } else {
      cur.push(w);
      width = need;
    }
  }
  if (cur.length > 0) lines.push(cur);
  return lines;
}

type Para = { verbatim: boolean; lines: string[] };

/** Splits comment texts (the prefix taken off) into paragraphs and lines kept as they are. */
function paragraphs(texts: readonly string[]): Para[] {
  const out: Para[] = [];
  let cur: (Para & { hang: number }) | undefined;
  let fenced = false;
  let example = false;
  for (const t of texts) {
    const indent = t.length - t.trimStart().length;
    if (/^\s*```/.test(t)) fenced = !fenced;
    if (TAG.test(t)) example = /^@example\b/.test(t);
    const verbatim =
      fenced
      || /^\s*```/.test(t)
      || (example && !TAG.test(t))
      || t.trim() === ''
      || DIRECTIVE.test(t.trim())
      || VERBATIM.test(t);
    if (verbatim) {
      cur = undefined;
      out.push({ verbatim: true, lines: [t] });
      continue;
    }
    const item = LIST_ITEM.exec(t);
    if (cur && !item && !TAG.test(t) && indent === cur.hang) {
      cur.lines.push(t);
      continue;
    }
    const hang = item ? item[0].length : indent;
    // A plain paragraph indented 4 or more, outside a list, is a code sample.
    if (!item && indent >= 4 && !(cur && indent > cur.hang)) {
      cur = undefined;
      out.push({ verbatim: true, lines: [t] });
      continue;
    }
    cur = { verbatim: false, lines: [t], hang: TAG.test(t) ? 2 : hang };
    out.push(cur);
  }
  return out.map(({ verbatim, lines }) => ({ verbatim, lines }));
}

/**
 * Refills the paragraphs of `texts` holding a line wider than `room` (the room after the comment's
 * prefix); the others are returned as they are.
 */
export function rewrapTexts(texts: readonly string[], room: number): string[] {
  const out: string[] = [];
  for (const p of paragraphs(texts)) {
    if (p.verbatim || !p.lines.some((l) => widthOf(l) > room)) {
      out.push(...p.lines);
      continue;
    }
    const first = p.lines[0]!;
    const item = LIST_ITEM.exec(first);
    const lead = item ? item[0] : first.slice(0, first.length - first.trimStart().length);
    const hang = ' '.repeat(TAG.test(first.trimStart()) ? widthOf(lead) + 2 : widthOf(lead));
    const words = wordsOf([first.slice(lead.length), ...p.lines.slice(1).map((l) => l.trim())]);
    const filled = fill(words, (i) => room - (i === 0 ? widthOf(lead) : hang.length));
    for (const [i, ws] of filled.entries()) out.push(`${i === 0 ? lead : hang}${ws.join(' ')}`);
  }
  return out;
}

/** Text after a `//` or ` * ` prefix: the one space after the marker is part of the prefix. */
const after = (s: string) => (s.startsWith(' ') ? s.slice(1) : s);

/** The file's text with its over-wide comments rewrapped to `max` characters a line. */
export function rewrapComments(file: string, text: string, max = MAX_LINE): string {
  const lines = text.split('\n');
  if (!lines.some((l) => widthOf(l) > max)) return text;
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const lineOf = (pos: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Line number → the comment that fills that line alone (from its first non-blank character to its end).
  const lineComment = new Map<number, Comment>();
  const blocks: { first: number; last: number }[] = [];
  for (const c of commentsOf(file, text)) {
    const first = lineOf(c.pos);
    const last = lineOf(c.end - 1);
    const before = text.slice(starts[first]!, c.pos);
    const rest = lines[last]!.slice(c.end - starts[last]!);
    if (before.trim() !== '' || rest.trim() !== '') continue;
    if (c.kind === ts.SyntaxKind.SingleLineCommentTrivia) lineComment.set(first, c);
    else blocks.push({ first, last });
  }
  const replaced = new Map<number, { last: number; lines: string[] }>();
  // `//` runs: consecutive lines of their own with the same indentation.
  for (let i = 0; i < lines.length; i++) {
    if (!lineComment.has(i)) continue;
    const indent = /^\s*/.exec(lines[i]!)![0];
    let j = i;
    while (lineComment.has(j + 1) && /^\s*/.exec(lines[j + 1]!)![0] === indent) j++;
    const run = lines.slice(i, j + 1);
    if (run.some((l) => widthOf(l) > max)) {
      const texts = run.map((l) => after(l.trimStart().slice(2)));
      const room = max - widthOf(indent) - 3;
      const out = rewrapTexts(texts, room).map((t) => (t === '' ? `${indent}//` : `${indent}// ${t}`));
      replaced.set(i, { last: j, lines: out });
    }
    i = j;
  }
  for (const { first, last } of blocks) {
    const block = lines.slice(first, last + 1);
    if (!block.some((l) => widthOf(l) > max)) continue;
    const indent = /^\s*/.exec(block[0]!)![0];
    const open = block[0]!.trimStart().startsWith('/**') ? '/**' : '/*';
    let texts: string[];
    if (first === last) {
      // `/** text */` on one line: opened onto lines of their own.
      const body = block[0]!.trim().slice(open.length, -2).trim();
      texts = [body];
    } else {
      const head = block[0]!.trim().slice(open.length).trim();
      const tail = block.at(-1)!.trim();
      const middle = block.slice(1, -1);
      // Only the house's shape: every middle line opens with `*`, the last is ` */` alone.
      if (tail !== '*/' || !middle.every((l) => /^\s*\*(?: |$)/.test(l))) continue;
      texts = [...(head ? [head] : []), ...middle.map((l) => after(l.trimStart().slice(1)))];
    }
    const room = max - widthOf(indent) - 3;
    const body = rewrapTexts(texts, room).map((t) => (t === '' ? `${indent} *` : `${indent} * ${t}`));
    replaced.set(first, { last, lines: [`${indent}${open}`, ...body, `${indent} */`] });
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const r = replaced.get(i);
    if (r) {
      out.push(...r.lines);
      i = r.last;
    } else out.push(lines[i]!);
  }
  return out.join('\n');
}

function main(argv: readonly string[]): void {
  const write = argv.includes('--write');
  if (!write && !argv.includes('--check')) {
    console.error('usage: rewrap-comments.ts --write | --check (scripts/style/rewrap-comments.ts)');
    process.exitCode = 2;
    return;
  }
  const changed: string[] = [];
  for (const file of codeFiles()) {
    const path = join(ROOT, file);
    const text = readFileSync(path, 'utf8');
    const next = rewrapComments(file, text);
    if (next === text) continue;
    changed.push(file);
    if (write) writeFileSync(path, next);
  }
  if (write) console.log(`rewrap-comments: ${changed.length} file(s) rewrapped`);
  else if (changed.length > 0) {
    for (const f of changed) console.error(`${f}: comments wider than ${MAX_LINE} characters`);
    console.error(`rewrap-comments: ${changed.length} file(s) to rewrap: run \`npm run format\``);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) main(process.argv.slice(2));
