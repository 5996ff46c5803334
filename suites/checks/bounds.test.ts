/** Checks on hostile documents stay bounded by the document: linear work, a few findings per kind. */
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES } from '../../src/contract/catalogue.js';
import { manySiblings, manyXsdErrors, unknownSiblings } from '../../test/support/hostile-docs.js';
import { parseXml } from '../../src/xml/tree.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { CHECKS, runChecks } from '../../src/checks/registry.js';
import { step } from '../../src/checks/support.js';
import { contextFor } from '../../test/support/checks.js';
import {
  compactFindings,
  finding,
  FindingList,
  MAX_FINDING_KINDS,
  MAX_FINDINGS_LISTED,
} from '../../src/checks/types.js';

describe('FindingList and compactFindings', () => {
  test(
    'the first three of each kind, 50 in all, then "and N more like it" per kind (values and numbers do '
      + 'not make a kind)',
    () => {
      const list = new FindingList();
      for (let i = 0; i < 10_000; i++)
        list.push(
          finding(
            'shape',
            'invalid_lexical_value',
            `/r/item[${i + 1}]/id`,
            `value '${i}' of id is not an int (item ${i})`,
          ),
        );
      for (let i = 0; i < 5; i++)
        list.push(finding('shape', 'missing_required_element', `/r/item[${i + 1}]`, 'missing required element name'));
      const out = list.list();
      expect(out.map((f) => f.path)).toEqual([
        '/r/item[1]/id',
        '/r/item[2]/id',
        '/r/item[3]/id',
        '/r/item[1]',
        '/r/item[2]',
        '/r/item[3]',
        '//id',
        '//item',
      ]);
      expect(out[6]!.message).toBe("and 9,997 more like it: value '0' of id is not an int (item 0)");
      expect(out[7]!.message).toBe('and 2 more like it: missing required element name');
    },
  );

  test('at most 50 listed across kinds; a short list is left as it is', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      finding(
        'shape',
        'unknown_element',
        `/k${i}`,
        `kind ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
      ),
    );
    const out = compactFindings(many);
    expect(out.filter((f) => !f.message.startsWith('and ')).length).toBe(MAX_FINDINGS_LISTED);
    // 100 kinds told apart (50 listed, 50 counted one each), then the other 100 in one summary.
    expect(out.length).toBe(MAX_FINDING_KINDS + 1);
    expect(out.at(-1)!.message).toBe('and 100 more of other kinds (more than 100 kinds), the first: kind WD');
    const few = many.slice(0, 50);
    expect(compactFindings(few)).toEqual(few);
  });

  test('200,000 findings of as many kinds: at most MAX_FINDING_KINDS + 1 kept, every one counted (issue 35)', () => {
    const list = new FindingList();
    const name = (i: number) => i.toString(26).replace(/[0-9]/g, (d) => String.fromCharCode(65 + Number(d)));
    for (let i = 0; i < 200_000; i++)
      list.add('shape', 'unknown_element', `/r/${name(i)}`, `unknown element ${name(i)} in r`);
    const out = list.list();
    expect(out.length).toBe(MAX_FINDING_KINDS + 1);
    const counted = out.reduce(
      (n, f) =>
        n + (/^and ([\d,]+) more/.exec(f.message) ? Number(/^and ([\d,]+)/.exec(f.message)![1]!.replace(/,/g, '')) : 1),
      0,
    );
    expect(counted).toBe(200_000);
    expect(out.at(-1)!.message).toMatch(
      /^and 199,900 more of other kinds \(more than 100 kinds\), the first: unknown element /,
    );
  });
});

describe('checks on 150,000 broken list items', () => {
  test('every check ends, each row has a few findings per kind', () => {
    const doc = manySiblings('1.1', 150_000);
    const validator = createDocumentValidator(DEFAULT_NAMESPACES);
    const ctx = contextFor('GetMeals', 'soap11', doc, { validator });
    const t0 = performance.now();
    const runs = runChecks(ctx, CHECKS);
    const ms = performance.now() - t0;
    const by = Object.fromEntries(runs.map((r) => [r.check.name, r.outcome]));
    const shape = by.shape as { message: string; path: string }[];
    expect(shape.length).toBeLessThanOrEqual(8);
    expect(shape.map((f) => f.message)).toContain('and 149,997 more like it: missing required element id in meal');
    const xsd = by.xsd_valid as { message: string }[];
    expect(xsd.length).toBeLessThanOrEqual(8);
    expect(
      xsd.some((f) => /^and 149,997 more like it: Element '\{[^}]+\}meal': Missing child element/.test(f.message)),
    ).toBe(true);
    expect(ms).toBeLessThan(60_000); // a bound against a hang (quadratic paths took hours), not a speed goal
  }, 120_000);

  test('path steps of 200,000 siblings: one pass per parent', () => {
    const root = parseXml(`<r>${'<a/>'.repeat(200_000)}<b/></r>`).root;
    const t0 = performance.now();
    const steps = root.children.map((c) => step(root, c));
    expect(performance.now() - t0).toBeLessThan(5_000); // counting siblings per child: 20 billion steps
    expect(steps.slice(0, 2)).toEqual(['a[1]', 'a[2]']);
    expect(steps.slice(-2)).toEqual(['a[200000]', 'b']);
    const small = parseXml('<r><a/><b/><a/></r>').root;
    expect(small.children.map((c) => step(small, c))).toEqual(['a[1]', 'b', 'a[2]']);
  });

  test('50,000 siblings the contract does not know (<z/>): a few findings per row (issue 35)', () => {
    const ctx = contextFor('GetMeals', 'soap12', unknownSiblings('1.2', 50_000), {
      validator: createDocumentValidator(DEFAULT_NAMESPACES),
    });
    const runs = runChecks(ctx, CHECKS);
    for (const r of runs) if (Array.isArray(r.outcome)) expect(r.outcome.length, r.check.name).toBeLessThanOrEqual(8);
    const shape = runs.find((r) => r.check.name === 'shape')!.outcome as { message: string }[];
    expect(shape.map((f) => f.message)).toContain(
      'and 49,997 more like it: unknown element {http://mock.accommodation.test/search/1/}z in '
        + 'getMealsResult: expected only Error, ErrorAttributes, meals',
    );
  }, 60_000);

  test('xsd_valid and shape on 30,000 invalid values', () => {
    const ctx = contextFor('GetMeals', 'get', manyXsdErrors(undefined, 30_000), {
      validator: createDocumentValidator(DEFAULT_NAMESPACES),
    });
    const runs = runChecks(
      ctx,
      CHECKS.filter((c) => c.name === 'xsd_valid' || c.name === 'shape'),
    );
    for (const r of runs) {
      const f = r.outcome as { message: string }[];
      expect(f.length, r.check.name).toBeLessThanOrEqual(6);
      expect(
        f.some((x) => /^and 29,997 more like it/.test(x.message)),
        `${r.check.name}: ${JSON.stringify(f)}`,
      ).toBe(true);
    }
  });
});
