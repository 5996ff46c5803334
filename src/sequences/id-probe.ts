/**
 * id-probe: one identifier through four bindings is one booking (issue 40). For an operation that
 * uses its booking up (CancelBooking, CancelTransferBooking: src/contract/state-rules.ts `consumes`),
 * one identifier of each generated kind (engine/generate.ts idKinds: zero, with separators, long,
 * empty; a transfer's email beyond ASCII, empty) is sent through every binding, one call after
 * another, and the calls are judged together, as one booking's:
 *
 * - every binding refusing alike (compared by value, as the comparison of probes does: the in-band
 *   message with the id sent set aside) is agreement: a service where only real bookings exist
 *   answers "not found" on every binding, and nothing is spent;
 * - on a service where the id exists (any id on first touch, blank included), the first call is
 *   accepted and every later one must answer as for a used booking ("already cancelled");
 * - anything else has one binding at fault: the one whose answer, set aside, leaves the rest one
 *   of the two patterns above. A second acceptance of the identifier, or "not found" right after
 *   another binding used it up, is `id_read_otherwise`: that binding read another identifier (cut
 *   short, decoded with another charset); refusals that differ with no acceptance are compared as
 *   the probes' answers are (`rejection_differs`, `error_type_differs`, `error_message_differs`).
 *
 * The order of the bindings. A binding that reads another identifier is pinned only when it is not
 * the first to answer: first, it uses up its own reading of the id, and the next binding then finds
 * the real one live and accepts it, the same two acceptances as when the second binding is the one
 * at fault. So each kind starts with another binding (kind k with the k-th binding, rotating), and
 * where a sequence leaves exactly the first two bindings in doubt, a witness sequence sends a second
 * value of the same kind with those two last: whichever of them accepts after another binding
 * accepted is the one at fault. A kind with one value only (empty) has no witness: both are named.
 * A correct service never sees the witness (nothing is in doubt there), so it costs nothing.
 *
 * Its calls name no booking of a pool (ProbeBooking): the plan takes none for it. It runs in a stage
 * of its own after the probes and real calls (engine/plan.ts), so no other call of the run names one
 * of its identifiers meanwhile (a blank id is one booking for every operation that names one).
 */
import type { Params } from '../bindings/types.js';
import type { BindingId } from '../contract/catalogue.js';
import { stateRuleOf } from '../contract/state-rules.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { Finding } from '../core/types.js';
import { q } from './runner.js';
import type {
  FamilyRun,
  IdProbe,
  PlanView,
  PlannedSequence,
  ProbeBooking,
  Read,
  SequenceFamily,
  SequenceVerdict,
} from './types.js';

/** The use-once operations it probes. */
const PROBED_OPERATIONS = ['CancelBooking', 'CancelTransferBooking'] as const;

/** One sequence per use-once operation the plan runs (and may send). */
function plan(p: PlanView): PlannedSequence[] {
  return PROBED_OPERATIONS.flatMap((name) => {
    const op = p.has(name);
    const ids = op && p.maySend(op) ? p.idProbes?.(name) : undefined;
    if (!op || !ids || ids.probes.length === 0) return [];
    return [
      {
        op,
        stage: 'id-probes',
        spec: { family: 'id-probe', pool: ids.pool, needs: 0, probes: ids.probes },
        description:
          `one ${stateRuleOf(name)!.idParam} of each generated kind `
          + `(${ids.probes.map((x) => x.kind).join(', ')}) through every binding, one call after another: `
          + 'all refuse it alike, or the first accepts it and every later one answers "already '
          + 'cancelled"; no booking is spent',
      },
    ];
  });
}

/**
 * What an answer is, for the judgement: accepted, used ("already cancelled"), another refusal (by value), or unknown.
 */
type Answer = { readonly b: BindingId; readonly r: Read; readonly cls: string };

/**
 * The class of an answer: A (accepted), U (already cancelled), R:… (a refusal, by value: how, and the message with the
 * id sent set aside), X (unknown).
 */
function classOf(r: Read, id: string): string {
  if (r.kind === 'unknown') return 'X';
  if (r.kind === 'accepted') return 'A';
  if (r.alreadyCancelled) return 'U';
  const m = r.errorMessage ?? '';
  return `R:${r.how}:${id.trim() !== '' ? m.split(id.trim()).join('{id}') : m}`;
}

/**
 * The two patterns of one booking's calls: all refusing alike (any number), or the first accepted and every later one
 * used.
 */
function oneBooking(cls: readonly string[]): boolean {
  if (cls.length <= 1) return true;
  if (cls[0] === 'A') return cls.slice(1).every((c) => c === 'U');
  return cls.every((c) => c === cls[0]);
}

/**
 * The bindings whose answer, set aside, leaves the others one booking's. An identifier of this run is
 * fresh (no other call of it names one): where setting one answer aside leaves the others one fresh
 * booking's (accepted first, or never found) and setting another aside leaves them a used booking's
 * (all "already cancelled"), the first is the one at fault (a binding answering "already cancelled"
 * for an id nobody used, then another accepting it: the first leaked, the second did not read another id).
 */
function suspects(answers: readonly Answer[]): BindingId[] {
  const rest = (a: Answer) => answers.filter((x) => x !== a).map((x) => x.cls);
  const off = answers.filter((a) => oneBooking(rest(a)));
  const fresh = off.filter((a) => !rest(a).every((c) => c === 'U'));
  return (fresh.length > 0 ? fresh : off).map((a) => a.b);
}

/** How an answer reads in a finding. */
const shownRead = (r: Read) =>
  r.kind === 'accepted'
    ? 'accepted'
    : r.alreadyCancelled
      ? `"already cancelled" (${r.how})`
      : `${r.how}${r.errorMessage ? ` ${q(r.errorMessage)}` : ''}`;

/** The calls of one identifier through the bindings in `order`, one after another. */
async function through(
  { op, call }: FamilyRun,
  order: readonly BindingId[],
  params: Params,
  pool: ProbeBooking['pool'],
): Promise<Answer[]> {
  const idParam = stateRuleOf(op.name)!.idParam;
  const id = params[idParam] ?? '';
  const booking: ProbeBooking = {
    pool,
    id,
    ...(params.email !== undefined ? { email: params.email } : {}),
    probe: true,
  };
  const out: Answer[] = [];
  for (const b of order) {
    const r = await call(op, b, params, booking);
    out.push({ b, r, cls: classOf(r, id) });
  }
  return out;
}

/** The findings of a sequence whose answers are not one booking's, on the bindings named. */
function findingsOf(
  run: FamilyRun,
  probe: IdProbe,
  answers: readonly Answer[],
  blamed: readonly BindingId[],
  doubt: boolean,
): Map<BindingId, Finding> {
  const { op } = run;
  const idParam = stateRuleOf(op.name)!.idParam;
  const what =
    `${idParam} ${q(probe.params[idParam])}${probe.params.email !== undefined && op.name === 'CancelTransferBooking' ? ` with email ${q(probe.params.email)}` : ''} `
    + `(${probe.kind})`;
  const steps = answers.map((a) => `${a.b}: ${shownRead(a.r)}`).join('; ');
  const firstA = answers.findIndex((a) => a.cls === 'A');
  const out = new Map<BindingId, Finding>();
  for (const b of blamed) {
    const k = answers.findIndex((a) => a.b === b);
    const a = answers[k]!;
    const rest = answers.filter((x) => x.b !== b);
    const used = firstA >= 0 && firstA !== k;
    const code =
      a.cls === 'A' || used || a.cls === 'U' || rest.some((x) => x.cls === 'A')
        ? 'id_read_otherwise'
        : rest.every((x) => x.r.how === a.r.how)
          ? 'error_message_differs'
          : a.r.how.startsWith('in-band') && rest.every((x) => x.r.how.startsWith('in-band'))
            ? 'error_type_differs'
            : 'rejection_differs';
    const why =
      a.cls === 'A' && used
        ? `accepted it after ${answers[firstA]!.b} had used it up: it read another identifier`
        : a.cls === 'A'
          ? 'accepted it where every other binding refused it alike: it read another identifier'
          : used
            ? `answered ${shownRead(a.r)} right after ${answers[firstA]!.b} had used it up, where a used `
              + `booking is "already cancelled": it read another identifier`
            : 'answered otherwise than every other binding, which refused it alike';
    out.set(b, {
      check: SEQUENCE_CHECK,
      code,
      path: `/${op.resultElement}`,
      message:
        `${op.name} of one ${what} through every binding, one after another (${steps}): ${b} ${why}`
        + (doubt
          ? ` (or ${blamed.filter((x) => x !== b).join(', ')} did: which one, a second value of this kind `
            + `could not tell)`
          : ''),
      expected:
        'every binding refusing it alike, or the first accepting it and every later one answering "already cancelled"',
      actual: `${b}: ${shownRead(a.r)}`,
    });
  }
  return out;
}

/** The sequences of every kind, and the verdicts of each binding. */
async function run(r: FamilyRun): Promise<SequenceVerdict[]> {
  const { bindings: bs, op, spec } = r;
  const findings = new Map<BindingId, Finding[]>();
  const judged = new Set<BindingId>();
  const notJudged: string[] = [];
  for (const [k, probe] of (spec.probes ?? []).entries()) {
    // Kind k starts with the k-th binding (see the file's comment).
    const order = bs.map((_, i) => bs[(i + k) % bs.length]!);
    const answers = await through(r, order, probe.params, spec.pool);
    const unknown = answers.filter((a) => a.cls === 'X');
    if (unknown.length > 0) {
      // An answer that says nothing (no response, a write left ambiguous) leaves the booking's state unknown.
      notJudged.push(`${probe.kind}: ${unknown.map((a) => `${a.b} ${a.r.how}`).join(', ')}`);
      continue;
    }
    for (const b of bs) judged.add(b);
    if (oneBooking(answers.map((a) => a.cls))) continue;
    let blamed = suspects(answers);
    let doubt = false;
    if (blamed.length > 1 && probe.witness && bs.length > blamed.length) {
      // The bindings in doubt last, after the others: whichever of them answers as for another id is it.
      const witness = await through(
        r,
        [...order.filter((b) => !blamed.includes(b)), ...order.filter((b) => blamed.includes(b))],
        probe.witness,
        spec.pool,
      );
      const again =
        witness.some((a) => a.cls === 'X') || oneBooking(witness.map((a) => a.cls))
          ? blamed
          : suspects(witness).filter((b) => blamed.includes(b));
      if (again.length > 0) blamed = again;
    }
    if (blamed.length === 0) {
      // More than one binding off: every one answering otherwise than one booking's calls would.
      const firstA = answers.findIndex((a) => a.cls === 'A');
      const groups = new Map<string, number>();
      for (const a of answers) groups.set(a.cls, (groups.get(a.cls) ?? 0) + 1);
      const major = [...groups].sort((x, y) => y[1] - x[1])[0]![0];
      blamed = answers.filter((a, i) => (firstA >= 0 ? i > firstA && a.cls !== 'U' : a.cls !== major)).map((a) => a.b);
    }
    doubt = blamed.length > 1 && suspects(answers).length > 1;
    for (const [b, f] of findingsOf(r, probe, answers, blamed, doubt)) findings.set(b, [...(findings.get(b) ?? []), f]);
  }
  return bs.map((b) =>
    findings.has(b)
      ? { op, binding: b, outcome: findings.get(b)! }
      : judged.has(b)
        ? { op, binding: b, outcome: [] }
        : {
            op,
            binding: b,
            outcome: [],
            skipped:
              `not `
              + `judged: ${notJudged.length ? `an answer said nothing of the identifier's state (${notJudged.join('; ')})` : 'no identifier probed'}`,
          },
  );
}

/** The id-probe family. */
export const idProbeFamily: SequenceFamily = { name: 'id-probe', caseId: 'seq-id-probe', plan, run };
