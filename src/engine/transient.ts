/**
 * Transient answers in a run: counted per operation × binding as the exchanges come (retries
 * included), and the judgement whether the target was healthy enough for a verdict: more than
 * --max-transient percent of the exchanges transient is an outage (exit 4), not a contract failure.
 * What is transient is src/transport/transient.ts's to say.
 */
import type { Diagnosis, Exchange, TransientCell, TransientSummary } from '../core/types.js';
import { transientOf } from '../transport/transient.js';

/** Default of --max-transient: a share of transient exchanges (percent) above which the target is unhealthy. */
export const DEFAULT_MAX_TRANSIENT = 20;

/** Diagnosis code of an unhealthy target (RunReport.transient.unhealthy). */
export const UNHEALTHY_TARGET = 'unhealthy_target';

/** Whether an exchange of a write left its outcome unknown: no answer, or only a transient one. */
export function ambiguousWrite(ex: Exchange): string | undefined {
  const kind = transientOf(ex);
  if (kind) return ex.response ? `a transient answer (${kind}, HTTP ${ex.response.status})` : `no answer (${kind})`;
  return undefined;
}

type TransientCounts = { exchanges: number; answers: number; retries: number; ambiguous: number };

/** The transient answers of one run, per operation × binding. */
export class TransientTally {
  readonly #cells = new Map<string, TransientCounts>();

  #cell(operation: string, binding: string): TransientCounts {
    const key = `${operation}\t${binding}`;
    let c = this.#cells.get(key);
    if (!c) this.#cells.set(key, (c = { exchanges: 0, answers: 0, retries: 0, ambiguous: 0 }));
    return c;
  }

  /** Count one exchange (its retries included); `write`: a state-changing call, ambiguous without a real answer. */
  note(operation: string, binding: string, ex: Exchange, write: boolean): void {
    if (ex.error?.code === 'not_sent') return;
    const c = this.#cell(operation, binding);
    const retried = ex.retried ?? [];
    const final = transientOf(ex) ? 1 : 0;
    c.exchanges += 1 + retried.length;
    c.retries += retried.length;
    c.answers += retried.filter((r) => r.kind !== 'connection_refused').length + final;
    if (write && final) c.ambiguous++;
  }

  /** The run's summary (undefined when nothing transient was met) and, when unhealthy, the diagnosis saying so. */
  summary(maxPercent: number): { transient?: TransientSummary; diagnosis?: Diagnosis } {
    const all = [...this.#cells.entries()].map(([k, c]) => ({
      operation: k.split('\t')[0]!,
      binding: k.split('\t')[1]!,
      ...c,
    }));
    const sum = (f: (c: TransientCounts) => number) => all.reduce((n, c) => n + f(c), 0);
    const exchanges = sum((c) => c.exchanges);
    const answers = sum((c) => c.answers);
    const ambiguous = sum((c) => c.ambiguous);
    if (answers === 0 && ambiguous === 0) return {};
    const share = exchanges === 0 ? 0 : (100 * answers) / exchanges;
    const unhealthy = share > maxPercent;
    const order = (b: string) => ['soap11', 'soap12', 'get', 'post'].indexOf(b);
    const cells: TransientCell[] = all
      .filter((c) => c.answers > 0 || c.ambiguous > 0)
      .sort((a, b) => a.operation.localeCompare(b.operation) || order(a.binding) - order(b.binding));
    const transient: TransientSummary = {
      exchanges,
      answers,
      retries: sum((c) => c.retries),
      ambiguous,
      maxPercent,
      unhealthy,
      cells,
    };
    if (!unhealthy) return { transient };
    return {
      transient,
      diagnosis: {
        level: 'error',
        code: UNHEALTHY_TARGET,
        message:
          `the target is unhealthy: ${answers} of ${exchanges} exchanges (${share.toFixed(1)}%) were `
          + `transient (gateway pages, dropped connections, time-outs), `
          + `more than --max-transient ${maxPercent}%: no verdict on the contract (an outage, exit 4); `
          + `try again when it is stable, or raise --max-transient`,
      },
    };
  }
}
