/**
 * What a person needs to see where bindings disagree: the canonical forms side by side as a unified
 * diff, and an element named by its content (`meal id=3 name="Half board"`) rather than by the
 * marker `<element>` the entries hold.
 *
 * The canonical form is rendered as an indented outline, one entry a line, without list indexes: an
 * item missing from the middle of a list is then one removed block, not every later item renumbered.
 * The diff is bounded whatever the answers' size: the common start and end are trimmed in linear
 * time, only a window around what remains is diffed (Myers, `diff`), and the output is capped.
 */
import { structuredPatch } from 'diff';
import { DOCUMENTED, ELEMENT, NIL, type Entry } from './canonical.js';
import { displayValue } from './values.js';

/** Context lines around each change. */
const CONTEXT = 3;
/** Lines of each side's differing middle that are diffed; beyond it the diff says it was cut. */
const MAX_WINDOW = 400;
/** Lines of diff output kept. */
const MAX_DIFF_LINES = 120;
/** Characters of one rendered line kept. */
const MAX_LINE = 200;
/** Characters of an item description kept, and the fields it names at most. */
const MAX_DESCRIPTION = 200;
const MAX_FIELDS = 4;

/**
 * The steps of a canonical path (`/a/{urn:x/y}b[2]/@c` → a, {urn:x/y}b[2], @c): slashes inside a namespace don't split.
 */
export function pathSteps(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of path) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (ch === '/' && depth === 0) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** A step's name without its list index: `meal[3]` → `meal`. */
const bare = (step: string): string => step.replace(/\[\d+\]$/, '');

/** A value as the outline and descriptions show it: numbers and booleans bare, other text quoted. */
function quoted(value: string): string {
  const v = displayValue(value);
  const s = /^(?:-?\d+(?:\.\d+)?(?:E-?\d+)?|true|false|NaN|-?INF)$/.test(v) ? v : JSON.stringify(v);
  return s.length > MAX_LINE ? `${s.slice(0, MAX_LINE)}…` : s;
}

/** The canonical entries as an outline: one line per element, attribute or text, indented by depth, no indexes. */
export function renderCanonical(entries: readonly Entry[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const steps = pathSteps(e.path);
    const last = steps[steps.length - 1] ?? '';
    const indent = '  '.repeat(Math.max(0, steps.length - 1));
    if (last === 'text()') {
      lines.push(`${indent}${quoted(e.value)}`);
      continue;
    }
    const name = bare(last);
    if (name.startsWith('@')) {
      lines.push(`${indent}${name}=${quoted(e.value)}`);
      continue;
    }
    if (e.value === NIL) lines.push(`${indent}${name} (nil)`);
    else if (e.value === DOCUMENTED) lines.push(`${indent}${name} (differs by binding, as documented)`);
    else if (e.value === ELEMENT) {
      // An element whose only content is its text: one line, `name = "text"`.
      const next = entries[i + 1];
      const after = entries[i + 2];
      if (next?.path === `${e.path}/text()` && !after?.path.startsWith(`${e.path}/`)) {
        lines.push(`${indent}${name} = ${quoted(next.value)}`);
        i++;
      } else lines.push(`${indent}${name}`);
    } else lines.push(`${indent}${name} ${quoted(e.value)}`);
  }
  return lines.map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l));
}

/**
 * The element at `path` named by its content: its name, then its attributes and the texts of its
 * simple children, in document order (`meal id=3 name="Half board"`). Undefined when `path` holds
 * no element in `entries`.
 */
export function describeItem(entries: readonly Entry[], path: string): string | undefined {
  const at = entries.findIndex((e) => e.path === path);
  if (at < 0 || entries[at]!.value !== ELEMENT) return undefined;
  const steps = pathSteps(path);
  const name = bare(steps[steps.length - 1] ?? '');
  const fields: string[] = [];
  const prefix = `${path}/`;
  for (let i = at + 1; i < entries.length && entries[i]!.path.startsWith(prefix) && fields.length < MAX_FIELDS; i++) {
    const rest = pathSteps(entries[i]!.path.slice(prefix.length));
    const value = entries[i]!.value;
    if (rest.length === 1 && rest[0] === 'text()') fields.push(quoted(value));
    else if (rest.length === 1 && rest[0]!.startsWith('@')) fields.push(`${rest[0]!.slice(1)}=${quoted(value)}`);
    else if (rest.length === 2 && rest[1] === 'text()') fields.push(`${bare(rest[0]!)}=${quoted(value)}`);
    else if (rest.length === 1 && value === NIL) fields.push(`${bare(rest[0]!)}=(nil)`);
  }
  const text = [name, ...fields].join(' ');
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
}

/**
 * A unified diff of two results' canonical forms (`from`: the majority's, `to`: the departing
 * binding's), or undefined when the outlines are equal. Bounded: the common start and end are
 * trimmed, at most MAX_WINDOW lines of each side's middle are diffed, MAX_DIFF_LINES are kept.
 * `skipped`: entries before the ones given, equal on both sides (the comparison of large answers
 * gives a window of each: src/equivalence/differences.ts): said in a note, line numbers counting from
 * the window.
 */
export function canonicalDiff(
  fromLabel: string,
  from: readonly Entry[],
  toLabel: string,
  to: readonly Entry[],
  skipped = 0,
): string | undefined {
  const a = renderCanonical(from);
  const b = renderCanonical(to);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  if (start === a.length && start === b.length) return undefined;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // A block only one side has is slid up as far as it goes, so it starts where its item starts
  // (`meal`, `id = 3`, `name = …` rather than `id = 3`, `name = …`, `meal` of the next item).
  const block = endA === start ? b : endB === start ? a : undefined;
  if (block) {
    let end = block === a ? endA : endB;
    while (start > 0 && block[start - 1] === block[end - 1]) {
      start--;
      end--;
      endA--;
      endB--;
    }
  }
  const cut = endA - start > MAX_WINDOW || endB - start > MAX_WINDOW;
  const from0 = Math.max(0, start - CONTEXT);
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  if (block && !cut) {
    // One block only one side has: the hunk is known; Myers could place an ambiguous block lower.
    const before = a.slice(from0, start);
    const after = a.slice(endA, endA + CONTEXT);
    const removed = a.slice(start, endA);
    const added = b.slice(start, endB);
    out.push(
      `@@ -${from0 + 1},${before.length + removed.length + after.length} `
        + `+${from0 + 1},${before.length + added.length + after.length} @@`,
      ...before.map((l) => ` ${l}`),
      ...removed.map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...after.map((l) => ` ${l}`),
    );
  } else {
    const windowA = a.slice(from0, Math.min(endA, start + MAX_WINDOW) + (cut ? 0 : CONTEXT));
    const windowB = b.slice(from0, Math.min(endB, start + MAX_WINDOW) + (cut ? 0 : CONTEXT));
    const patch = structuredPatch(
      fromLabel,
      toLabel,
      `${windowA.join('\n')}\n`,
      `${windowB.join('\n')}\n`,
      undefined,
      undefined,
      { context: CONTEXT },
    );
    for (const h of patch.hunks) {
      out.push(`@@ -${h.oldStart + from0},${h.oldLines} +${h.newStart + from0},${h.newLines} @@`);
      for (const l of h.lines) if (!l.startsWith('\\')) out.push(l);
    }
  }
  const notes: string[] = [];
  if (skipped > 0)
    notes.push(
      `… (the first ${skipped.toLocaleString('en-US')} entries of both answers, equal, are left out: `
        + `line numbers count from there)`,
    );
  if (out.length > MAX_DIFF_LINES + 2) {
    notes.push(`… ${out.length - MAX_DIFF_LINES - 2} more lines of diff`);
    out.length = MAX_DIFF_LINES + 2;
  }
  if (cut)
    notes.push(
      `… the answers differ beyond this point too (${endA - start} and ${endB - start} differing lines; `
        + `the first ${MAX_WINDOW} are compared)`,
    );
  return [...out, ...notes].join('\n');
}
