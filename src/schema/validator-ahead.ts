/**
 * libxml2 on small documents ahead of their turn, in a second validator process (the same
 * ./validator-child.js as validator-process.ts, started once and kept while documents come): the
 * engine checks one exchange at a time, and while it checks one on the main thread this process
 * parses and XSD-validates the next ones on the other core. Documents are pipelined (many in
 * flight, answered in order); a document's cost is bounded by its size (only small ones come here:
 * no budget, as in-process). Anything unexpected (the process cannot start, ends, or fails on a
 * document) answers undefined: the caller then reads the document in its own process, so a verdict
 * never depends on this process.
 *
 * Only where the compiled child is beside this module (dist/, the in-repo bundle): under a test
 * runner the sources are TypeScript and a tsx child would cost more than it saves.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LibxmlOutcome } from './types.js';
import type { ChildRequest, ChildResponse, ValidatorSetup } from './validator-process.js';
import { CHILD_IDLE_MS } from './validator-process.js';

const CHILD = import.meta.url.endsWith('.js') ? fileURLToPath(new URL('./validator-child.js', import.meta.url)) : undefined;
const AVAILABLE = CHILD !== undefined && existsSync(CHILD);

interface Ahead {
  readonly proc: ChildProcess;
  readonly pending: Map<number, (o: LibxmlOutcome | undefined) => void>;
  /** Set once the process has answered a document (it is up: waiting for it costs less than reading here). */
  answered: boolean;
}

let current: Ahead | undefined;
/** Set when the process failed: not started again in this process (the caller reads documents itself). */
let broken = false;
let nextId = 1;

function start(): Ahead {
  const proc = fork(CHILD!, [String(CHILD_IDLE_MS)], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const a: Ahead = { proc, pending: new Map(), answered: false };
  proc.on('message', (m: ChildResponse) => {
    const done = a.pending.get(m.id);
    if (!done) return;
    a.pending.delete(m.id);
    a.answered = true;
    done(m.outcome);
    hold(a);
  });
  proc.on('exit', () => {
    if (current === a) current = undefined;
    if (!a.answered) broken = true;
    for (const done of a.pending.values()) done(undefined);
    a.pending.clear();
  });
  proc.on('error', () => { /* reported through 'exit' */ });
  return a;
}

/** The process keeps this one alive only while it has documents. */
function hold(a: Ahead): void {
  if (a.pending.size > 0) {
    a.proc.ref();
    a.proc.channel?.ref();
  } else {
    a.proc.unref();
    a.proc.channel?.unref();
  }
}

/** Whether documents can be read ahead here (the compiled child exists and has not failed). */
export function aheadAvailable(): boolean {
  return AVAILABLE && !broken;
}

/** Whether the ahead process is up (it has answered a document). */
export function aheadReady(): boolean {
  return current?.answered === true;
}

/** libxml2's outcome for a small document from the ahead process; undefined when it could not give one. */
export function validateAhead(setup: ValidatorSetup, xml: string): Promise<LibxmlOutcome | undefined> {
  if (!aheadAvailable()) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let a: Ahead;
    try {
      a = current ??= start();
    } catch {
      broken = true;
      resolve(undefined);
      return;
    }
    const id = nextId++;
    a.pending.set(id, resolve);
    hold(a);
    try {
      a.proc.send({ id, setup, xml, small: true } satisfies ChildRequest);
    } catch {
      a.pending.delete(id);
      resolve(undefined);
    }
  });
}

/** End the ahead process now (tests). */
export function stopAheadProcess(): void {
  current?.proc.kill('SIGKILL');
}
