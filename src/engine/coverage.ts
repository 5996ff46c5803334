/**
 * Coverage (issue 34, section 2): what a run exercised of each operation × binding, and what it
 * could not check. Derived from the one type model (src/contract/model.ts) and the catalogue:
 * - request side: per parameter, the kinds of value sent (./generate.ts, valueKind: the one place a
 *   value gets its kind), and the values sent of a parameter named after an enumeration of the model;
 * - answer side: per path of the answer's type model (the result element, its fields, list items and
 *   attributes), whether any answer held it, and where the model allows it to be nil, empty or
 *   absent, whether those forms were seen;
 * - the outcomes seen (accepted; rejected, with the ErrorType or fault).
 *
 * Cheap and bounded: each answer is walked once while its tree is alive (checkExchange), marking bits
 * in a map per cell whose keys are the model's paths, so it never holds a tree and never grows past
 * the model; a cell whose every path and form has been seen walks nothing more. See docs/coverage.md.
 */
import type { BindingId, Operation, Param } from '../contract/catalogue.js';
import { effective, isSimple, MODEL, type ElementField, type TypeRef } from '../contract/model.js';
import type { CheckContext } from '../checks/context.js';
import type { Redactor } from '../core/redact.js';
import type { CoverageCell, CoverageParam, CoveragePath, CoverageReport, AnswerForm } from '../core/types.js';
import type { Acceptance } from '../equivalence/acceptance.js';
import { isBlank, isNil, type XElement } from '../xml/tree.js';
import { possibleKinds, valueKind, VALUE_KINDS, type ValueKind } from './generate.js';
import type { Params } from '../bindings/types.js';
import type { RunPlan } from './plan.js';
import { coverageReportOf, percentOf } from '../report/coverage.js';

const PRESENT_FORM = 1;
const NIL_FORM = 2;
const EMPTY_FORM = 4;
const ABSENT_FORM = 8;
const FORMS: readonly [AnswerForm, number][] = [
  ['nil', NIL_FORM],
  ['empty', EMPTY_FORM],
  ['absent', ABSENT_FORM],
];

/** One path of an operation's answer model, and the bits it can show (PRESENT_FORM and the forms the model allows). */
interface ModelPath {
  readonly path: string;
  readonly mask: number;
}

/** Deeper than any type of the model: a guard, should the model ever become recursive. */
const MAX_MODEL_DEPTH = 24;
const pathsCache = new Map<string, readonly ModelPath[]>();

/** The paths of an operation's answer model, in document order (docs/coverage.md names them). */
export function answerPaths(
  op: Pick<Operation, 'name' | 'resultElement' | 'resultType' | 'resultNillable'>,
): readonly ModelPath[] {
  const key = `${op.name}\u0000${op.resultElement}`;
  const cached = pathsCache.get(key);
  if (cached) return cached;
  const out: ModelPath[] = [];
  const walk = (path: string, type: TypeRef, depth: number) => {
    if (depth > MAX_MODEL_DEPTH || !isComplex(type)) return;
    const e = effective(type);
    for (const a of e.attributes)
      out.push({ path: `${path}/@${a.name}`, mask: PRESENT_FORM | (a.required ? 0 : ABSENT_FORM) });
    if (e.openContent !== undefined || e.text !== undefined) return;
    // A required field left out of a result carrying Error (an in-band rejection) is no form of it: only optional
    // fields may be absent.
    for (const f of e.fields) {
      if (f.kind !== 'element') continue;
      const p = `${path}/${f.name}`;
      out.push({ path: p, mask: PRESENT_FORM | formsOf(f) });
      if (f.list) {
        const ip = `${p}/${f.list.item}`;
        out.push({ path: ip, mask: PRESENT_FORM });
        walk(ip, f.list.type, depth + 1);
      } else {
        walk(p, f.type, depth + 1);
      }
    }
  };
  const root = `/${op.resultElement}`;
  out.push({ path: root, mask: PRESENT_FORM | (op.resultNillable ? NIL_FORM : 0) });
  walk(root, op.resultType, 0);
  pathsCache.set(key, out);
  return out;
}

function isComplex(t: TypeRef): boolean {
  return t !== 'anyType' && t !== 'list' && !isSimple(t) && MODEL.get(t)?.kind === 'complex';
}

/**
 * The forms besides a value the model allows a field: absent where optional, nil where nillable, empty for a list or a
 * string.
 */
function formsOf(f: ElementField): number {
  return (
    (f.min === 0 ? ABSENT_FORM : 0) | (f.nillable ? NIL_FORM : 0) | (f.list || f.type === 'string' ? EMPTY_FORM : 0)
  );
}

/** The values of the model's enumeration a parameter is named after (bookingType: BookingType), if any. */
export function enumOfParam(p: Param): readonly string[] | undefined {
  return ENUMS.get(p.name.toLowerCase());
}
/** The model's enumerations by their names in lower case (the model is fixed: read once, not per request). */
const ENUMS: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, readonly string[]>();
  for (const t of MODEL.values())
    if (t.kind === 'enum' && !m.has(t.name.toLowerCase())) m.set(t.name.toLowerCase(), t.values);
  return m;
})();

const countedParams = new WeakMap<Operation, readonly Param[]>();
/** The parameters coverage counts: all but the credentials (the credential cases are theirs). Once per operation. */
function counted(op: Operation): readonly Param[] {
  let ps = countedParams.get(op);
  if (!ps) countedParams.set(op, (ps = op.params.filter((p) => p.name !== 'userName' && p.name !== 'password')));
  return ps;
}

/**
 * At most this many distinct outcomes per cell (a target's ErrorTypes are its own): the rest are counted as "other".
 */
const MAX_OUTCOMES = 24;

class Cell {
  requests = 0;
  answers = 0;
  probeAnswers = 0;
  readonly outcomes = new Map<string, number>();
  readonly kinds = new Map<string, Set<ValueKind>>();
  readonly enumSent = new Map<string, Set<string>>();
  /** The model's paths of the operation's answer, and per path (by index) the bits seen. */
  readonly paths: readonly ModelPath[];
  readonly index: ReadonlyMap<string, number>;
  readonly bits: Uint8Array;
  /** Bits still to see: when none, answers are not walked any more. */
  missing: number;
  constructor(
    readonly op: Operation,
    readonly binding: BindingId,
  ) {
    this.paths = answerPaths(op);
    this.index = new Map(this.paths.map((p, i) => [p.path, i]));
    this.bits = new Uint8Array(this.paths.length);
    this.missing = this.paths.reduce((n, p) => n + bitCount(p.mask), 0);
  }

  /** Path number `i` (answerPaths' order; -1: none) showed `bit`. */
  mark(i: number, bit: number): void {
    if (i < 0) return;
    const had = this.bits[i]!;
    if (had & bit) return;
    this.bits[i] = had | bit;
    if (this.paths[i]!.mask & bit) this.missing--;
  }
}

function bitCount(n: number): number {
  let c = 0;
  for (let x = n; x; x &= x - 1) c++;
  return c;
}

/** What a run exercised, gathered exchange by exchange (see the file's header). */
export class CoverageRecorder {
  readonly #cells = new Map<string, Cell>();
  constructor(
    readonly plan: Pick<RunPlan, 'operations' | 'bindings' | 'target'>,
    readonly redact: Redactor = (s) => s,
  ) {
    for (const op of plan.operations)
      for (const b of plan.bindings) this.#cells.set(`${op.name}\u0000${b}`, new Cell(op, b));
  }

  #cell(op: Operation, b: BindingId): Cell | undefined {
    const c = this.#cells.get(`${op.name}\u0000${b}`);
    // The unknown-operation case borrows a name no operation has: it belongs to no cell.
    return c && c.op === op ? c : undefined;
  }

  /** A request of `op` was sent through `b` with these parameters: the kinds of its values. */
  request(op: Operation, b: BindingId, params: Params): void {
    const c = this.#cell(op, b);
    if (!c) return;
    c.requests++;
    for (const p of counted(op)) {
      const values = enumOfParam(p);
      const v = params[p.name];
      let set = c.kinds.get(p.name);
      if (!set) c.kinds.set(p.name, (set = new Set()));
      set.add(valueKind(p, v, values));
      if (values && v !== undefined && values.includes(v)) {
        let e = c.enumSent.get(p.name);
        if (!e) c.enumSent.set(p.name, (e = new Set()));
        e.add(v);
      }
    }
  }

  /**
   * An answer of `op` through `b`, its tree alive in `ctx`, and what it did (accepted, rejected); `probe`: to a probe
   * of a state-changing operation.
   */
  answer(op: Operation, b: BindingId, ctx: CheckContext, acc: Acceptance, probe = false): void {
    const c = this.#cell(op, b);
    if (!c) return;
    c.answers++;
    if (probe) c.probeAnswers++;
    const label = this.redact(
      acc.kind === 'accepted'
        ? 'accepted'
        : acc.kind === 'rejected'
          ? `rejected: ${acc.errorType !== undefined ? `ErrorType ${acc.errorType.slice(0, 80)}` : acc.how}`
          : `unknown: ${acc.why}`,
    );
    const key = c.outcomes.has(label) || c.outcomes.size < MAX_OUTCOMES ? label : 'other';
    c.outcomes.set(key, (c.outcomes.get(key) ?? 0) + 1);
    if (c.missing === 0) return;
    const result = ctx.located().result;
    if (result) visit(c, ctx.ns, result, op.resultType, `/${op.resultElement}`, 0, 0);
  }

  /** The coverage report: every cell of the plan, and the run's figure; `min` is --min-coverage's threshold. */
  report(min?: CoverageReport['min']): CoverageReport {
    return coverageReportOf([...this.#cells.values()].map(cellReport), COVERAGE_NOTE, min);
  }
}

const recorders = new WeakMap<RunPlan, CoverageRecorder>();

/** A new recorder for a run of `plan` (runPlan): every exchange of the run reports to it, sequences' calls included. */
export function startCoverage(plan: RunPlan, redact?: Redactor): CoverageRecorder {
  const r = new CoverageRecorder(plan, redact);
  recorders.set(plan, r);
  return r;
}

/** The recorder of the run of `plan` under way; none outside runPlan (record, compare). */
export function coverageOf(plan: RunPlan): CoverageRecorder | undefined {
  return recorders.get(plan);
}

/** What the figures leave out (docs/coverage.md). */
export const COVERAGE_NOTE =
  'the credentials (the credential cases are theirs); '
  + 'an xsi:type\'s extra fields and "not shown" content (no paths of the model)';

/**
 * What the walk needs of a complex type at a path, computed once per operation, path and type: the numbers of its
 * attributes' and fields' paths.
 */
interface Layout {
  readonly attributes: readonly { readonly name: string; readonly i: number }[];
  /** Element content not walked: simple content (a price) or content not shown. */
  readonly noFields: boolean;
  readonly fields: readonly {
    readonly f: ElementField;
    readonly path: string;
    readonly i: number;
    readonly itemPath?: string;
    readonly itemI?: number;
  }[];
  readonly byName: ReadonlyMap<string, number>;
}
/** Layouts by operation name, path and type: nested, so a walk's lookups build no key string per element. */
const layouts = new Map<string, Map<string, Map<string, Layout>>>();

function layoutOf(c: Cell, path: string, type: string): Layout {
  let byPath = layouts.get(c.op.name);
  if (!byPath) layouts.set(c.op.name, (byPath = new Map()));
  let byType = byPath.get(path);
  if (!byType) byPath.set(path, (byType = new Map()));
  let l = byType.get(type);
  if (l) return l;
  const e = effective(type);
  const at = (p: string) => c.index.get(p) ?? -1;
  const fields = e.fields.flatMap((f) => {
    if (f.kind !== 'element') return [];
    const p = `${path}/${f.name}`;
    return [
      {
        f,
        path: p,
        i: at(p),
        ...(f.list ? { itemPath: `${p}/${f.list.item}`, itemI: at(`${p}/${f.list.item}`) } : {}),
      },
    ];
  });
  l = {
    attributes: e.attributes.map((a) => ({ name: a.name, i: at(`${path}/@${a.name}`) })),
    noFields: e.openContent !== undefined || e.text !== undefined,
    fields,
    byName: new Map(fields.map((x, i) => [x.f.name, i])),
  };
  // Bounded by the model: one entry per path of every operation's answer (a few hundred).
  byType.set(type, l);
  return l;
}

/**
 * Walk one element of the answer (path number `i`) with its model type, marking what it holds (mirrors answerPaths).
 */
function visit(c: Cell, ns: string, el: XElement, type: TypeRef, path: string, i: number, depth: number): void {
  c.mark(i, PRESENT_FORM);
  if (isNil(el)) {
    c.mark(i, NIL_FORM);
    return;
  }
  if (type === 'string' && el.children.length === 0 && isBlank(el.text)) c.mark(i, EMPTY_FORM);
  if (depth > MAX_MODEL_DEPTH || !isComplex(type)) return;
  const l = layoutOf(c, path, type);
  for (const a of l.attributes)
    c.mark(a.i, el.attrs.some((x) => x.ns === '' && x.local === a.name) ? PRESENT_FORM : ABSENT_FORM);
  if (l.noFields) return;
  const held = new Uint8Array(l.fields.length);
  for (const k of el.children) {
    if (k.ns !== ns) continue;
    const at = l.byName.get(k.local);
    if (at === undefined) continue;
    held[at] = 1;
    const field = l.fields[at]!;
    const { f } = field;
    if (!f.list) {
      visit(c, ns, k, f.type, field.path, field.i, depth + 1);
      continue;
    }
    c.mark(field.i, PRESENT_FORM);
    if (isNil(k)) {
      c.mark(field.i, NIL_FORM);
      continue;
    }
    const { item, type: itemType } = f.list;
    let n = 0;
    for (const it of k.children) {
      if (item !== '*' && (it.local !== item || it.ns !== ns)) continue;
      n++;
      visit(c, ns, it, itemType, field.itemPath!, field.itemI!, depth + 1);
    }
    if (n === 0) c.mark(field.i, EMPTY_FORM);
  }
  for (let k = 0; k < held.length; k++) if (!held[k]) c.mark(l.fields[k]!.i, ABSENT_FORM);
}

function cellReport(c: Cell): CoverageCell {
  const paths: CoveragePath[] = [];
  const neverSeen: string[] = [];
  let seen = 0;
  c.paths.forEach(({ path, mask }, i) => {
    const bits = c.bits[i]!;
    const held = (bits & PRESENT_FORM) !== 0;
    if (held) seen++;
    else neverSeen.push(path);
    const forms = Object.fromEntries(
      FORMS.filter(([, bit]) => mask & bit).map(([name, bit]) => [name, (bits & bit) !== 0]),
    );
    paths.push({ path, seen: held, ...(Object.keys(forms).length ? { forms } : {}) });
  });
  let sent = 0;
  let total = 0;
  const params: CoverageParam[] = counted(c.op).map((p) => {
    const values = enumOfParam(p);
    const possible = possibleKinds(p, values);
    const kinds = c.kinds.get(p.name) ?? new Set();
    total += possible.length;
    sent += possible.filter((k) => kinds.has(k)).length;
    const enumSent = values ? values.filter((v) => c.enumSent.get(p.name)?.has(v)) : undefined;
    return {
      name: p.name,
      sent: VALUE_KINDS.filter((k) => kinds.has(k)),
      possible,
      ...(values ? { enumSent: enumSent!, enumNotSent: values.filter((v) => !enumSent!.includes(v)) } : {}),
    };
  });
  const answerPaths = { seen, total: c.paths.length };
  return {
    operation: c.op.name,
    binding: c.binding,
    percent: percentOf(seen + sent, c.paths.length + total),
    requests: c.requests,
    answers: c.answers,
    ...(c.probeAnswers ? { probeAnswers: c.probeAnswers } : {}),
    answerPaths,
    requestKinds: { sent, total },
    outcomes: Object.fromEntries([...c.outcomes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
    params,
    paths,
    neverSeen,
  };
}
