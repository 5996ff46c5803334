/**
 * The validator process (src/schema/validator-process.ts): reads documents sent over the IPC channel
 * with the same validator as the parent and sends back libxml2's outcome, one at a time. Exits when
 * the parent goes away or after the idle time given as its argument.
 */
import type { DocumentValidator } from './types.js';
import { createDocumentValidator } from './xsd-validator.js';
import type { ChildRequest, ChildResponse, ValidatorSetup } from './validator-process.js';
import { collectGarbage } from '../core/memory.js';

const idleMs = Number(process.argv[2] ?? 60_000);
/** Resident memory past which the process retires after a document (the parent may give another). */
const RSS_LIMIT = Number(process.argv[3] ?? 192 * 1024 * 1024);
const validators = new Map<string, DocumentValidator>();
let timer: NodeJS.Timeout | undefined;
const rest = () => {
  clearTimeout(timer);
  timer = setTimeout(() => process.exit(0), idleMs);
};

/** Past RSS_LIMIT: `retiring` was sent, and the process ends when the parent's `bye` comes. */
let retiring = false;
const peakRss = () => process.resourceUsage().maxRSS * 1024;

function validatorFor(setup: ValidatorSetup): DocumentValidator {
  const key = JSON.stringify(setup);
  let v = validators.get(key);
  if (!v) {
    v = createDocumentValidator(setup.namespaces, { maxBytes: setup.maxBytes, cacheDir: setup.cacheDir, subsets: setup.subsets });
    validators.set(key, v);
  }
  return v;
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m: ChildRequest) => {
  clearTimeout(timer);
  if ('bye' in m) {
    // Every document sent before the parent's answer came first, and its reply was sent before
    // this one: the process ends once this one is written (the replies before it are, in order).
    process.send!({ bye: true } satisfies ChildResponse, () => process.exit(0));
    return;
  }
  if ('warm' in m) {
    try {
      validatorFor(m.warm);
    } catch { /* the document that needs it will say why */ }
    rest();
    return;
  }
  let reply: ChildResponse;
  try {
    reply = { id: m.id, outcome: validatorFor(m.setup).validate(m.xml) };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  // The outcome goes first: collecting libxml2's tree of the document (freed when its JavaScript
  // object is collected: now, not when the next document has been parsed beside it) takes tens of
  // milliseconds on a large one, which the parent need not wait for.
  process.send!({ ...reply, peakRss: peakRss() }, () => {
    collectGarbage();
    // libxml2's memory stays with the process after a large document (the allocator keeps it):
    // past RSS_LIMIT the process takes no more documents and ends when the parent has seen that
    // (a document the parent sent meanwhile is still read), so the run's memory is not the
    // harness's plus a validator's high-water mark.
    if (!retiring && process.memoryUsage().rss > RSS_LIMIT) {
      retiring = true;
      process.send!({ retiring: true, peakRss: peakRss() } satisfies ChildResponse);
    }
    rest();
  });
});
rest();
