/**
 * The fault catalogue (./faults.ts) read: a fault by name (an unknown one refused with "did you mean"),
 * the bindings and operation it applies to, one line per fault for `--list-faults`, and the problems
 * of the catalogue itself (a test keeps them none).
 */
import { BINDINGS, findOperation, type BindingId } from '../contract/catalogue.js';
import { UnknownFaultError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { Fault } from './fault-types.js';
import { FAULTS } from './faults.js';

export { UnknownFaultError };

const BY_NAME = new Map(FAULTS.map((f) => [f.name, f]));

/**
 * The catalogue's fault of that name, if any (checks/soap-fault.ts findFault is another thing: the SOAP Fault in a
 * body).
 */
export function faultNamed(name: string): Fault | undefined {
  return BY_NAME.get(name);
}

/** Faults by name (a fault object is taken as it is); an unknown name throws UnknownFaultError. */
export function resolveFaults(names: readonly (string | Fault)[] | undefined): Fault[] {
  const out: Fault[] = [];
  for (const n of names ?? []) {
    const f = typeof n === 'string' ? BY_NAME.get(n) : n;
    if (!f) {
      throw new UnknownFaultError(
        `unknown fault "${String(n)}"${didYouMean(
          String(n),
          FAULTS.map((x) => x.name),
        )}: list the ${FAULTS.length} fault names with npm run mock -- --list-faults`,
      );
    }
    if (!out.includes(f)) out.push(f);
  }
  return out;
}

/** The bindings a fault applies to, spelt out. */
export function faultBindings(f: Fault): readonly BindingId[] {
  return f.bindings === 'all' ? BINDINGS : f.bindings;
}

/** Whether the fault applies to that operation on that binding. */
export function faultApplies(f: Fault, op: string, binding: BindingId): boolean {
  return f.operation === op && faultBindings(f).includes(binding);
}

/** One line per fault: name, operation, bindings, description (for --list-faults). */
export function listFaults(faults: readonly Fault[] = FAULTS): string[] {
  const w = Math.max(...faults.map((f) => f.name.length));
  const ow = Math.max(...faults.map((f) => f.operation.length));
  const bw = Math.max(...faults.map((f) => faultBindings(f).join(',').length));
  return faults.map(
    (f) =>
      `${f.name.padEnd(w)}  ${f.operation.padEnd(ow)} `
      + ` ${(f.bindings === 'all' ? 'all' : f.bindings.join(',')).padEnd(bw)}  ${f.description}`
      + (f.stateful
        ? ` [stateful: shows ${f.showsOnFirstCall ? 'from the first call' : 'in a sequence'}, `
          + `in ${f.showsIn?.join(', ')}]`
        : '')
      + (f.undetectable ? ` [undetectable: ${f.undetectable}]` : '')
      + (f.needsKnownBookings ? ` [shows with --bookings: ${f.needsKnownBookings}]` : ''),
  );
}

/** Problems of the catalogue itself (a test keeps it empty): unknown operations or bindings, duplicates, no hook. */
export function catalogueProblems(faults: readonly Fault[] = FAULTS): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of faults) {
    if (seen.has(f.name)) out.push(`${f.name}: duplicate name`);
    seen.add(f.name);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(f.name)) out.push(`${f.name}: not kebab-case`);
    if (!findOperation(f.operation)) out.push(`${f.name}: no operation ${f.operation}`);
    if (f.bindings !== 'all' && (f.bindings.length === 0 || f.bindings.some((b) => !BINDINGS.includes(b))))
      out.push(`${f.name}: bad bindings`);
    if (Object.values(f.apply).every((h) => h === undefined)) out.push(`${f.name}: no hook`);
    if (!f.description.trim()) out.push(`${f.name}: no description`);
    if ((f.apply.state !== undefined) !== (f.stateful === true))
      out.push(`${f.name}: a state hook and stateful: true go together`);
    if (f.showsOnFirstCall && !f.stateful) out.push(`${f.name}: showsOnFirstCall without stateful`);
    if (f.stateful && !f.showsIn?.length) out.push(`${f.name}: a stateful fault says where it shows (showsIn)`);
    for (const o of f.showsIn ?? []) if (!findOperation(o)) out.push(`${f.name}: shows in no operation ${o}`);
    for (const o of f.alsoRun ?? []) if (!findOperation(o)) out.push(`${f.name}: needs no operation ${o}`);
    if (f.undetectable !== undefined && !f.undetectable.trim()) out.push(`${f.name}: undetectable without a reason`);
  }
  return out;
}
