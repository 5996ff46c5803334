/**
 * Failures grouped by defect: one kind of failure (check and defect code) at one place of one
 * operation × binding, with every case that hit it and one command that reproduces it. A defect
 * found by the hand-written cases and by four generated ones is one defect, not six blocks with six
 * commands. The console, conformance.md and conformance.html all list failures through this one
 * function, so they count and order defects alike.
 */
import { isGeneratedCase } from '../core/rows.js';
import type { ResultRow } from '../core/types.js';

/** One defect, and the failed rows and cases that hit it. */
export interface Defect {
  readonly operation: string;
  /** The row's binding (the departing one for a binding comparison). */
  readonly binding: string;
  readonly check: string;
  /** The findings' defect code ('' for a failed row without findings). */
  readonly code: string;
  /** Where, without the positions of repeated elements (meal[2] → meal): cases differ in them, not in the defect. */
  readonly path: string;
  /** The cases that hit it, hand-written ones first, each once. */
  readonly cases: readonly string[];
  /** The failed rows that hit it (a row with findings of several kinds is in several defects). */
  readonly rows: readonly ResultRow[];
  /** Findings of this defect over all its rows. */
  readonly occurrences: number;
  /** One finding of it, from the case the command reproduces. */
  readonly example: {
    readonly path: string;
    readonly message: string;
    readonly expected?: string;
    readonly actual?: string;
  };
  /** The case the command is for: the first hand-written case that has one, else the first case that has one. */
  readonly reproduceCase: string;
  /** The one command that reproduces it ('' when no row has one). */
  readonly reproduce: string;
}

/** A path without the positions of repeated elements: /a/meal[2]/id → /a/meal/id. */
export function defectPath(path: string): string {
  return path.replace(/\[\d+\]/g, '');
}

/**
 * Defect codes worse than any other, listed first in every report: another account reached a
 * booking (issue 33); the target fetched an external entity of a request (issue 42: an attacker's
 * URL reaches any host the target can). Among them, and among the rest, the order the defects first occur.
 */
export const FIRST_CODES: readonly string[] = [
  'foreign_booking_changed',
  'foreign_booking_read',
  'external_entity_fetched',
];

/** A defect's place before the others: 0 for the worst code, up to FIRST_CODES.length for any other. */
export const firstRank = (code: string): number => {
  const i = FIRST_CODES.indexOf(code);
  return i < 0 ? FIRST_CODES.length : i;
};

/**
 * The failed rows grouped by defect (operation, binding, check, code, path): another account's access first
 * (FIRST_CODES), then in the order they first occur.
 */
export function groupDefects(rows: readonly ResultRow[]): Defect[] {
  return byOccurrence(rows)
    .map((d, i) => ({ d, i }))
    .sort((a, b) => firstRank(a.d.code) - firstRank(b.d.code) || a.i - b.i)
    .map(({ d }) => d);
}

function byOccurrence(rows: readonly ResultRow[]): Defect[] {
  type Acc = {
    key: Omit<Defect, 'cases' | 'rows' | 'occurrences' | 'example' | 'reproduceCase' | 'reproduce'>;
    hits: { row: ResultRow; example: Defect['example'] }[];
    occurrences: number;
  };
  const groups = new Map<string, Acc>();
  for (const row of rows) {
    if (row.status !== 'failed') continue;
    const kinds =
      row.findings.length > 0
        ? row.findings.map((f) => ({
            code: f.code as string,
            path: f.path,
            example: {
              path: f.path,
              message: f.message,
              ...(f.expected !== undefined ? { expected: f.expected } : {}),
              ...(f.actual !== undefined ? { actual: f.actual } : {}),
            },
          }))
        : [{ code: '', path: row.path, example: { path: row.path, message: row.message } }];
    for (const k of kinds) {
      const key = {
        operation: row.operation,
        binding: row.binding,
        check: row.check,
        code: k.code,
        path: defectPath(k.path),
      };
      const id = JSON.stringify(key);
      const g = groups.get(id) ?? { key, hits: [], occurrences: 0 };
      groups.set(id, g);
      g.occurrences += 1;
      if (!g.hits.some((h) => h.row === row)) g.hits.push({ row, example: k.example });
    }
  }
  return [...groups.values()].map((g) => {
    const ordered = [
      ...g.hits.filter((h) => !isGeneratedCase(h.row.case)),
      ...g.hits.filter((h) => isGeneratedCase(h.row.case)),
    ];
    const shown = ordered.find((h) => h.row.reproduce) ?? ordered[0]!;
    return {
      ...g.key,
      cases: [...new Set(ordered.map((h) => h.row.case))],
      rows: ordered.map((h) => h.row),
      occurrences: g.occurrences,
      example: shown.example,
      reproduceCase: shown.row.case,
      reproduce: shown.row.reproduce,
    };
  });
}

/** "check/code at path" of a defect. */
export function defectTitle(d: Pick<Defect, 'check' | 'code' | 'path'>): string {
  return `${d.check}${d.code ? `/${d.code}` : ''}${d.path ? ` at ${d.path}` : ''}`;
}

/** "6 cases: default, other-language, gen-1-e5c569, …" (at most `max` named). */
export function defectCases(d: Pick<Defect, 'cases'>, max = 12): string {
  const n = d.cases.length;
  const named = d.cases.slice(0, max).join(', ');
  return `${n} case${n === 1 ? '' : 's'}: ${named}${n > max ? `, … and ${n - max} more` : ''}`;
}
