/**
 * Sequences over state: a property that holds over several calls, since the service keeps state.
 * A write is proven by what later reads return, on every binding; a cancellation by what the next
 * cancellation sees. A sequence is one unit of the plan (one shard, recorded and replayed in order),
 * its calls are sent one after another in a fixed order, and each state-changing step uses a booking
 * of the pools (./bookings.ts).
 *
 * - write-read: UpdateSpecialRequest through each binding (a booking each, at least two bookings),
 *   then GetSpecialRequest of every booking through every binding reads back exactly the text written
 *   (spaces, +, &, <, >, both quotes, Latin-1, characters outside the BMP, a text over 300 characters);
 *   a second write replaces the first; no booking reads another's text. A write every read binding
 *   misses is the write's fault (UpdateSpecialRequest, its binding); a read binding that misses what
 *   the others read is the read's (GetSpecialRequest, that binding).
 * - cancel, cancel-transfer: a read (AmendmentPriceRequest) shows each booking usable; then they are
 *   cancelled one after another, a binding each, and a last one besides (so every binding's
 *   cancellation is followed by another). A booking seen usable and never cancelled answered "already
 *   cancelled" is state leaking from the cancellation just before: that cancellation's binding is
 *   named. A second cancellation of a booking is never a failure, either way (the contract does not
 *   say which). Transfer bookings have no read: the first one cancelled is not judged, the others
 *   as above.
 */
import { requestFor, serviceUrlOf } from '../bindings/endpoint.js';
import type { Params } from '../bindings/types.js';
import { findOperation, type BindingId, type Operation } from '../contract/catalogue.js';
import { CheckContext } from '../checks/context.js';
import { coverageOf } from './coverage.js';
import { inBandError } from '../checks/support.js';
import { NOT_RUN_CHECK, SEQUENCE_CHECK } from '../core/rows.js';
import type { Exchange, Finding, ResultRow, SequenceStep } from '../core/types.js';
import { acceptance, ALREADY_CANCELLED } from '../equivalence/compare.js';
import { curlCommand } from '../transport/curl.js';
import { withBooking, type Booking, type PoolName } from './bookings.js';
import { retriesFor, skipReason, type RunPlan, type Unit } from './plan.js';
import { ambiguousWrite } from './transient.js';
import { RowMaker } from './rows.js';
import type { EngineDeps } from './run.js';

export type SequenceFamily = 'write-read' | 'cancel' | 'cancel-transfer' | 'unchanged';

/** A rejected call sent against a live booking: its case, its binding, and the text it wrote (UpdateSpecialRequest). */
export interface RejectedCall {
  readonly caseId: string;
  readonly binding: BindingId;
  readonly text?: string;
}

/** A sequence of the plan: its family, the pool its state-changing steps draw from, and how many bookings it needs. */
export interface SequenceSpec {
  readonly family: SequenceFamily;
  readonly pool: PoolName;
  readonly needs: number;
  /** The bookings handed to it (./plan.ts withBookings). */
  readonly bookings?: readonly Booking[];
  /** Parameters of the read that shows a booking usable (AmendmentPriceRequest's first case), booking aside. */
  readonly readParams?: Params;
  /** `unchanged`: the rejected calls sent against its booking. */
  readonly rejected?: readonly RejectedCall[];
}

/** Case id of each family's rows: stable, so expectations, diffs and comparisons key on it. */
export const SEQUENCE_CASE: Record<SequenceFamily, string> = {
  'write-read': 'seq-write-read', cancel: 'seq-cancel', 'cancel-transfer': 'seq-cancel-transfer', unchanged: 'seq-rejected-unchanged',
};

/**
 * The texts written: each holds what a binding's encoding can mangle (a test holds every one to it):
 * form and markup delimiters, Latin-1 and beyond the BMP, and each is longer than 64 characters, so
 * UTF-8 read as Latin-1 or a string cut short on one binding shows, whichever binding writes it. The
 * second write of a booking replaces the first with a long one.
 */
export const WRITE_TEXTS: readonly string[] = [
  'Late arrival + early check-in & "quiet" room <2nd floor>, l\'hôtel à Zürich: façade, Ångström, ñ 😀 𝄞',
  'Crib & extra pillows; 1+1 < 3 > 2; "twin" beds, it\'s fine: café crème, Øresund, ß 🛏️ 𐍈',
  'Vegetarian meals + gluten-free breakfast & a “view”: <sea> or \'garden\', naïve façade é à ü 🌊',
  'Wheelchair access & ground floor + parking; "no stairs" <please>, l\'accès: Ça va, Œuvre? 👍',
];

/** A long text (over 300 characters) for a booking's second write, different per booking. */
export function longText(i: number): string {
  const base = `Second request #${i + 1}: please replace the earlier one. Arrival after midnight + two children (ages 4 & 7) `
    + '<need a cot> and "adjoining" rooms, l\'étage supérieur if possible; allergies: nuts, lactose. '
    + 'Payment at the desk, invoice to the company «Société Générale Ltd»; 🚗 parking for one car, 🧳 early luggage drop. ';
  return `${base}${base}`.slice(0, 420);
}

/** The sequences of a plan: one per family whose state-changing operation the plan runs. */
export function sequenceUnits(plan: RunPlan): Unit[] {
  const n = plan.bindings.length;
  if (n === 0) return [];
  const out: Unit[] = [];
  const has = (name: string) => plan.operations.find((o) => o.name === name);
  const unit = (op: Operation, spec: SequenceSpec, description: string): Unit =>
    ({ op, caseId: SEQUENCE_CASE[spec.family], kind: 'valid', params: {}, description, sequence: spec });
  // A write is proven by a read, and a read of a written text needs the write: either operation brings
  // the sequence (GetSpecialRequest alone only where the write may be sent).
  const write = findOperation('UpdateSpecialRequest')!;
  const update = has('UpdateSpecialRequest') ?? (has('GetSpecialRequest') && !skipReason(plan, write) ? write : undefined);
  if (update) {
    out.push(unit(update, { family: 'write-read', pool: 'specialRequest', needs: Math.max(2, n) },
      'UpdateSpecialRequest through each binding, then GetSpecialRequest through every binding reads back exactly the text written; a second write replaces the first; each booking keeps its own text'));
  }
  const cancel = has('CancelBooking');
  if (cancel) {
    const first = plan.cases.get('AmendmentPriceRequest')?.[0]?.params;
    out.push(unit(cancel, { family: 'cancel', pool: 'cancel', needs: 2 * (n + 1), readParams: first ?? DEFAULT_READ },
      'AmendmentPriceRequest shows each booking usable; CancelBooking of each in turn, a binding each, is never answered "already cancelled"; a second cancellation may go either way'));
  }
  const transfer = has('CancelTransferBooking');
  if (transfer) {
    out.push(unit(transfer, { family: 'cancel-transfer', pool: 'transfers', needs: 2 * (n + 1) },
      'CancelTransferBooking of each transfer booking in turn, a binding each (bookings of one customer included), is never answered "already cancelled"; a second cancellation may go either way'));
  }
  return out;
}

const DEFAULT_READ: Params = { checkInDate: '2027-03-10T00:00:00', checkOutDate: '2027-03-17T00:00:00', language: 'en' };

/** One call of a sequence, as sent and read. */
interface Sent {
  readonly step: SequenceStep;
  readonly exchange: Exchange;
}

/** What a call's answer says: accepted (with the text read, for GetSpecialRequest), rejected (already cancelled?), or unreadable. */
interface Read {
  readonly kind: 'accepted' | 'rejected' | 'unknown';
  readonly how: string;
  readonly text?: string;
  readonly alreadyCancelled?: boolean;
  /** A write left without a real answer (./transient.ts ambiguousWrite): never re-sent, its effect read back where a read can tell. */
  readonly ambiguous?: boolean;
  /** The step's number. */
  readonly n?: number;
}


function readAnswer(plan: RunPlan, deps: EngineDeps, op: Operation, binding: BindingId, caseId: string, ex: Exchange): Read {
  if (!ex.response) return { kind: 'unknown', how: `no response (${ex.error?.code ?? 'unknown'})` };
  const ctx = new CheckContext({ op, binding, caseId, caseKind: 'valid', namespaces: plan.target.namespaces, exchange: ex, validator: deps.validator });
  const acc = acceptance(ctx);
  // The run's coverage (./coverage.ts) reads the answer while its tree lives.
  coverageOf(plan)?.answer(op, binding, ctx, acc);
  if (acc.kind === 'unknown') return { kind: 'unknown', how: acc.why };
  if (acc.kind === 'rejected') {
    const result = ctx.located().result;
    const e = result ? inBandError(result, op.resultType, ctx.ns) : undefined;
    return { kind: 'rejected', how: acc.how, alreadyCancelled: e !== undefined && ALREADY_CANCELLED.test(`${e.type} ${e.message}`) };
  }
  const result = ctx.located().result!;
  const text = result.children.find((c) => c.local === 'text')?.text;
  return { kind: 'accepted', how: 'accepted', ...(text !== undefined ? { text } : {}) };
}

const q = (s: string | undefined) => (s === undefined ? '(no text)' : JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s));

/** Runs one sequence unit: its calls in order, then its verdicts as rows (one per binding of each operation it judges). */
export async function runSequence(plan: RunPlan, deps: EngineDeps, unit: Unit): Promise<ResultRow[]> {
  const spec = unit.sequence!;
  const rows = new RowMaker(deps.redact ?? ((s: string) => s));
  const skipped = skipReason(plan, unit.op) ?? unsentReason(unit) ?? deps.stopped?.();
  if (skipped) return sequenceNotRun(plan, unit, skipped, rows);
  const bookings = spec.bookings ?? [];
  const sent: Sent[] = [];
  // What was learnt of an ambiguous write, said on its step (the state read back).
  const notes = new Map<number, string>();
  const note: Note = (n, text) => { if (n !== undefined) notes.set(n, text); };
  // Steps are numbered as they are started (reads of one phase go out together, in a fixed order).
  let started = 0;
  const call = async (op: Operation, binding: BindingId, params: Params, booking: Booking, text?: string): Promise<Read> => {
    const n = ++started;
    const withCredentials = { ...params, userName: plan.target.user, password: plan.target.password };
    const sentParams = op.mutates ? withBooking(op.name, withCredentials, booking) : withCredentials;
    const request = requestFor(plan.target, op, binding, sentParams);
    const exchange = await deps.transport.send(request, retriesFor(op), serviceUrlOf(plan.target, op, plan.bindings[0]!));
    if (exchange.error?.code !== 'not_sent') coverageOf(plan)?.request(op, binding, sentParams);
    deps.tally?.note(op.name, binding, exchange, op.mutates);
    const ambiguous = op.mutates ? ambiguousWrite(exchange) : undefined;
    const read: Read = ambiguous ? { kind: 'unknown', how: `ambiguous: ${ambiguous}, not re-sent`, ambiguous: true, n }
      : { ...readAnswer(plan, deps, op, binding, unit.caseId, exchange), n };
    const outcome = read.kind === 'accepted' && text === undefined && read.text !== undefined ? `read ${q(read.text)}` : read.how;
    const step: SequenceStep = { n, operation: op.name, binding, booking: booking.id, ...(text !== undefined ? { text } : {}), outcome };
    sent.push({ step, exchange });
    deps.onStep?.({ op, binding, n: step.n, params: sentParams, exchange });
    if (op.mutates) {
      deps.onBooking?.({ pool: booking.pool, id: booking.id, ...(booking.email ? { email: booking.email } : {}), operation: op.name, binding, case: unit.caseId,
        step: step.n, outcome: read.kind === 'unknown' ? `unknown (${read.how})` : read.kind === 'accepted' ? 'accepted' : `rejected (${read.how})` });
    }
    return read;
  };
  const verdicts = spec.family === 'write-read' ? await writeRead(plan, unit, bookings, call, note)
    : spec.family === 'unchanged' ? await unchanged(plan, unit, spec, bookings[0]!, call)
      : await cancellations(plan, unit, spec, bookings, call, note);
  sent.sort((a, b) => a.step.n - b.step.n);
  const script = reproduceScript(plan, sent);
  const steps = sent.map((s) => (notes.has(s.step.n) ? { ...s.step, outcome: `${s.step.outcome}; ${notes.get(s.step.n)}` } : s.step));
  return verdicts.map((v) => {
    const row = rows.row({ op: v.op, binding: v.binding, caseId: unit.caseId, reproduce: v.outcome.length ? script : '' }, SEQUENCE_CHECK,
      v.skipped ? { skipped: v.skipped } : v.outcome);
    // A failed row shows every step; so does one of a sequence that met an ambiguous write (the state it read back).
    return row.status === 'failed' || notes.size > 0 ? { ...row, steps: steps.map((s) => ({ ...s, ...(s.text !== undefined ? { text: rows.redact(s.text) } : {}), outcome: rows.redact(s.outcome) })) } : row;
  });
}

/** Why a sequence is not sent: a pool had too few bookings for it. */
function unsentReason(unit: Unit): string | undefined {
  return Object.values(unit.unsent ?? {})[0];
}

/** The bindings a family's rows are about: the state-changing operation's, and (write-read) GetSpecialRequest's. */
function rowKeys(plan: RunPlan, unit: Unit): { op: Operation; binding: BindingId }[] {
  const keys = plan.bindings.map((binding) => ({ op: unit.op, binding }));
  if (unit.sequence?.family === 'write-read') keys.push(...plan.bindings.map((binding) => ({ op: findOperation('GetSpecialRequest')!, binding })));
  return keys;
}

/** The rows of a sequence not sent, each saying why. */
export function sequenceNotRun(plan: RunPlan, unit: Unit, why: string, rows: RowMaker): ResultRow[] {
  return rowKeys(plan, unit).map(({ op, binding }) => rows.row({ op, binding, caseId: unit.caseId, reproduce: '' }, NOT_RUN_CHECK, { skipped: why }));
}

/** One row's verdict: findings (none: it held), or why it was not judged. */
interface Verdict {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly outcome: Finding[];
  readonly skipped?: string;
}

type Call = (op: Operation, binding: BindingId, params: Params, booking: Booking, text?: string) => Promise<Read>;
/** Adds what was learnt to a step's outcome. */
type Note = (n: number | undefined, text: string) => void;

async function writeRead(plan: RunPlan, unit: Unit, bookings: readonly Booking[], call: Call, note: Note): Promise<Verdict[]> {
  const update = unit.op;
  const get = findOperation('GetSpecialRequest')!;
  const bs = plan.bindings;
  const writers = bookings.map((booking, i) => ({ booking, binding: bs[i % bs.length]!, texts: [WRITE_TEXTS[i % WRITE_TEXTS.length]!, longText(i)] }));
  const allTexts = writers.flatMap((w) => w.texts);
  type Miss = { writer: number; phase: number; reader: BindingId; read: string | undefined; code: Finding['code'] };
  const misses: Miss[] = [];
  const readsOk = new Map<string, number>();
  const unusable = new Map<number, string>();
  const unread: string[] = [];
  // Writers with a write judged (answered, or ambiguous and read back as done), and why the others' were not.
  const judged = new Set<number>();
  const ambiguousWhy = new Map<number, string>();
  for (const phase of [0, 1]) {
    // This phase's ambiguous writes (never re-sent): their reads tell whether they took effect.
    const ambiguous = new Map<number, number | undefined>();
    for (const [i, w] of writers.entries()) {
      if (unusable.has(i)) continue;
      const r = await call(update, w.binding, { text: w.texts[phase]! }, w.booking, w.texts[phase]);
      if (r.ambiguous) ambiguous.set(i, r.n);
      else if (r.kind !== 'accepted') unusable.set(i, `UpdateSpecialRequest ${w.binding} of booking ${w.booking.id} answered ${r.how}`);
      else judged.add(i);
    }
    // The reads of a phase change nothing: they go out together (numbered in this order).
    const pending = writers.flatMap((w, i) => (unusable.has(i) ? [] : bs.map((reader) => ({ w, i, reader, read: call(get, reader, { bookingId: w.booking.id }, w.booking) }))));
    const reads: { w: (typeof writers)[number]; i: number; reader: BindingId; r: Read }[] = [];
    for (const x of pending) reads.push({ w: x.w, i: x.i, reader: x.reader, r: await x.read });
    // An ambiguous write took effect when a read shows its text: then it is judged as any write; else it is not judged.
    const tookEffect = new Set(reads.filter((x) => ambiguous.has(x.i) && x.r.kind === 'accepted' && x.r.text === x.w.texts[phase]).map((x) => x.i));
    for (const [i, n] of ambiguous) {
      const w = writers[i]!;
      if (tookEffect.has(i)) judged.add(i);
      else ambiguousWhy.set(i, `UpdateSpecialRequest ${w.binding} of booking ${w.booking.id} was ambiguous and did not take effect`);
      note(n, tookEffect.has(i) ? 'GetSpecialRequest read its text back: it took effect' : 'GetSpecialRequest did not read its text back: it did not take effect, not judged');
    }
    for (const { w, i, reader, r } of reads) {
      if (ambiguous.has(i) && !tookEffect.has(i)) continue;
      if (r.kind !== 'accepted') {
        unread.push(`GetSpecialRequest ${reader} of booking ${w.booking.id}: ${r.how}`);
        continue;
      }
      readsOk.set(`${i}/${phase}`, (readsOk.get(`${i}/${phase}`) ?? 0) + 1);
      const expected = w.texts[phase]!;
      if (r.text === expected) continue;
      const other = allTexts.indexOf(r.text ?? '\u0000');
      const code = phase === 1 && r.text === w.texts[0] ? 'write_not_replaced'
        : other >= 0 && !w.texts.includes(r.text!) ? 'write_crossed_bookings' : 'write_not_read_back';
      misses.push({ writer: i, phase, reader, read: r.text, code });
    }
  }
  // Whose fault: a write no read binding sees (of those that read) is the write's; a read binding that misses what others read is the read's.
  const writeFaults = new Map<BindingId, Finding[]>();
  const readFaults = new Map<BindingId, Finding[]>();
  const finding = (m: Miss, blame: 'write' | 'read', readers: readonly BindingId[]): Finding => {
    const w = writers[m.writer]!;
    const expected = w.texts[m.phase]!;
    const what = m.code === 'write_not_replaced' ? 'still reads the first text: the second write did not replace it'
      : m.code === 'write_crossed_bookings' ? 'reads another booking\'s text' : 'does not read back the text written';
    return {
      check: SEQUENCE_CHECK, code: m.code, path: `/${get.resultElement}/text`,
      message: `UpdateSpecialRequest ${w.binding} → GetSpecialRequest ${readers.join(', ')}: booking ${w.booking.id} (${m.phase === 0 ? 'first' : 'second'} write) ${what}: `
        + `wrote ${q(expected)}, read ${q(m.read)}${blame === 'write' ? ' (through every binding that read it: the write is at fault)' : ` (the other bindings read it back: the read through ${readers.join(', ')} is at fault)`}`,
      expected: expected, actual: m.read ?? '(no text)',
    };
  };
  const byWrite = new Map<string, Miss[]>();
  for (const m of misses) byWrite.set(`${m.writer}/${m.phase}`, [...(byWrite.get(`${m.writer}/${m.phase}`) ?? []), m]);
  for (const [key, ms] of byWrite) {
    // Another booking's text read for this one: the store holds that text under the other booking
    // (whose own reads show it), so the read that returns it here is at fault, whichever binding wrote.
    const crossed = ms.filter((m) => m.code === 'write_crossed_bookings');
    for (const m of crossed) readFaults.set(m.reader, [...(readFaults.get(m.reader) ?? []), finding(m, 'read', [m.reader])]);
    const rest = ms.filter((m) => m.code !== 'write_crossed_bookings');
    if (rest.length === 0) continue;
    // No binding read it back: the write is at fault. Some did: the reads that did not are.
    if (ms.length === readsOk.get(key)) {
      const w = writers[rest[0]!.writer]!;
      writeFaults.set(w.binding, [...(writeFaults.get(w.binding) ?? []), finding(rest[0]!, 'write', rest.map((m) => m.reader))]);
    } else {
      for (const m of rest) readFaults.set(m.reader, [...(readFaults.get(m.reader) ?? []), finding(m, 'read', [m.reader])]);
    }
  }
  const notUsable = [...unusable.values()];
  const why = (b: BindingId, forWrite: boolean): string | undefined => {
    const mine = forWrite ? writers.filter((w, i) => w.binding === b && !judged.has(i)) : [];
    if (forWrite && mine.length && mine.length === writers.filter((w) => w.binding === b).length) {
      const ambiguousOnly = mine.every((w) => !unusable.has(writers.indexOf(w)));
      if (ambiguousOnly) return `not judged: ${mine.map((w) => ambiguousWhy.get(writers.indexOf(w))).join('; ')}`;
      return `not judged: booking ${mine.map((w) => w.booking.id).join(', ')} not usable (${notUsable.join('; ')}): give bookings.specialRequest bookings that exist`;
    }
    if (!forWrite && judged.size === 0) return `not judged: no write was judged (${[...notUsable, ...ambiguousWhy.values()].join('; ')})`;
    return undefined;
  };
  return [
    ...bs.map((b) => ({ op: update, binding: b, outcome: writeFaults.get(b) ?? [], ...(!writeFaults.has(b) && why(b, true) ? { skipped: why(b, true) } : {}) })),
    ...bs.map((b) => ({ op: get, binding: b, outcome: readFaults.get(b) ?? [], ...(!readFaults.has(b) && why(b, false) ? { skipped: why(b, false) } : {}) })),
  ];
}

/**
 * The rejected calls of an operation changed nothing: their booking reads back through every
 * binding without any text a rejected write sent (each names its call: the finding is pinned on that
 * call's binding), and a booking a rejected cancellation or amendment was sent for is still usable
 * (AmendmentPriceRequest prices it; a cancelled one is refused). A booking that cannot be read at all
 * is not judged (the pool's problem, said in the row).
 */
async function unchanged(plan: RunPlan, unit: Unit, spec: SequenceSpec, booking: Booking, call: Call): Promise<Verdict[]> {
  const bs = plan.bindings;
  const op = unit.op;
  const rejected = spec.rejected ?? [];
  const sentThrough = [...new Set(rejected.map((r) => r.binding))];
  const names = (rs: readonly RejectedCall[]) => rs.map((r) => `${r.caseId} through ${r.binding}`).join(', ');
  const findings = new Map<BindingId, Finding[]>();
  const notJudged: string[] = [];
  const add = (b: BindingId, f: Finding) => findings.set(b, [...(findings.get(b) ?? []), f]);
  if (op.name === 'UpdateSpecialRequest') {
    const get = findOperation('GetSpecialRequest')!;
    const reads = bs.map((reader) => ({ reader, r: call(get, reader, { bookingId: booking.id }, booking) }));
    for (const { reader, r: pending } of reads) {
      const r = await pending;
      if (r.kind !== 'accepted') { notJudged.push(`GetSpecialRequest ${reader} of booking ${booking.id} answered ${r.how}`); continue; }
      const stored = rejected.find((x) => x.text !== undefined && x.text === r.text);
      if (!stored) continue;
      add(stored.binding, {
        check: SEQUENCE_CHECK, code: 'rejected_call_changed_state', path: `/${get.resultElement}/text`,
        message: `UpdateSpecialRequest ${stored.binding} (${stored.caseId}) was rejected, yet GetSpecialRequest ${reader} of booking ${booking.id} reads the text it sent: `
          + `a rejected call changed the booking`,
        expected: 'none of the texts the rejected calls sent', actual: r.text ?? '(no text)',
      });
    }
  } else {
    const read = findOperation('AmendmentPriceRequest')!;
    const reads = bs.map((reader) => ({ reader, r: call(read, reader, { ...spec.readParams, bookingID: booking.id }, booking) }));
    for (const { reader, r: pending } of reads) {
      const r = await pending;
      if (r.kind === 'accepted') continue;
      if (!r.alreadyCancelled) { notJudged.push(`AmendmentPriceRequest ${reader} of booking ${booking.id} answered ${r.how}`); continue; }
      // Which rejected call cancelled it cannot be told apart: every binding that sent one is named.
      for (const b of sentThrough) {
        add(b, {
          check: SEQUENCE_CHECK, code: 'rejected_call_changed_state', path: `/${read.resultElement}/Error`,
          message: `${op.name} was rejected (${names(rejected.filter((x) => x.binding === b))}, among ${rejected.length} rejected calls through ${sentThrough.join(', ')}), `
            + `yet AmendmentPriceRequest ${reader} now finds booking ${booking.id} cancelled (${r.how}): a rejected call changed the booking`,
          expected: `${booking.id} usable`, actual: r.how,
        });
      }
      break;
    }
  }
  return bs.map((b) => {
    if (findings.has(b)) return { op, binding: b, outcome: findings.get(b)! };
    if (notJudged.length === bs.length) return { op, binding: b, outcome: [], skipped: `not judged: ${notJudged.join('; ')}: give \`bookings.${spec.pool}\` bookings that exist` };
    return { op, binding: b, outcome: [] };
  });
}

async function cancellations(plan: RunPlan, unit: Unit, spec: SequenceSpec, bookings: readonly Booking[], call: Call, note: Note): Promise<Verdict[]> {
  const bs = plan.bindings;
  const op = unit.op;
  const transfers = spec.family === 'cancel-transfer';
  const kind = transfers ? 'transfer booking' : 'booking';
  const cancelParams = (b: Booking): Params => (transfers ? { language: 'en', email: b.email ?? '' } : { language: 'en' });
  // Each booking's usability, read first (transfer bookings have no read: not known).
  const usable = new Map<string, string | true>();
  if (!transfers) {
    const read = findOperation('AmendmentPriceRequest')!;
    const reads = bookings.map((b, k) => ({ b, r: call(read, bs[k % bs.length]!, { ...spec.readParams, bookingID: b.id }, b) }));
    for (const { b, r: pending } of reads) {
      const r = await pending;
      usable.set(b.id, r.kind === 'accepted' ? true : `AmendmentPriceRequest answered ${r.how}`);
    }
  }
  // Two rounds, the bindings in order and then reversed, each closed by one more cancellation, so
  // every binding's cancellation is followed by another's, and by a different binding's in each round.
  const half = Math.ceil(bookings.length / 2);
  const order: BindingId[] = [
    ...bookings.slice(0, half).map((_, k) => bs[k % bs.length]!),
    ...bookings.slice(half).map((_, k) => [...bs].reverse()[k % bs.length]!),
  ];
  interface Leak { readonly booking: Booking; readonly binding: BindingId; readonly before: { booking: Booking; binding: BindingId }; readonly how: string }
  const leaks: Leak[] = [];
  const judged = new Set<BindingId>();
  const cleanCanceller = new Set<BindingId>();
  const cleanObserver = new Set<BindingId>();
  let ambiguousSeen = false;
  const notJudged: string[] = [];
  let before: { booking: Booking; binding: BindingId } | undefined;
  for (const [k, b] of bookings.entries()) {
    const binding = order[k]!;
    const u = usable.get(b.id);
    if (u !== undefined && u !== true) {
      notJudged.push(`booking ${b.id} is not usable (${u})`);
      continue;
    }
    const r = await call(op, binding, cancelParams(b), b);
    if (r.ambiguous) {
      ambiguousSeen = true;
      // Whether the cancellation took effect, a second one tells (cancelling twice changes nothing more).
      const again = await call(op, binding, cancelParams(b), b);
      const known = again.alreadyCancelled || again.kind === 'accepted';
      note(r.n, again.alreadyCancelled ? 'a second cancellation answered "already cancelled": it took effect'
        : again.kind === 'accepted' ? 'a second cancellation was accepted: it had not taken effect' : `a second cancellation answered ${again.how}: the booking's state is unknown`);
      if (again.kind === 'accepted' && !again.alreadyCancelled) {
        judged.add(binding);
        if (before) judged.add(before.binding);
      }
      // Carry on from what is true: the booking is cancelled now (else the last one known cancelled stays the one before).
      if (known) before = { booking: b, binding };
      continue;
    }
    if (r.alreadyCancelled && before) leaks.push({ booking: b, binding, before, how: r.how });
    else if (r.alreadyCancelled) notJudged.push(`${kind} ${b.id} answered "already cancelled" before this sequence cancelled anything`);
    else if (r.kind === 'accepted') {
      judged.add(binding);
      if (before) {
        judged.add(before.binding);
        // Seen working: that binding's cancellation leaked nothing into this one, and this one read no leak.
        cleanCanceller.add(before.binding);
        cleanObserver.add(binding);
      }
    }
    if (r.kind === 'accepted') before = { booking: b, binding };
  }
  // A second cancellation of the first booking, through another binding: never a failure, either way.
  const first = bookings[0];
  if (first && (usable.get(first.id) ?? true) === true) await call(op, bs[1 % bs.length]!, cancelParams(first), first);

  // Whose fault is a leak: a binding that answers "already cancelled" whichever binding cancelled
  // before it is the answering one; one whose cancellation is followed by "already cancelled"
  // whichever binding answers next is the cancelling one; otherwise both are named.
  const observers = new Set(leaks.map((l) => l.binding));
  const cancellers = new Set(leaks.map((l) => l.before.binding));
  // When an ambiguous cancellation took the answers the leaks would have been told apart by (one
  // canceller, one observer left), a binding seen working in that role elsewhere in the sequence is
  // cleared. Only then: a leak that depends on the bookings (one customer's) leaves a binding
  // working for others, and a quiet run has the evidence of both rounds.
  const thin = ambiguousSeen && cancellers.size === 1 && observers.size === 1;
  const blame = (l: Leak): BindingId[] => observers.size === 1 && cancellers.size > 1 ? [l.binding]
    : cancellers.size === 1 && observers.size > 1 ? [l.before.binding]
      : thin && l.before.binding !== l.binding && cleanCanceller.has(l.before.binding) && !cleanObserver.has(l.binding) ? [l.binding]
        : thin && l.before.binding !== l.binding && cleanObserver.has(l.binding) && !cleanCanceller.has(l.before.binding) ? [l.before.binding]
          : [...new Set([l.before.binding, l.binding])];
  const findings = new Map<BindingId, Finding[]>();
  for (const l of leaks) {
    const f: Finding = {
      check: SEQUENCE_CHECK, code: 'cancellation_leaked', path: `/${op.resultElement}/Error`,
      message: `${op.name} ${l.before.binding} → ${op.name} ${l.binding}: ${kind} ${l.booking.id}${transfers ? '' : ', seen usable,'} was never cancelled by this run, `
        + `but answered "already cancelled" (${l.how}) right after ${l.before.booking.id} was cancelled through ${l.before.binding}: state leaks between bookings`
        + (transfers && l.before.booking.email === l.booking.email ? ` (both of customer ${l.booking.email})` : ''),
      expected: `${l.booking.id} cancellable`, actual: l.how,
    };
    for (const b of blame(l)) findings.set(b, [...(findings.get(b) ?? []), f]);
  }
  return bs.map((b) => {
    if (findings.has(b)) return { op, binding: b, outcome: findings.get(b)! };
    if (judged.has(b)) return { op, binding: b, outcome: [] };
    return { op, binding: b, outcome: [], skipped: `not judged: ${notJudged.length ? notJudged.join('; ') : 'no cancellation through this binding was followed by another'}`
      + `: give bookings.${spec.pool} ${kind}s that can still be cancelled` };
  });
}

/** The whole sequence as a script: each step's curl command, in order, under a comment naming it (the password as its variable). */
function reproduceScript(plan: RunPlan, sent: readonly Sent[]): string {
  return sent.map((s) => `# ${s.step.n}. ${s.step.operation} ${s.step.binding} (booking ${s.step.booking})\n${curlCommand(s.exchange.request, plan.target.password, plan.target.passwordVariable, plan.target.network)}`).join('\n');
}
