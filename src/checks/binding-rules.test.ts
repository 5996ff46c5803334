import { describe, expect, test } from 'vitest';
import { bindingRules } from './binding-rules.js';
import {
  BINDING_DIFFERENCES as BINDING_RULES,
  documentedDifference as bindingRuleAt,
} from '../contract/binding-differences.js';
import {
  ALL_BINDINGS,
  at,
  contextFor,
  documentFor,
  findingsOf,
  node,
  outcomeOf,
  sampleResult,
  skipOf,
  type XNode,
} from '../../test/support/checks.js';
import type { BindingId } from '../contract/catalogue.js';

const POLICY = 'CancellationPaymentMethod[2]/cancellation[2]/activecancellationpolicy';

function checked(binding: BindingId, edit: (r: XNode) => void = () => {}, prefix = '') {
  const r = sampleResult('CancelBooking', binding, { full: true });
  edit(r);
  return findingsOf(
    bindingRules,
    contextFor('CancelBooking', binding, documentFor('CancelBooking', binding, { result: r, prefix, indent: '  ' })),
  );
}

describe('binding rules data', () => {
  test('each rule quotes its contract sentence and names every binding', () => {
    expect(BINDING_RULES.length).toBeGreaterThan(0);
    for (const r of BINDING_RULES) {
      expect(r.source).toMatch(/Section \d/);
      expect(Object.keys(r.expect).sort()).toEqual(['get', 'post', 'soap11', 'soap12']);
    }
    expect(
      bindingRuleAt('CancelBooking', 'result/CancellationPaymentMethod/cancellation/activecancellationpolicy')?.expect
        .soap11,
    ).toBe('nil');
    expect(bindingRuleAt('CancelBooking', 'result/Code')).toBeUndefined();
  });
});

describe('binding_rules: CancelBooking activecancellationpolicy', () => {
  test.each(ALL_BINDINGS)('passes when %s follows the contract (every occurrence, prefixed or not)', (b) => {
    expect(checked(b)).toEqual([]);
    expect(checked(b, () => {}, 'tns')).toEqual([]);
  });

  test.each(['soap11', 'soap12'] as const)('reports text where %s must be nil, at the exact occurrence', (b) => {
    const f = checked(b, (r) => {
      const p = at(r, POLICY);
      p.attrs = [];
      p.text = 'Non-refundable';
    });
    expect(f).toHaveLength(1);
    expect(f[0]!.path).toBe(`/Envelope/Body/CancelBookingResponse/result/${POLICY}`);
    expect(f[0]!.message).toMatch(
      /^activecancellationpolicy not nil in SOAP 1\.[12]: text "Non-refundable"; Section 2\.5/,
    );
    expect(f[0]).toMatchObject({ expected: 'xsi:nil="true"' });
  });

  test('reports an empty element without xsi:nil in SOAP', () => {
    const f = checked('soap11', (r) => {
      at(r, POLICY).attrs = [];
    });
    expect(f[0]!.actual).toBe('an empty element without xsi:nil');
  });

  test.each(['get', 'post'] as const)('reports nil or empty where %s must hold text', (b) => {
    const nil = checked(b, (r) => {
      const p = at(r, POLICY);
      p.text = undefined;
      p.attrs = [['xsi:nil', 'true']];
    });
    expect(nil).toEqual([expect.objectContaining({ path: `/result/${POLICY}`, actual: 'xsi:nil="true"' })]);
    expect(nil[0]!.message).toMatch(
      /^activecancellationpolicy without content in HTTP (GET|POST) \(xsi:nil="true"\): expected text or child elements/,
    );
    const empty = checked(b, (r) => {
      at(r, POLICY).text = '  ';
    });
    expect(empty[0]!.actual).toBe('an empty element');
  });

  test.each(['get', 'post'] as const)(
    'passes when %s holds child elements instead of text (the real service), reports elements in SOAP',
    (b) => {
      expect(
        checked(b, (r) => {
          const p = at(r, POLICY);
          p.text = undefined;
          p.children = [node('deadline', [['xsi:nil', 'true']]), node('percentage', [], [], '0')];
        }),
      ).toEqual([]);
      const soap = checked('soap12', (r) => {
        const p = at(r, POLICY);
        p.attrs = [];
        p.children = [node('percentage', [], [], '0')];
      });
      expect(soap.map((f) => f.actual)).toEqual(['child element percentage']);
    },
  );

  test('skips a result carrying an in-band Error: no data to apply the rules to', () => {
    const r = node('result', [], [node('Error', [], [node('ErrorType', [], [], 'X')]), node('Code', [], [], '-2')]);
    expect(
      skipOf(bindingRules, contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'get', { result: r }))),
    ).toMatch(/in-band Error \(X\)/);
  });

  test('has nothing to say when the element is absent (shape reports that) or the result is minimal', () => {
    expect(
      checked('soap11', (r) => {
        at(r, 'CancellationPaymentMethod[1]/cancellation[1]').children = [];
      }),
    ).toEqual([]);
    const minimal = documentFor('CancelBooking', 'get');
    expect(findingsOf(bindingRules, contextFor('CancelBooking', 'get', minimal))).toEqual([]);
  });

  test('applies only to operations with rules and to valid cases; skips without a result', () => {
    expect(outcomeOf(bindingRules, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get')))).toBe(
      'not applicable',
    );
    expect(
      outcomeOf(bindingRules, contextFor('CancelBooking', 'get', '', { caseKind: 'wrong-credentials', status: 500 })),
    ).toBe('not applicable');
    expect(
      skipOf(
        bindingRules,
        contextFor('CancelBooking', 'get', documentFor('CancelBooking', 'get', { result: node('wrong') })),
      ),
    ).toContain('result_element');
  });
});
