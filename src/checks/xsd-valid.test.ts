import { beforeAll, describe, expect, test } from 'vitest';
import { isLibxmlWhitespaceDefect, pathOfMessage, xsdValid } from './xsd-valid.js';
import {
  ALL_BINDINGS,
  at,
  contextFor,
  documentFor,
  findingsOf,
  fixedErrors,
  node,
  NS,
  sampleResult,
  skipOf,
  type DocOptions,
  type XNode,
} from '../../test/support/checks.js';
import { outcomeOf } from '../../test/support/checks.js';
import { OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import type { DocumentValidator } from './context.js';
import { parseXml } from '../xml/tree.js';

let validator: DocumentValidator;
beforeAll(() => {
  validator = createDocumentValidator(NS);
});

const SEARCH = NS.search;

function validated(opName: string, binding: BindingId, edit: (r: XNode) => void = () => {}, o: DocOptions = {}) {
  const r = sampleResult(opName, binding, { full: true });
  edit(r);
  return findingsOf(
    xsdValid,
    contextFor(opName, binding, documentFor(opName, binding, { ...o, result: r }), { validator }),
  );
}

describe('xsd_valid with the real schemas', () => {
  test.each(OPERATIONS.flatMap((o) => ALL_BINDINGS.map((b) => [o.name, b] as const)))(
    'passes on %s %s (full, prefixed, pretty)',
    (name, b) => {
      expect(validated(name, b, () => {}, { prefix: 'tns', indent: ' ', eol: '\r\n', envPrefix: 'env' })).toEqual([]);
    },
  );

  test('passes on values with surrounding whitespace that libxml2 2.9.9 wrongly refuses (xs:int, xs:dateTime)', () => {
    expect(
      validated('AmendmentPriceRequest', 'get', (r) => {
        at(r, 'RoomId').text = ' 7\n';
        at(r, 'hotelnotes/note[1]').attrs = [
          ['start_date', ' 2024-05-01T00:00:00 '],
          ['end_date', '2024-05-02T00:00:00'],
        ];
      }),
    ).toEqual([]);
  });

  test("reports an invalid value with libxml2's message, the line and the exact path (pretty-printed)", () => {
    const f = validated(
      'GetMeals',
      'soap11',
      (r) => {
        at(r, 'meals/meal[2]/id').text = 'abc';
      },
      { indent: '  ' },
    );
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      check: 'xsd_valid',
      path: '/Envelope/Body/GetMealsResponse/getMealsResult/meals/meal[2]/id',
    });
    expect(f[0]!.message).toMatch(
      new RegExp(
        `^Element '\\{${SEARCH.replace(/[./]/g, '\\$&')}\\}id': 'abc' is not a valid value of the `
          + `atomic type 'xs:int'\\. \\(line \\d+\\)$`,
      ),
    );
  });

  test('falls back to a descendant path when the line cannot tell repeated elements apart', () => {
    const f = validated('GetMeals', 'soap11', (r) => {
      at(r, 'meals/meal[2]/id').text = 'abc';
    });
    expect(f.map((x) => x.path)).toEqual(['//id']);
  });

  test('reports a missing element and an attribute error with paths', () => {
    const f = validated('GetThemes', 'post', (r) => {
      at(r, 'themes/theme[2]').attrs = [['id', 'x']];
    });
    expect(f.map((x) => x.path)).toEqual(['//theme/@id']);
    const g = validated('CancelTransferBooking', 'get', (r) => {
      r.children = r.children.filter((c) => c.name !== 'cancellationFeeInLocalCurrency');
    });
    expect(g).toHaveLength(1);
    expect(g[0]!.path).toBe('/cancelTransferBookingResult/currency');
    expect(g[0]!.message).toContain('This element is not expected. Expected is');
  });

  test('each finding carries the defect code of its libxml2 error, the same codes the shape walk uses', () => {
    const codes = (...a: Parameters<typeof validated>) => validated(...a).map((f) => f.code);
    expect(
      codes('GetMeals', 'soap11', (r) => {
        at(r, 'meals/meal[2]/id').text = 'abc';
      }),
    ).toEqual(['invalid_lexical_value']);
    expect(
      codes('GetThemes', 'post', (r) => {
        at(r, 'themes/theme[2]').attrs = [['id', 'x']];
      }),
    ).toEqual(['invalid_lexical_value']);
    expect(
      codes('CancelTransferBooking', 'get', (r) => {
        r.children = r.children.filter((c) => c.name !== 'cancellationFeeInLocalCurrency');
      }),
    ).toEqual(['unexpected_element']);
    expect(
      codes('GetThemes', 'post', (r) => {
        at(r, 'themes/theme[1]').attrs = [
          ['id', '1'],
          ['bogus', 'x'],
        ];
      }),
    ).toEqual(['unknown_attribute']);
    expect(
      codes('GetThemes', 'get', (r) => {
        at(r, 'themes/theme[1]').attrs = [];
      }),
    ).toEqual(['missing_required_attribute']);
    expect(
      codes('AmendmentPriceRequest', 'get', (r) => {
        at(r, 'BookingType').text = 'Sometimes';
      }),
    ).toEqual(['value_outside_enumeration']);
    const rootless = '<?xml version="1.0"?><nothing xmlns="urn:none"/>';
    expect(findingsOf(xsdValid, contextFor('GetMeals', 'get', rootless, { validator })).map((f) => f.code)).toEqual([
      'unknown_root_element',
    ]);
  });

  test('reports a SOAP 1.2 document that is not a valid envelope (Body in no namespace)', () => {
    const body = `<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><Body/></e:Envelope>`;
    expect(findingsOf(xsdValid, contextFor('GetThemes', 'soap12', body, { validator })).length).toBeGreaterThan(0);
  });

  test('skips a body that is not well-formed; does not apply to a wrong-credentials rejection without a result', () => {
    expect(skipOf(xsdValid, contextFor('GetThemes', 'get', '<a>', { validator }))).toContain('xml_wellformed');
    const text = '<?xml version="1.0"?><error>Invalid credentials</error>';
    expect(
      outcomeOf(xsdValid, contextFor('GetThemes', 'get', text, { validator, caseKind: 'wrong-credentials' })),
    ).toBe('not applicable');
  });

  test('runs on a wrong-credentials 200 that holds a result element', () => {
    const r = node('getRoomTypesResult', [], [node('Error', [], [node('ErrorType', [], [], 'Auth'), node('Bogus')])]);
    const f = findingsOf(
      xsdValid,
      contextFor('GetRoomTypes', 'get', documentFor('GetRoomTypes', 'get', { result: r }), {
        validator,
        caseKind: 'wrong-credentials',
      }),
    );
    expect(f.map((x) => x.path)).toEqual(['/getRoomTypesResult/Error/Bogus']);
  });
});

describe('xsd_valid mapping of libxml2 errors', () => {
  const body = documentFor('GetThemes', 'get', { indent: '  ', full: true });

  test('one finding per error, long messages cut to 200 characters, line and column shown', () => {
    const long = `Element 'theme': ${'x'.repeat(400)}`;
    const f = findingsOf(
      xsdValid,
      contextFor('GetThemes', 'get', body, {
        validator: fixedErrors([{ message: 'first', line: 3, column: 7 }, { message: long }]),
      }),
    );
    expect(f.map((x) => x.message)).toEqual(['first (line 3:7)', expect.stringMatching(/^Element 'theme': x+…$/)]);
    expect(f[1]!.message.length).toBe(200);
    expect(f.map((x) => x.path)).toEqual(['/', '//theme']);
  });

  test('pathOfMessage finds a unique element, an attribute, and picks by line among repeats', () => {
    const root = parseXml(body).root;
    expect(pathOfMessage(`Element '{${SEARCH}}themes': x`, undefined, root, body)).toBe('/getThemesResult/themes');
    expect(pathOfMessage(`Element '{${SEARCH}}theme', attribute 'id': x`, 5, root, body)).toBe(
      '/getThemesResult/themes/theme[2]/@id',
    );
    expect(pathOfMessage(`Element '{${SEARCH}}theme': x`, 4, root, body)).toBe('/getThemesResult/themes/theme[1]');
    expect(pathOfMessage(`Element '{urn:nowhere}theme': x`, 4, root, body)).toBe('//theme');
    expect(pathOfMessage('Some other message', 4, root, body)).toBe('/');
  });

  test('isLibxmlWhitespaceDefect drops only whitespace-padded valid values', () => {
    expect(isLibxmlWhitespaceDefect("Element 'v': ' 7 ' is not a valid value of the atomic type 'xs:int'.")).toBe(true);
    expect(isLibxmlWhitespaceDefect("Element 'v': ' x ' is not a valid value of the atomic type 'xs:int'.")).toBe(
      false,
    );
    expect(isLibxmlWhitespaceDefect("Element 'v': '7' is not a valid value of the atomic type 'xs:int'.")).toBe(false);
    expect(
      isLibxmlWhitespaceDefect(
        "Element 'v', attribute 'a': '\n2024-05-01T00:00:00' is not a valid value of the atomic type 'xs:dateTime'.",
      ),
    ).toBe(true);
  });
});

describe('xsd_valid on a document with thousands of errors', () => {
  const meals = (n: number, pretty: boolean) => {
    const meal = (i: number) => `<meal><id>bad-${i}</id><name>Room only</name></meal>`;
    const items = Array.from({ length: n }, (_, i) => meal(i)).join(pretty ? '\n' : '');
    return (
      `<?xml version="1.0" encoding="utf-8"?><getMealsResult `
      + `xmlns="${SEARCH}"><meals>${pretty ? '\n' : ''}${items}</meals></getMealsResult>`
    );
  };

  test(
    '5,000 invalid values: the first three with their exact paths, then "and 4,997 more like it", in one ' + 'pass',
    () => {
      const t0 = performance.now();
      const f = findingsOf(xsdValid, contextFor('GetMeals', 'get', meals(5_000, true), { validator }));
      const ms = performance.now() - t0;
      expect(f.map((x) => x.path)).toEqual([
        '/getMealsResult/meals/meal[1]/id',
        '/getMealsResult/meals/meal[2]/id',
        '/getMealsResult/meals/meal[3]/id',
        '//id',
      ]);
      // (the validator keeps 1,000 error objects and counts the rest by code)
      expect(f[3]!.message).toMatch(
        /^and 4,997 more like it: Element '\{[^}]+\}id': 'bad-0' is not a valid value of the atomic type 'xs:int'\./,
      );
      expect(ms).toBeLessThan(20_000); // a bound against the old quadratic mapping (77 s for 2,000), not a speed goal
    },
  );

  test('errors beyond those the validator keeps are counted; kinds are listed apart', () => {
    const errors = [
      ...Array.from({ length: 10 }, (_, i) => ({
        message: `Element '{${SEARCH}}id': 'x${i}' is not a valid value of the atomic type 'xs:int'.`,
        code: 1824,
      })),
      { message: `Element '{${SEARCH}}name': This element is not expected.`, code: 1871 },
    ];
    const validator2 = {
      validate: () => ({
        xsdErrors: errors,
        moreXsdErrors: 123_456,
        moreXsdErrorsByCode: [
          { code: 1824, count: 100_000 },
          { code: 1866, count: 23_456 },
        ],
      }),
    };
    const f = findingsOf(xsdValid, contextFor('GetMeals', 'get', meals(10, false), { validator: validator2 }));
    expect(f.map((x) => x.message.replace(/ \(line \d+\)$/, ''))).toEqual([
      expect.stringContaining("'x0'"),
      expect.stringContaining("'x1'"),
      expect.stringContaining("'x2'"),
      expect.stringContaining('This element is not expected'),
      expect.stringMatching(/^and 100,007 more like it: .*'x0'/),
      'and 23,456 more XSD errors of other kinds: libxml2 reported 123,467 in all',
    ]);
  });

  test(
    'one line holding every element: a path among repeats needs the namespace to tell them apart, else a '
      + 'descendant path',
    () => {
      const root = parseXml(meals(3, false)).root;
      const text = meals(3, false);
      expect(pathOfMessage(`Element '{${SEARCH}}id': x`, 1, root, text)).toBe('//id');
      expect(pathOfMessage(`Element '{${SEARCH}}meals': x`, 1, root, text)).toBe('/getMealsResult/meals');
    },
  );
});
