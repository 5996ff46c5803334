/**
 * CheckContext.prepare: while a validator process reads a large document, the tree is built in
 * this process (the two in parallel), and a document libxml2 did not read keeps no tree.
 */
import { describe, expect, test } from 'vitest';
import type { DocumentValidator, LibxmlOutcome, ValidateOptions } from '../schema/types.js';
import { contextFor } from '../../test/support/checks.js';
import { CHECKS, runBeside, runChecks } from './registry.js';

const DOC =
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMealsResponse '
  + 'xmlns="http://mock.accommodation.test/search/1/"/></soap:Body></soap:Envelope>';

/**
 * A validator that hands the document "away" (as the process does), then answers when told; it records what happened in
 * order.
 */
function slowValidator(outcome: LibxmlOutcome, handsOver = true) {
  const events: string[] = [];
  let answer!: () => void;
  const validator: DocumentValidator = {
    validate: () => outcome,
    // xml() reads the limits before building the tree: the moment it is built.
    get limits() {
      events.push('tree');
      return undefined;
    },
    validateAsync(_xml: string, opts: ValidateOptions = {}) {
      return new Promise<LibxmlOutcome>((resolve) => {
        answer = () => {
          events.push('libxml2');
          resolve(outcome);
        };
        if (handsOver)
          setImmediate(() => {
            events.push('handed over');
            opts.handedOver?.();
          });
      });
    },
  };
  return { validator, events, answer: () => answer() };
}

async function prepared(outcome: LibxmlOutcome, overlap: boolean, handsOver = true) {
  const v = slowValidator(outcome, handsOver);
  const ctx = contextFor('GetMeals', 'soap11', DOC, { validator: v.validator });
  const done = ctx.prepare({}, overlap, () => {
    v.events.push(`beside: ${ctx.located().path}`);
  });
  await new Promise((r) => setTimeout(r, 20));
  const before = [...v.events];
  v.answer();
  const stood = await done;
  return { ctx, before, events: v.events, stood };
}

describe('prepare builds the tree while the validator process reads the document', () => {
  test('the tree is built once the document is handed over, before libxml2 answers', async () => {
    const { ctx, before, events, stood } = await prepared({ xsdErrors: [] }, true);
    expect(before).toEqual(['handed over', 'tree', 'beside: /Envelope/Body/GetMealsResponse/getMealsResult']);
    expect(events).toEqual([...before, 'libxml2']);
    expect(stood).toBe(true);
    expect(ctx.xml().parsed?.root.local).toBe('Envelope');
  });
  test('without overlap (the order before): libxml2 first, the tree when asked', async () => {
    const { ctx, before, events, stood } = await prepared({ xsdErrors: [] }, false);
    expect(before).toEqual(['handed over']);
    expect(events).toEqual(['handed over', 'libxml2']);
    expect(stood).toBe(false);
    expect(ctx.xml().parsed?.root.local).toBe('Envelope');
    expect(events).toEqual(['handed over', 'libxml2', 'tree']);
  });
  test("a document read in this process (never handed over): no tree before libxml2's outcome", async () => {
    const { before, stood } = await prepared({ xsdErrors: [] }, true, false);
    expect(before).toEqual([]);
    expect(stood).toBe(false);
  });
  test('a document libxml2 did not read keeps no tree, though it was built meanwhile', async () => {
    const { ctx, events, stood } = await prepared({ notParsed: 'libxml2 took longer than 10 s', xsdErrors: [] }, true);
    expect(events).toEqual([
      'handed over',
      'tree',
      'beside: /Envelope/Body/GetMealsResponse/getMealsResult',
      'libxml2',
    ]);
    // The work done beside is to be done again, on no tree: the result element is no longer found.
    expect(stood).toBe(false);
    expect(ctx.xml()).toEqual({ error: 'libxml2 took longer than 10 s' });
    expect(ctx.located().result).toBeUndefined();
  });
});

describe('what the validator process is sent', () => {
  test.each([
    ['text/xml; charset=utf-8', true],
    ['text/xml; charset=UTF8', true],
    ['text/xml', true], // no charset, no declaration: UTF-8
    ['text/xml; charset=iso-8859-1', false],
    ['text/xml; charset=utf-16le', false],
  ])("%s: the body's bytes when they are UTF-8 (%s), else the decoded text alone", async (contentType, bytes) => {
    const seen: ValidateOptions[] = [];
    const body = contentType.includes('16') ? Buffer.from(DOC, 'utf16le') : Buffer.from(DOC, 'latin1');
    const validator: DocumentValidator = {
      validate: () => ({ xsdErrors: [] }),
      validateAsync: async (_xml, opts = {}) => {
        seen.push(opts);
        return { xsdErrors: [] };
      },
    };
    const ctx = contextFor('GetMeals', 'soap11', body, { validator, contentType });
    await ctx.prepare({}, true);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.utf8 === body).toBe(bytes);
    if (!bytes) expect(seen[0]!.utf8).toBeUndefined();
  });
});

describe("the checks' walks done beside libxml2 (Check.beside)", () => {
  const BROKEN = DOC.replace(
    '<GetMealsResponse xmlns="http://mock.accommodation.test/search/1/"/>',
    '<GetMealsResponse '
      + 'xmlns="http://mock.accommodation.test/search/1/"><getMealsResult><meals><meal><id>one</id><zz/></meal><meal/></meals></getMealsResult></GetMealsResponse>',
  );

  async function checkedBeside(outcome: LibxmlOutcome, budgetMs?: (besideMs: number) => number) {
    const v = slowValidator(outcome);
    const ctx = contextFor('GetMeals', 'soap11', BROKEN, { validator: v.validator });
    const done = ctx.prepare({}, true, () => runBeside(ctx));
    await new Promise((r) => setTimeout(r, 20));
    v.answer();
    const stood = await done;
    return { ctx, stood, runs: runChecks(ctx, CHECKS, budgetMs?.(ctx.besideMs('shape'))) };
  }

  const shapeOf = (runs: ReturnType<typeof runChecks>) => runs.find((r) => r.check.name === 'shape');

  test("the shape check's findings are those of its walk done after libxml2, and the walk is not done again", async () => {
    const { ctx, stood, runs } = await checkedBeside({ xsdErrors: [] });
    expect(stood).toBe(true);
    const after = shapeOf(runChecks(contextFor('GetMeals', 'soap11', BROKEN), CHECKS))!;
    expect(Array.isArray(after.outcome) && after.outcome.length).toBeGreaterThan(1);
    expect(shapeOf(runs)!.outcome).toEqual(after.outcome);
    // Kept on the context: asked again for the same result element, it is not computed again.
    expect(() =>
      ctx.beside('shape', ctx.located().result!, () => {
        throw new Error('computed again');
      }),
    ).not.toThrow();
    // Its time is the check's: the walk's milliseconds are part of the shape row's.
    expect(ctx.besideMs('shape')).toBeGreaterThan(0);
    expect(shapeOf(runs)!.ms).toBeGreaterThanOrEqual(ctx.besideMs('shape') - 0.001);
  });

  test("a walk done beside counts toward the check's budget", async () => {
    // A budget of half the walk: the run itself takes the kept findings in far less.
    const { ctx, runs } = await checkedBeside({ xsdErrors: [] }, (ms) => ms / 2);
    expect(ctx.besideMs('shape')).toBeGreaterThan(0);
    const shapeRun = shapeOf(runs)!;
    expect(Array.isArray(shapeRun.outcome) && shapeRun.outcome.map((f) => f.code)).toContain('check_over_budget');
  });

  test('a document libxml2 did not read drops the walk done beside: the shape check skips', async () => {
    const { ctx, stood, runs } = await checkedBeside({ notParsed: 'libxml2 took longer than 10 s', xsdErrors: [] });
    expect(stood).toBe(false);
    expect(ctx.besideMs('shape')).toBe(0);
    expect(shapeOf(runs)!.outcome).toMatchObject({ skipped: expect.stringContaining('the document was not read') });
  });

  test('a document libxml2 finds not well-formed: the shape check skips though its walk was done', async () => {
    const { ctx, runs } = await checkedBeside({ wellFormedError: 'not well-formed (invalid token)', xsdErrors: [] });
    expect(ctx.besideMs('shape')).toBeGreaterThan(0);
    expect(shapeOf(runs)!.outcome).toMatchObject({ skipped: expect.stringContaining('not well-formed') });
  });
});
