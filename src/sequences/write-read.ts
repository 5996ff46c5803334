/**
 * write-read: UpdateSpecialRequest through each binding (a booking each, at least two bookings), then
 * GetSpecialRequest of every booking through every binding reads back exactly the text written
 * (spaces, +, &, <, >, both quotes, Latin-1, characters outside the BMP, a text over 300 characters);
 * a second write replaces the first; no booking reads another's text. A write every read binding
 * misses is the write's fault (UpdateSpecialRequest, its binding); a read binding that misses what
 * the others read is the read's (GetSpecialRequest, that binding).
 */
import { findOperation } from '../contract/catalogue.js';
import { SEQUENCE_CHECK } from '../core/rows.js';
import type { BindingId } from '../contract/catalogue.js';
import type { Finding } from '../core/types.js';
import { q } from './runner.js';
import type { FamilyRun, PlanView, PlannedSequence, Read, SequenceFamily, SequenceVerdict } from './types.js';

/**
 * The texts written: each holds what a binding's encoding can mangle (a test holds every one to it):
 * form and markup delimiters, Latin-1 and beyond the BMP, and each is longer than 64 characters, so
 * UTF-8 read as Latin-1 or a string cut short on one binding shows, whichever binding writes it. The
 * second write of a booking replaces the first with a long one.
 */
export const WRITE_TEXTS: readonly string[] = [
  'Late arrival + early check-in & "quiet" room <2nd floor>, l\'hôtel à Zürich: façade, Ångström, ñ 😀 𝄞',
  'Crib & extra pillows; 1+1 < 3 > 2; "twin" beds, it\'s fine: café crème, Øresund, ß 🛏️ 𐍈',
  "Vegetarian meals + gluten-free breakfast & a “view”: <sea> or 'garden', naïve façade é à ü 🌊",
  'Wheelchair access & ground floor + parking; "no stairs" <please>, l\'accès: Ça va, Œuvre? 👍',
];

/** A long text (over 300 characters) for a booking's second write, different per booking. */
export function longText(i: number): string {
  const base =
    `Second request #${i + 1}: please replace the earlier one. Arrival after midnight + two children (ages 4 & 7) `
    + '<need a cot> and "adjoining" rooms, l\'étage supérieur if possible; allergies: nuts, lactose. '
    + 'Payment at the desk, invoice to the company «Société Générale Ltd»; 🚗 parking for one car, 🧳 early '
    + 'luggage drop. ';
  return `${base}${base}`.slice(0, 420);
}

/** One sequence when the plan runs UpdateSpecialRequest, or GetSpecialRequest where the write may be sent. */
function plan(p: PlanView): PlannedSequence[] {
  // A write is proven by a read, and a read of a written text needs the write: either operation brings
  // the sequence (GetSpecialRequest alone only where the write may be sent).
  const write = findOperation('UpdateSpecialRequest')!;
  const update = p.has('UpdateSpecialRequest') ?? (p.has('GetSpecialRequest') && p.maySend(write) ? write : undefined);
  if (!update) return [];
  return [
    {
      op: update,
      spec: { family: 'write-read', pool: 'specialRequest', needs: Math.max(2, p.bindings.length) },
      description:
        'UpdateSpecialRequest through each binding, then GetSpecialRequest through every binding reads '
        + 'back exactly the text written; a second write replaces the first; each booking keeps its own '
        + 'text',
    },
  ];
}

async function writeRead({ bindings: bs, op: update, bookings, call, note }: FamilyRun): Promise<SequenceVerdict[]> {
  const get = findOperation('GetSpecialRequest')!;
  const writers = bookings.map((booking, i) => ({
    booking,
    binding: bs[i % bs.length]!,
    texts: [WRITE_TEXTS[i % WRITE_TEXTS.length]!, longText(i)],
  }));
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
      else if (r.kind !== 'accepted')
        unusable.set(i, `UpdateSpecialRequest ${w.binding} of booking ${w.booking.id} answered ${r.how}`);
      else judged.add(i);
    }
    // The reads of a phase change nothing: they go out together (numbered in this order).
    const pending = writers.flatMap((w, i) =>
      unusable.has(i)
        ? []
        : bs.map((reader) => ({ w, i, reader, read: call(get, reader, { bookingId: w.booking.id }, w.booking) })),
    );
    const reads: { w: (typeof writers)[number]; i: number; reader: BindingId; r: Read }[] = [];
    for (const x of pending) reads.push({ w: x.w, i: x.i, reader: x.reader, r: await x.read });
    // An ambiguous write took effect when a read shows its text: then it is judged as any write; else it is not judged.
    const tookEffect = new Set(
      reads
        .filter((x) => ambiguous.has(x.i) && x.r.kind === 'accepted' && x.r.text === x.w.texts[phase])
        .map((x) => x.i),
    );
    for (const [i, n] of ambiguous) {
      const w = writers[i]!;
      if (tookEffect.has(i)) judged.add(i);
      else
        ambiguousWhy.set(
          i,
          `UpdateSpecialRequest ${w.binding} of booking ${w.booking.id} was ambiguous and did not take effect`,
        );
      note(
        n,
        tookEffect.has(i)
          ? 'GetSpecialRequest read its text back: it took effect'
          : 'GetSpecialRequest did not read its text back: it did not take effect, not judged',
      );
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
      const code =
        phase === 1 && r.text === w.texts[0]
          ? 'write_not_replaced'
          : other >= 0 && !w.texts.includes(r.text!)
            ? 'write_crossed_bookings'
            : 'write_not_read_back';
      misses.push({ writer: i, phase, reader, read: r.text, code });
    }
  }
  // Whose fault: a write no read binding sees (of those that read) is the write's; a read binding that misses what
  // others read is the read's.
  const writeFaults = new Map<BindingId, Finding[]>();
  const readFaults = new Map<BindingId, Finding[]>();
  const finding = (m: Miss, blame: 'write' | 'read', readers: readonly BindingId[]): Finding => {
    const w = writers[m.writer]!;
    const expected = w.texts[m.phase]!;
    const what =
      m.code === 'write_not_replaced'
        ? 'still reads the first text: the second write did not replace it'
        : m.code === 'write_crossed_bookings'
          ? "reads another booking's text"
          : 'does not read back the text written';
    return {
      check: SEQUENCE_CHECK,
      code: m.code,
      path: `/${get.resultElement}/text`,
      message:
        `UpdateSpecialRequest ${w.binding} → GetSpecialRequest ${readers.join(', ')}: `
        + `booking ${w.booking.id} (${m.phase === 0 ? 'first' : 'second'} write) ${what}: `
        + `wrote ${q(expected)}, `
        + `read ${q(m.read)}${blame === 'write' ? ' (through every binding that read it: the write is at fault)' : ` (the other bindings read it back: the read through ${readers.join(', ')} is at fault)`}`,
      expected: expected,
      actual: m.read ?? '(no text)',
    };
  };
  const byWrite = new Map<string, Miss[]>();
  for (const m of misses) byWrite.set(`${m.writer}/${m.phase}`, [...(byWrite.get(`${m.writer}/${m.phase}`) ?? []), m]);
  for (const [key, ms] of byWrite) {
    // Another booking's text read for this one: the store holds that text under the other booking
    // (whose own reads show it), so the read that returns it here is at fault, whichever binding wrote.
    const crossed = ms.filter((m) => m.code === 'write_crossed_bookings');
    for (const m of crossed)
      readFaults.set(m.reader, [...(readFaults.get(m.reader) ?? []), finding(m, 'read', [m.reader])]);
    const rest = ms.filter((m) => m.code !== 'write_crossed_bookings');
    if (rest.length === 0) continue;
    // No binding read it back: the write is at fault. Some did: the reads that did not are.
    if (ms.length === readsOk.get(key)) {
      const w = writers[rest[0]!.writer]!;
      writeFaults.set(w.binding, [
        ...(writeFaults.get(w.binding) ?? []),
        finding(
          rest[0]!,
          'write',
          rest.map((m) => m.reader),
        ),
      ]);
    } else {
      for (const m of rest)
        readFaults.set(m.reader, [...(readFaults.get(m.reader) ?? []), finding(m, 'read', [m.reader])]);
    }
  }
  const notUsable = [...unusable.values()];
  const why = (b: BindingId, forWrite: boolean): string | undefined => {
    const mine = forWrite ? writers.filter((w, i) => w.binding === b && !judged.has(i)) : [];
    if (forWrite && mine.length && mine.length === writers.filter((w) => w.binding === b).length) {
      const ambiguousOnly = mine.every((w) => !unusable.has(writers.indexOf(w)));
      if (ambiguousOnly) return `not judged: ${mine.map((w) => ambiguousWhy.get(writers.indexOf(w))).join('; ')}`;
      return (
        `not judged: booking ${mine.map((w) => w.booking.id).join(', ')} not usable `
        + `(${notUsable.join('; ')}): give bookings.specialRequest bookings that exist`
      );
    }
    if (!forWrite && judged.size === 0)
      return `not judged: no write was judged (${[...notUsable, ...ambiguousWhy.values()].join('; ')})`;
    return undefined;
  };
  return [
    ...bs.map((b) => ({
      op: update,
      binding: b,
      outcome: writeFaults.get(b) ?? [],
      ...(!writeFaults.has(b) && why(b, true) ? { skipped: why(b, true) } : {}),
    })),
    ...bs.map((b) => ({
      op: get,
      binding: b,
      outcome: readFaults.get(b) ?? [],
      ...(!readFaults.has(b) && why(b, false) ? { skipped: why(b, false) } : {}),
    })),
  ];
}

/** The write-read family. */
export const writeReadFamily: SequenceFamily = {
  name: 'write-read',
  caseId: 'seq-write-read',
  plan,
  alsoJudges: ['GetSpecialRequest'],
  run: writeRead,
};
