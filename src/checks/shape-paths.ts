/**
 * The paths the shape walk names an element's children by (src/checks/shape-walk.ts): an index only
 * where siblings of that name repeat, as childPath() names them (src/checks/support.ts).
 */
import type { XElement } from '../xml/tree.js';

/**
 * Names seen among one element's children, each marked with that element's number (a repeat finds
 * its own mark): one map for a walk, kept no longer (a name may be a view of its document's text).
 */
export interface Marks {
  readonly seen: Map<string, number>;
  last: number;
}

/** Children up to this many are searched for a repeated name pair by pair (fewer steps than a map's). */
const FEW = 16;

/** Whether two of `kids` (at most FEW) have the same local name. */
function repeatsAmongFew(kids: readonly XElement[]): boolean {
  for (let a = 1; a < kids.length; a++) {
    const l = kids[a]!.local;
    for (let b = 0; b < a; b++) if (kids[b]!.local === l) return true;
  }
  return false;
}

/**
 * The paths of all children of `el`, named as childPath() names them (an index only where siblings
 * of that name repeat), in one pass: childPath() per child counts the siblings each time, which is
 * quadratic in a list's length (a 50 MB list of 5,600 airports: 31 million steps per walk).
 */
export function childPaths(path: string, el: XElement, marks: Marks): string[] {
  const kids = el.children;
  const n = kids.length;
  if (n === 0) return [];
  // The parent's part built once, not once per child (a path is built for every element of an answer).
  const head = `${path}/`;
  let allSame = true;
  for (let k = 1; k < n && allSame; k++) allSame = kids[k]!.local === kids[0]!.local;
  if (allSame) {
    // A list's items (one name): no counting.
    const local = kids[0]!.local;
    if (n === 1) return [head + local];
    const item = `${head}${local}[`;
    const out = new Array<string>(n);
    for (let k = 0; k < n; k++) out[k] = `${item}${k + 1}]`;
    return out;
  }
  // A record's fields (no name twice): no counting either.
  let repeats = false;
  if (n <= FEW) repeats = repeatsAmongFew(kids);
  else {
    const mark = ++marks.last;
    for (let k = 0; k < n && !repeats; k++) {
      repeats = marks.seen.get(kids[k]!.local) === mark;
      marks.seen.set(kids[k]!.local, mark);
    }
  }
  if (!repeats) {
    const out = new Array<string>(n);
    for (let k = 0; k < n; k++) out[k] = head + kids[k]!.local;
    return out;
  }
  const total = new Map<string, number>();
  for (const c of kids) total.set(c.local, (total.get(c.local) ?? 0) + 1);
  const seen = new Map<string, number>();
  return kids.map((c) => {
    if (total.get(c.local) === 1) return head + c.local;
    const at = (seen.get(c.local) ?? 0) + 1;
    seen.set(c.local, at);
    return `${head}${c.local}[${at}]`;
  });
}
