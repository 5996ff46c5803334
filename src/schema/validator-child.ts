/**
 * The validator process (src/schema/validator-process.ts): reads documents sent over the IPC channel
 * with the same validator as the parent and sends back libxml2's outcome, one at a time. Exits when
 * the parent goes away or after the idle time given as its argument.
 */
import type { DocumentValidator } from './types.js';
import { createDocumentValidator } from './xsd-validator.js';
import type { ChildRequest, ChildResponse } from './validator-process.js';
import { collectGarbage } from '../core/memory.js';

const idleMs = Number(process.argv[2] ?? 60_000);
/** Resident memory past which the process ends after replying. */
const RSS_LIMIT = 192 * 1024 * 1024;
const validators = new Map<string, DocumentValidator>();
let timer: NodeJS.Timeout | undefined;
const rest = () => {
  clearTimeout(timer);
  timer = setTimeout(() => process.exit(0), idleMs);
};

process.on('disconnect', () => process.exit(0));
process.on('message', (m: ChildRequest) => {
  clearTimeout(timer);
  let reply: ChildResponse;
  try {
    const key = JSON.stringify(m.setup);
    let v = validators.get(key);
    if (!v) {
      v = createDocumentValidator(m.setup.namespaces, { maxBytes: m.setup.maxBytes, cacheDir: m.setup.cacheDir, subsets: m.setup.subsets });
      validators.set(key, v);
    }
    reply = { id: m.id, outcome: v.validate(m.xml) };
    // libxml2's tree of the document is freed when its JavaScript object is collected: now, not
    // when the next document has been parsed beside it.
    collectGarbage();
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  // libxml2's memory stays with the process after a large document (the allocator keeps it):
  // past RSS_LIMIT the process ends once it has replied, and the next document starts a new one,
  // so the run's memory is not the harness's plus a validator's high-water mark.
  // The reply says so, or the parent could send the next document before it sees this one exit.
  const retiring = process.memoryUsage().rss > RSS_LIMIT;
  reply = { ...reply, peakRss: process.resourceUsage().maxRSS * 1024 };
  process.send!(retiring ? { ...reply, retiring } : reply, retiring ? () => process.exit(0) : () => rest());
});
rest();
