/** "Did you mean …?" for a name the user got wrong: the one place that suggests a known name. */

/** Edit distance (insertions, deletions, substitutions, adjacent transpositions) between two strings. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name a wrong one most likely meant: one that differs only in letter case, else the
 * nearest by edit distance when it is close (at most a third of the name, and at most 3 edits).
 */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = names.find((n) => n.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: { n: string; d: number } | undefined;
  for (const n of names) {
    const d = editDistance(lower, n.toLowerCase());
    if (!best || d < best.d) best = { n, d };
  }
  return best && best.d <= Math.min(3, Math.max(1, Math.floor(name.length / 3))) ? best.n : undefined;
}

/**
 * " (did you mean X?)" for a wrong name, naming case-sensitivity when that is all that differs; '' when nothing is
 * close.
 */
export function didYouMean(name: string, names: readonly string[]): string {
  const hit = nearestName(name, names);
  if (!hit) return '';
  return hit.toLowerCase() === name.toLowerCase()
    ? ` (did you mean ${hit}? names are case-sensitive)`
    : ` (did you mean ${hit}?)`;
}
