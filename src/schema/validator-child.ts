/**
 * The validator process (src/schema/validator-process.ts): reads documents sent over the IPC channel
 * with the same validator as the parent and sends back libxml2's outcome, one at a time. Exits when
 * the parent goes away or after the idle time given as its argument.
 */
import type { DocumentValidator } from './types.js';
import { createDocumentValidator } from './xsd-validator.js';
import {
  DEFAULT_RETIREMENT,
  type ChildRequest,
  type ChildResponse,
  type Retirement,
  type ValidatorSetup,
} from './validator-process.js';
import { collectGarbage } from '../core/memory.js';

const idleMs = Number(process.argv[2] ?? 60_000);
const retirement: Retirement = {
  ...DEFAULT_RETIREMENT,
  ...(process.argv[3] ? (JSON.parse(process.argv[3]) as Partial<Retirement>) : {}),
};
const validators = new Map<string, DocumentValidator>();
let timer: NodeJS.Timeout | undefined;
const rest = () => {
  clearTimeout(timer);
  timer = setTimeout(() => process.exit(0), idleMs);
};

/** `retiring` was sent, and the process ends when the parent's `bye` comes. */
let retiring = false;
let retireWhenIdle: NodeJS.Timeout | undefined;
function retire(): void {
  clearTimeout(retireWhenIdle);
  if (retiring) return;
  retiring = true;
  process.send!({ retiring: true, peakRss: peakRss() } satisfies ChildResponse);
}
const peakRss = () => process.resourceUsage().maxRSS * 1024;

function validatorFor(setup: ValidatorSetup): DocumentValidator {
  const key = JSON.stringify(setup);
  let v = validators.get(key);
  if (!v) {
    v = createDocumentValidator(setup.namespaces, {
      maxBytes: setup.maxBytes,
      cacheDir: setup.cacheDir,
      subsets: setup.subsets,
    });
    validators.set(key, v);
  }
  return v;
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m: ChildRequest) => {
  clearTimeout(timer);
  clearTimeout(retireWhenIdle);
  if ('bye' in m) {
    // Every document sent before the parent's answer came first, and its reply was sent before
    // this one: the process ends once this one is written (the replies before it are, in order).
    process.send!({ bye: true } satisfies ChildResponse, () => process.exit(0));
    return;
  }
  if ('warm' in m) {
    try {
      validatorFor(m.warm);
    } catch {
      /* the document that needs it will say why */
    }
    rest();
    return;
  }
  let reply: ChildResponse;
  let chars = 0;
  try {
    // Decoded as the parent decoded them (they were valid UTF-8 there): the same text.
    const xml = 'xml' in m ? m.xml : new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(m.utf8);
    chars = xml.length;
    reply = { id: m.id, outcome: validatorFor(m.setup).validate(xml) };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  // The outcome goes first: collecting libxml2's tree of the document (freed when its JavaScript
  // object is collected: now, not when the next document has been parsed beside it) takes tens of
  // milliseconds on a large one, which the parent need not wait for.
  process.send!({ ...reply, peakRss: peakRss() }, () => {
    collectGarbage();
    // libxml2's memory stays with the process after a large document (the allocator keeps it),
    // and a new process pays for it again (page by page: about 100 ms of a 10 MB document). Past
    // what a document of this size needs (libxml2's tree is 17-26 times the document), the process
    // retires now (a hostile document, a million elements in a few MB); past `rss` alone it retires
    // once no document has come for `idleMs`: while large answers keep coming, each needs that
    // memory again. Retiring, it takes no more documents and ends when the parent has seen that (a
    // document the parent sent meanwhile is still read), so the run's memory is not the harness's
    // plus a validator's high-water mark.
    const rss = process.memoryUsage().rss;
    if (rss > Math.max(retirement.rss, retirement.perChar * chars)) retire();
    else if (rss > retirement.rss && !retiring) retireWhenIdle = setTimeout(retire, retirement.idleMs);
    rest();
  });
});
rest();
