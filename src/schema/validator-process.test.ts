import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { manySiblings, manyXsdErrors, mealsDocument } from '../../test/support/hostile-docs.js';
import { setValidatorRetirement, stopValidatorProcess, validatorProcessesStarted } from './validator-process.js';
import { createDocumentValidator, IN_PROCESS_MAX_CHARS } from './xsd-validator.js';
import { MAX_ERRORS_KEPT } from './libxml-errors.js';

const validator = createDocumentValidator(DEFAULT_NAMESPACES);
afterAll(() => stopValidatorProcess());

/** Timer ticks of this process while `p` runs: the event loop stays free when the work is elsewhere. */
async function ticksDuring<T>(p: () => Promise<T>): Promise<{ value: T; ticks: number; ms: number }> {
  let ticks = 0;
  const iv = setInterval(() => ticks++, 20);
  const t0 = performance.now();
  try {
    const value = await p();
    return { value, ticks, ms: performance.now() - t0 };
  } finally {
    clearInterval(iv);
  }
}

describe('libxml2 on a large document runs in a process of its own', () => {
  test('the same outcome as in this process, and the event loop stays free meanwhile', async () => {
    const doc = manyXsdErrors('1.1', 60_000); // 3 MB, 60,000 errors
    expect(doc.length).toBeGreaterThan(IN_PROCESS_MAX_CHARS);
    const here = validator.validate(doc);
    const { value: there, ticks, ms } = await ticksDuring(() => validator.validateAsync!(doc));
    expect(there).toEqual(here);
    expect(there.xsdErrors).toHaveLength(MAX_ERRORS_KEPT);
    expect(there.moreXsdErrors).toBe(60_000 - MAX_ERRORS_KEPT);
    expect(ticks).toBeGreaterThan((ms / 20) * 0.3); // a blocked loop would tick once
    expect(Array.prototype.push.name).toBe('push');
  });

  test('a document that takes longer than its budget is stopped, and the next one gets a fresh process', async () => {
    const slow = await validator.validateAsync!(manySiblings('1.1', 1_000_000), { budgetMs: 300 });
    expect(slow.notParsed).toMatch(
      /^libxml2 took longer than 0\.3 s on a document of 7,000,335 bytes: stopped after 0\.\d s; the document was not checked$/,
    );
    const valid = mealsDocument('1.2', `<meals>${'<meal><id>1</id><name>x</name></meal>'.repeat(20_000)}</meals>`);
    expect(await validator.validateAsync!(valid)).toEqual({ xsdErrors: [] });
  });

  test("an abort (the run's deadline) stops it at once", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("the run's deadline passed")), 200);
    const { value, ms } = await ticksDuring(() =>
      validator.validateAsync!(manySiblings('1.1', 1_000_000), { signal: ac.signal }),
    );
    expect(value.notParsed).toBe(
      "libxml2 was stopped before it finished reading the document: the run's deadline passed",
    );
    expect(ms).toBeLessThan(2_000);
  });

  test(
    'sent as the UTF-8 bytes it was decoded from (a BOM, characters beyond Latin-1): the same outcome as ' + 'its text',
    async () => {
      const names = ['Zürich „Αθήνα“', 'Kraków 日本', 'x'];
      const doc = mealsDocument(
        '1.1',
        `<meals>${Array.from({ length: 6_000 }, (_, i) => `<meal><id>${i % 7 === 0 ? 'bad' : i}</id><name>${names[i % 3]}</name></meal>`).join('')}</meals>`,
      );
      expect(doc.length).toBeGreaterThan(IN_PROCESS_MAX_CHARS);
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(doc, 'utf8')]);
      const here = validator.validate(doc);
      expect(here.xsdErrors.length).toBeGreaterThan(0);
      expect(await validator.validateAsync!(doc, { utf8: bytes })).toEqual(here);
      // The bytes are what is read: bytes of another document give that document's outcome.
      const other = mealsDocument('1.1', `<meals>${'<meal><id>1</id><name>y</name></meal>'.repeat(8_000)}</meals>`);
      expect(await validator.validateAsync!(doc, { utf8: Buffer.from(other, 'utf8') })).toEqual({ xsdErrors: [] });
    },
  );

  test('small documents are read here, without a process', async () => {
    const doc = mealsDocument(undefined, '<meals><meal><id>x</id><name>y</name></meal></meals>');
    expect((await validator.validateAsync!(doc)).xsdErrors).toHaveLength(1);
  });
});

describe('a validator process past its memory limit retires', () => {
  afterAll(() => setValidatorRetirement(undefined));
  const documents = () =>
    [1, 2, 3].map((k) =>
      mealsDocument('1.2', `<meals>${`<meal><id>${k}</id><name>x</name></meal>`.repeat(8_000 + k)}</meals>`),
    );
  const until = async (done: () => boolean) => {
    for (let waited = 0; !done() && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  };

  test('its replacement is started when it retires, and documents sent meanwhile are still read', async () => {
    stopValidatorProcess();
    setValidatorRetirement({ rss: 1, perChar: 0 }); // every document takes its process past the limit
    const docs = documents();
    docs.push(manyXsdErrors('1.1', 5_000));
    expect(docs.every((d) => d.length > IN_PROCESS_MAX_CHARS)).toBe(true);
    const here = docs.map((d) => validator.validate(d));
    const before = validatorProcessesStarted();
    // One after the other: each retirement is seen before the next document is sent.
    for (const [i, d] of docs.entries()) {
      expect(await validator.validateAsync!(d)).toEqual(here[i]);
      // The process's "retiring" comes after its reply: its replacement is started then, before
      // any next document (one started when the next document comes would not count here).
      await until(() => validatorProcessesStarted() - before >= i + 2);
      expect(validatorProcessesStarted() - before).toBe(i + 2);
    }
    // All at once: the documents queued behind one whose process retires go to that process before
    // the parent sees "retiring" (it still reads them) or to its replacement; none is lost.
    const started = validatorProcessesStarted();
    const all = await Promise.all(docs.map((d) => validator.validateAsync!(d)));
    expect(all).toEqual(here);
    expect(validatorProcessesStarted() - started).toBeGreaterThanOrEqual(1);
  });

  test('past its memory but within what its documents need, it retires only once no document comes', async () => {
    stopValidatorProcess();
    setValidatorRetirement({ rss: 1, perChar: 1e9, idleMs: 400 }); // past the memory limit, within what a document needs
    const docs = documents();
    const here = docs.map((d) => validator.validate(d));
    const before = validatorProcessesStarted();
    for (const [i, d] of docs.entries()) {
      expect(await validator.validateAsync!(d)).toEqual(here[i]);
      await new Promise((r) => setTimeout(r, 50)); // less than idleMs: the same process reads the next one
    }
    expect(validatorProcessesStarted() - before).toBe(1);
    // No document for idleMs: it retires, and its replacement is started then.
    await until(() => validatorProcessesStarted() - before >= 2);
    expect(validatorProcessesStarted() - before).toBe(2);
    expect(await validator.validateAsync!(docs[0]!)).toEqual(here[0]);
    expect(validatorProcessesStarted() - before).toBe(2);
  });
});
