import { describe, expect, test } from 'vitest';
import { shape } from './shape.js';
import { shapeFindings } from './shape-walk.js';
import {
  ALL_BINDINGS,
  at,
  contextFor,
  documentFor,
  findingsOf,
  node,
  NS,
  outcomeOf,
  sampleResult,
  skipOf,
  type DocOptions,
  type XNode,
} from '../../test/support/checks.js';
import { OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { parseXml } from '../xml/tree.js';

const SEARCH = NS.search;
const BOOK = NS.book;

/** Findings of shape for a full sample result of `op` edited by `edit`. */
function shaped(opName: string, edit: (r: XNode) => void, o: DocOptions & { binding?: BindingId } = {}) {
  const binding = o.binding ?? 'soap11';
  const r = o.result ?? sampleResult(opName, binding, { full: o.full ?? true });
  edit(r);
  return findingsOf(shape, contextFor(opName, binding, documentFor(opName, binding, { ...o, result: r })));
}

const remove = (parent: XNode, name: string) => {
  parent.children = parent.children.filter((c) => c.name !== name);
};
const rename = (n: XNode, name: string) => {
  n.name = name;
};
const MEALS = '/Envelope/Body/GetMealsResponse/getMealsResult';
const APR = '/Envelope/Body/AmendmentPriceRequestResponse/amendmentPriceRequestResult';

describe('shape passes on legitimate variations', () => {
  const variations: [string, DocOptions][] = [
    ['minimal (optional parts absent, nillable fields nil)', { full: false }],
    ['full (every optional part, lists of two, "not shown" content)', { full: true }],
    [
      'prefixed result namespace tns:, pretty-printed with CRLF',
      { full: true, prefix: 'tns', indent: '  ', eol: '\r\n' },
    ],
    [
      'xsi declared on each element, reversed attribute order',
      { full: false, xsiOnElements: true, reverseAttrs: true },
    ],
    ['xsi under another prefix', { full: false, xsiPrefix: 'i', envPrefix: 's' }],
  ];
  for (const [label, o] of variations) {
    test.each(OPERATIONS.flatMap((op) => ALL_BINDINGS.map((b) => [op.name, b] as const)))(
      `${label}: %s %s`,
      (name, b) => {
        expect(findingsOf(shape, contextFor(name, b, documentFor(name, b, o)))).toEqual([]);
      },
    );
  }

  test.each(['12.50', '+12.5', ' 12.5 ', '12', '.5', '\n\t12.5\n'])('decimal %j in Price', (v) => {
    expect(
      shaped('AmendmentPriceRequest', (r) => {
        at(r, 'Price').text = v;
      }),
    ).toEqual([]);
  });

  test.each([' 7 ', '+7', '007', '-2147483648'])('int %j in RoomId', (v) => {
    expect(
      shaped('AmendmentPriceRequest', (r) => {
        at(r, 'RoomId').text = v;
      }),
    ).toEqual([]);
  });

  test('an empty string element and an absent optional string', () => {
    expect(
      shaped('GetRoomTypes', (r) => {
        at(r, 'roomTypes/roomType[1]/name').text = '';
        remove(at(r, 'roomTypes/roomType[2]'), 'name');
      }),
    ).toEqual([]);
  });

  test('TransferRate items under any name, with undocumented attributes, decimals in other forms', () => {
    expect(
      shaped('SearchTransfers', (r) => {
        const rates = at(r, 'airports/airport[1]/transfers/transfer[1]/rates');
        rates.children = [
          node(
            'EUR',
            [
              ['currency', 'EUR'],
              ['net', 'true'],
            ],
            [],
            '+12.50',
          ),
          node('rate', [], [], '12'),
        ];
      }),
    ).toEqual([]);
  });

  test('open types: known fields in any order, unknown elements anywhere', () => {
    expect(
      shaped('SearchTransfers', (r) => {
        const t = at(r, 'airports/airport[1]/transfers/transfer[1]');
        t.children.reverse();
        t.children.splice(2, 0, node('vehicle', [['kind', 'bus']], [node('seats', [], [], 'many')]));
        t.children.push(node('other:x', [['xmlns:other', 'urn:other']]));
      }),
    ).toEqual([]);
  });

  test('"not shown" content: label, fee, cancellationfee hold anything', () => {
    expect(
      shaped('GetMeals', (r) => {
        at(r, 'meals/meal[1]/labels/label[1]').children.push(
          node('deep', [['x', '1']], [node('deeper', [], [], 'text')]),
        );
      }),
    ).toEqual([]);
    expect(
      shaped('AmendmentRequest', (r) => {
        at(r, 'AmendmentBooking/currentCancellationPolicyFee').children.push(
          node('fee', [], [node('amount', [['currency', 'EUR']], [], 'x')]),
        );
      }),
    ).toEqual([]);
    expect(
      shaped('CancelBooking', (r) => {
        at(r, 'CancellationPaymentMethod[1]/cancellationfee[1]').children.push(node('value', [], [], 'abc'));
      }),
    ).toEqual([]);
  });

  test("the real service's rates: elements instead of text, any of them; transferId after the rates", () => {
    expect(
      shaped('SearchTransfers', (r) => {
        const t = at(r, 'airports/airport[1]/transfers/transfer[1]');
        at(t, 'rates').children = [
          node(
            'rate',
            [],
            [
              node('direction', [], [], 'Arrival'),
              node('startHour', [], [], '0'),
              node('endHour', [], [], '24'),
              node('prices', [], [node('price', [['currency', 'EUR']], [], '45.00')]),
            ],
            '\n  ',
          ),
          node('rate'),
        ];
        t.children.splice(1, 0, node('transferId', [], [], '70112'));
      }),
    ).toEqual([]);
  });

  test('fee items may be nil; ErrorAttributes and label hold anything, nil included', () => {
    expect(
      shaped('AmendmentRequest', (r) => {
        at(r, 'AmendmentBooking/currentCancellationPolicyFee').children.unshift(node('fee', [['xsi:nil', 'true']]));
      }),
    ).toEqual([]);
    expect(
      shaped('GetMeals', (r) => {
        at(r, 'meals/meal[1]/labels').children.push(node('label', [['xsi:nil', 'true']]));
      }),
    ).toEqual([]);
  });

  test(
    'activecancellationpolicy holds text or the elements of a StaticPercentageCancellationPolicy (both ' + 'readings)',
    () => {
      const POLICY = 'CancellationPaymentMethod[1]/cancellation[1]/activecancellationpolicy';
      for (const b of ['get', 'post'] as const) {
        expect(
          shaped(
            'CancelBooking',
            (r) => {
              const p = at(r, POLICY);
              p.text = undefined;
              p.children = [node('deadline', [['xsi:nil', 'true']]), node('percentage', [], [], '0')];
            },
            { binding: b },
          ),
        ).toEqual([]);
        expect(
          shaped(
            'CancelBooking',
            (r) => {
              const p = at(r, POLICY);
              p.text = '\n';
              p.children = [
                node('deadline', [], [], '48'),
                node('percentage', [], [], '50'),
                node('text', [], [], 'Half'),
              ];
            },
            { binding: b },
          ),
        ).toEqual([]);
      }
    },
  );

  test("GetFeatures' feature with and without section 2.1's id; null strings left out (2.5, 2.6)", () => {
    expect(
      shaped('GetFeatures', (r) => {
        at(r, 'features/feature[1]').attrs = [
          ['id', '1'],
          ['name', 'Pool'],
        ];
        at(r, 'features/feature[2]').attrs = [];
      }),
    ).toEqual([]);
    expect(shaped('GetSpecialRequest', (r) => remove(r, 'text'))).toEqual([]);
    expect(shaped('UpdateSpecialRequest', (r) => remove(r, 'resultMessage'))).toEqual([]);
    expect(shaped('AmendmentPriceRequest', (r) => remove(r, 'Price'))).toEqual([]);
    expect(
      shaped('GetHotelNoteTypes', (r) => {
        at(r, 'noteTypes/noteType[1]').attrs = [['id', '4']];
      }),
    ).toEqual([]);
    expect(
      shaped('GetThemes', (r) => {
        at(r, 'themes/theme[1]').attrs = [['id', '4']];
      }),
    ).toEqual([]);
  });

  test('an in-band Error: the other fields may be absent; present ones still conform', () => {
    const error = () =>
      node('Error', [], [node('ErrorType', [], [], 'X.Y.ZException'), node('Message', [], [], 'No.')]);
    const outcome = (opName: string, children: XNode[], binding: BindingId = 'get') => {
      const r = sampleResult(opName, binding);
      r.children = children;
      return outcomeOf(shape, contextFor(opName, binding, documentFor(opName, binding, { result: r })));
    };
    // A valid call: not a finding, but a visible skip that says the data path was not reached.
    const inBand = {
      skipped: expect.stringMatching(
        /^answered with an in-band Error X\.Y\.ZException \("No\."\): not a contract violation/,
      ),
      inBandError: { type: 'X.Y.ZException', message: 'No.' },
    };
    expect(outcome('CancelBooking', [error(), node('Code', [], [], '-2')])).toEqual(inBand);
    expect(
      outcome(
        'AmendmentPriceRequest',
        [error(), node('ErrorAttributes', [], [node('item', [], [node('Key', [], [], 'k')])])],
        'soap12',
      ),
    ).toEqual(inBand);
    // A negative case (wrong credentials): the Error-only result conforms, nothing to say.
    const wc = sampleResult('GetMeals', 'post');
    wc.children = [error()];
    expect(
      findingsOf(
        shape,
        contextFor('GetMeals', 'post', documentFor('GetMeals', 'post', { result: wc }), {
          caseKind: 'wrong-credentials',
        }),
      ),
    ).toEqual([]);
    const bad = shaped(
      'CancelBooking',
      (r) => {
        r.children = [error(), node('Code', [], [], 'minus two')];
      },
      { binding: 'get' },
    );
    expect(bad.map((f) => f.message)).toEqual([
      'invalid xs:int value "minus two" of element Code: not an integer (optional sign, digits only)',
    ]);
    const late = shaped(
      'CancelBooking',
      (r) => {
        r.children = [node('Code', [], [], '-2'), error()];
      },
      { binding: 'get' },
    );
    expect(late.map((f) => f.message)).toEqual(['element Error out of order: expected before Code']);
  });

  test('a nil searchTransfersResult (nillable result)', () => {
    for (const b of ALL_BINDINGS) {
      const body = documentFor('SearchTransfers', b, { result: node('searchTransfersResult', [['xsi:nil', 'true']]) });
      expect(findingsOf(shape, contextFor('SearchTransfers', b, body))).toEqual([]);
    }
  });

  test('xsi:nil="1" and xsi:nil="false" with a value', () => {
    expect(
      shaped('GetRoomTypes', (r) => {
        at(r, 'roomTypes/roomType[1]/sharedFacilities').attrs.push(['xsi:nil', 'false']);
        const f = at(r, 'roomTypes/roomType[2]/sharedFacilities');
        f.text = undefined;
        f.attrs.push(['xsi:nil', '1']);
      }),
    ).toEqual([]);
  });

  test('xsi:type naming the declared type or a derived one', () => {
    expect(
      shaped('SearchTransfers', (r) => {
        at(r, 'airports/airport[1]/transfers/transfer[1]').attrs.push(['xsi:type', 'tns:StaticTransfer']);
      }),
    ).toEqual([]);
  });
});

describe('shape reports', () => {
  test('a missing required element, with a precise path', () => {
    const f = shaped('GetMeals', (r) => remove(at(r, 'meals/meal[2]'), 'id'));
    expect(f).toEqual([
      expect.objectContaining({
        check: 'shape',
        path: `${MEALS}/meals/meal[2]/id`,
        message: 'missing required element id in meal',
        expected: `{${SEARCH}}id`,
        actual: '(absent)',
      }),
    ]);
  });

  test('a missing required value-type element of a result (no kind stated: value types are always written)', () => {
    expect(shaped('CancelBooking', (r) => remove(r, 'Code'), { binding: 'get' })).toEqual([
      expect.objectContaining({ path: '/result/Code', message: 'missing required element Code in result' }),
    ]);
    // An optional list of a result (a reference type: a null list is left out) may be absent.
    expect(shaped('GetMeals', (r) => remove(r, 'meals'))).toEqual([]);
  });

  test('an invalid value at a precise path (second list item)', () => {
    const f = shaped('GetMeals', (r) => {
      at(r, 'meals/meal[2]/id').text = 'abc';
    });
    expect(f).toEqual([
      expect.objectContaining({ path: `${MEALS}/meals/meal[2]/id`, expected: 'xs:int', actual: 'abc' }),
    ]);
    expect(f[0]!.message).toBe('invalid xs:int value "abc" of element id: not an integer (optional sign, digits only)');
  });

  test('a duplicated singleton', () => {
    const f = shaped('AmendmentPriceRequest', (r) => {
      r.children.splice(2, 0, node('RoomId', [], [], '8'));
    });
    expect(f).toEqual([
      expect.objectContaining({
        path: `${APR}/RoomId[2]`,
        message: 'duplicated element RoomId: at most one allowed in amendmentPriceRequestResult',
      }),
    ]);
  });

  test('a duplicated singleton among more children than are compared pair by pair (over 16): the same paths', () => {
    let children = 0;
    const f = shaped('AmendmentPriceRequest', (r) => {
      for (let k = 0; k < 17; k++) r.children.splice(2, 0, node('RoomId', [], [], '8'));
      children = r.children.length;
    });
    expect(children).toBeGreaterThan(16);
    expect(f[0]).toEqual(
      expect.objectContaining({
        path: `${APR}/RoomId[2]`,
        message: 'duplicated element RoomId: at most one allowed in amendmentPriceRequestResult',
      }),
    );
    // As before the pair-by-pair search (the findings are bounded: three, then one counting the rest).
    expect(f.map((x) => [x.code, x.path.split('/').pop()])).toEqual([
      ['duplicated_element', 'RoomId[2]'],
      ['duplicated_element', 'RoomId[3]'],
      ['duplicated_element', 'RoomId[4]'],
      ['duplicated_element', 'RoomId'],
    ]);
  });

  test('an element out of order in a closed type', () => {
    const f = shaped('CancelTransferBooking', (r) => {
      r.children.reverse();
    });
    expect(f.map((x) => [x.path.split('/').pop(), x.message])).toEqual([
      ['currency', 'element currency out of order: expected before code'],
      ['cancellationFeeInLocalCurrency', 'element cancellationFeeInLocalCurrency out of order: expected before code'],
      ['cancellationFeeInEuros', 'element cancellationFeeInEuros out of order: expected before code'],
    ]);
    const g = shaped('CancelTransferBooking', (r) => {
      r.children.push(r.children.shift()!);
    });
    expect(g.map((x) => x.message)).toEqual(['element cancellationFeeInEuros out of order: expected before code']);
  });

  test('an unknown element in a closed type', () => {
    const f = shaped('GetSpecialRequest', (r) => {
      r.children.push(node('extra', [], [], 'x'));
    });
    expect(f).toEqual([
      expect.objectContaining({
        path: '/Envelope/Body/GetSpecialRequestResponse/getSpecialRequestResult/extra',
        message:
          `unknown element {${BOOK}}extra in getSpecialRequestResult: expected only Error, ` + `ErrorAttributes, text`,
      }),
    ]);
  });

  test('a name of the wrong case: unknown element plus missing element, both hinting the case', () => {
    const f = shaped('AmendmentPriceRequest', (r) => rename(at(r, 'RoomId'), 'roomid'));
    expect(f.map((x) => [x.path, x.message])).toEqual([
      [
        `${APR}/roomid`,
        `unknown element {${BOOK}}roomid in amendmentPriceRequestResult (names are case-sensitive: `
          + `roomid differs from RoomId only in letter case)`,
      ],
      [
        `${APR}/RoomId`,
        'missing required element RoomId in amendmentPriceRequestResult (an element roomid is present: '
          + 'names are case-sensitive)',
      ],
    ]);
  });

  test('a child element in another namespace (one finding, not also "missing")', () => {
    const f = shaped('GetSpecialRequest', (r) => {
      at(r, 'text').attrs.push(['xmlns', SEARCH]);
    });
    expect(f).toEqual([
      expect.objectContaining({
        path: '/Envelope/Body/GetSpecialRequestResponse/getSpecialRequestResult/text',
        expected: `{${BOOK}}text`,
        actual: `{${SEARCH}}text`,
        message: `element text in the search group's namespace (${SEARCH}) instead of the group namespace`,
      }),
    ]);
    const g = shaped('GetSpecialRequest', (r) => {
      at(r, 'text').attrs.push(['xmlns', '']);
    });
    expect(g[0]!.message).toBe('element text in no namespace (none) instead of the group namespace');
  });

  test('a known field of an open type in another namespace, when the field is missing', () => {
    const f = shaped('SearchTransfers', (r) => {
      at(r, 'airports/airport[1]/transfers/transfer[1]/transferTypeId').attrs.push(['xmlns', 'urn:x']);
    });
    expect(f).toHaveLength(1);
    expect(f[0]!.path).toMatch(/airport\[1\]\/transfers\/transfer\[1\]\/transferTypeId$/);
  });

  test('open types still need their required known fields, once, with valid values', () => {
    const f = shaped('SearchTransfers', (r) => {
      const t = at(r, 'airports/airport[2]/transfers/transfer[2]');
      remove(t, 'minimumPassengers');
      t.children.push(node('maximumPassengers', [], [], '9'));
      at(t, 'estimatedTimeInHours').text = 'two';
    });
    expect(f.map((x) => x.message).sort()).toEqual([
      'duplicated element maximumPassengers: at most one allowed in transfer',
      'invalid xs:int value "two" of element estimatedTimeInHours: not an integer (optional sign, digits only)',
      'missing required element minimumPassengers in transfer',
    ]);
  });

  test(
    'a rate with elements and text that is not a decimal; activecancellationpolicy with text and elements ' + 'at once',
    () => {
      const f = shaped('SearchTransfers', (r) => {
        at(r, 'airports/airport[1]/transfers/transfer[1]/rates').children = [
          node('rate', [], [node('direction', [], [], 'Arrival')], 'forty-five'),
        ];
      });
      expect(f.map((x) => x.message)).toEqual([
        'invalid xs:decimal value "forty-five" of element rate: not a decimal (optional sign, digits, '
          + 'optional fraction)',
      ]);
      const g = shaped(
        'CancelBooking',
        (r) => {
          const p = at(r, 'CancellationPaymentMethod[1]/cancellation[1]/activecancellationpolicy');
          p.text = 'Free';
          p.children = [node('deadline', [], [], '1'), node('percentage', [], [], '0')];
        },
        { binding: 'get' },
      );
      expect(g.map((x) => x.message)).toEqual([
        expect.stringMatching(
          /^text "Free" beside child elements in activecancellationpolicy: it holds either text or the elements/,
        ),
      ]);
      const h = shaped(
        'CancelBooking',
        (r) => {
          const p = at(r, 'CancellationPaymentMethod[1]/cancellation[1]/activecancellationpolicy');
          p.text = undefined;
          p.children = [node('percentage', [], [], 'x')];
        },
        { binding: 'post' },
      );
      expect(h.map((x) => x.message)).toEqual([
        'invalid xs:decimal value "x" of element percentage: not a decimal (optional sign, digits, optional fraction)',
        'missing required element deadline in activecancellationpolicy',
      ]);
    },
  );

  test('a TransferRate item with a non-decimal value', () => {
    const f = shaped('SearchTransfers', (r) => {
      at(r, 'airports/airport[1]/transfers/transfer[1]/rates/rate[2]').text = '1e3';
    });
    expect(f).toEqual([
      expect.objectContaining({
        message: 'invalid xs:decimal value "1e3" of element rate: exponent notation is not allowed in xs:decimal',
      }),
    ]);
    expect(f[0]!.path).toMatch(/\/rates\/rate\[2\]$/);
  });

  test('a missing required attribute and an unknown attribute', () => {
    const f = shaped('GetThemes', (r) => {
      const t = at(r, 'themes/theme[1]');
      t.attrs = t.attrs.filter(([k]) => k !== 'id');
      at(r, 'themes/theme[2]').attrs.push(['colour', 'red']);
    });
    const base = '/Envelope/Body/GetThemesResponse/getThemesResult/themes';
    expect(f.map((x) => [x.path, x.message])).toEqual([
      [`${base}/theme[1]/@id`, 'missing required attribute id on theme'],
      [`${base}/theme[2]/@colour`, 'unknown attribute colour on theme'],
    ]);
  });

  test('an attribute of the wrong case, and a qualified attribute', () => {
    const f = shaped('GetHotelNoteTypes', (r) => {
      const n = at(r, 'noteTypes/noteType[1]');
      n.attrs = [
        ['ID', '1'],
        ['text', 'x'],
      ];
    });
    expect(f.map((x) => x.message)).toEqual([
      'unknown attribute ID on noteType (names are case-sensitive: ID differs from id only in letter case)',
      'missing required attribute id on noteType (an attribute ID is present: names are case-sensitive)',
    ]);
    const g = shaped('GetHotelNoteTypes', (r) => {
      at(r, 'noteTypes/noteType[1]').attrs = [
        ['tns:id', '1'],
        ['xmlns:tns', SEARCH],
        ['text', 'x'],
      ];
    });
    expect(g.map((x) => x.message)).toEqual([
      `unknown attribute {${SEARCH}}id on noteType (attributes are unqualified: expected id without a namespace)`,
      'missing required attribute id on noteType (an attribute tns:id is present in a namespace: '
        + 'attributes are unqualified)',
    ]);
  });

  test('an invalid attribute value (intList, dateTime)', () => {
    const f = shaped('AmendmentPriceRequest', (r) => {
      at(r, 'hotelnotes/note[1]').attrs = [
        ['start_date', '2024-02-30T00:00:00'],
        ['end_date', '2024-05-01T00:00:00'],
      ];
    });
    expect(f).toEqual([
      expect.objectContaining({
        path: `${APR}/hotelnotes/note[1]/@start_date`,
        message:
          'invalid xs:dateTime value "2024-02-30T00:00:00" of attribute start_date: day 30 out of range for month 02',
      }),
    ]);
  });

  test('xsi:nil on a non-nillable element', () => {
    const f = shaped('GetMeals', (r) => {
      const id = at(r, 'meals/meal[1]/id');
      id.text = undefined;
      id.attrs.push(['xsi:nil', 'true']);
    });
    expect(f).toEqual([
      expect.objectContaining({ path: `${MEALS}/meals/meal[1]/id`, message: 'xsi:nil on id, which is not nillable' }),
    ]);
  });

  test('a nil element with content', () => {
    const f = shaped('GetRoomTypes', (r) => {
      at(r, 'roomTypes/roomType[1]/sharedFacilities').attrs.push(['xsi:nil', 'true']);
    });
    expect(f[0]!.message).toBe('nil element sharedFacilities with content (text "7"): a nil element must be empty');
    expect(f).toHaveLength(1);
  });

  test('an invalid xsi:nil value', () => {
    const f = shaped('GetRoomTypes', (r) => {
      at(r, 'roomTypes/roomType[1]/sharedFacilities').attrs.push(['xsi:nil', 'yes']);
    });
    expect(f[0]!.message).toBe('invalid xsi:nil value "yes" on sharedFacilities: expected true or false');
  });

  test('an empty value without nil on a typed element, hinting nil where nillable', () => {
    const f = shaped('GetRoomTypes', (r) => {
      at(r, 'roomTypes/roomType[1]/id').text = '';
      at(r, 'roomTypes/roomType[2]/sharedFacilities').text = ' ';
    });
    expect(f.map((x) => x.message)).toEqual([
      'empty value of element id: expected an xs:int value without xsi:nil',
      'empty value of element sharedFacilities: expected an xs:int value without xsi:nil (the element '
        + 'is nillable: no value is written as xsi:nil="true")',
    ]);
  });

  test('enumeration values: outside, wrong case, padded (xs:string keeps whitespace)', () => {
    const msg = (v: string) =>
      shaped('AmendmentPriceRequest', (r) => {
        at(r, 'BookingType').text = v;
      })[0]?.message;
    expect(msg('Partial')).toBe(
      'value "Partial" of element BookingType outside the enumeration BookingType: expected one of '
        + 'FullPeriod, ExtraDays, NoAmendmentAvailable',
    );
    expect(msg('fullperiod')).toContain('(values are case-sensitive)');
    expect(msg(' FullPeriod ')).toContain('surrounding whitespace');
    expect(msg('')).toBe(
      'empty value of element BookingType: expected one of FullPeriod, ExtraDays, NoAmendmentAvailable without xsi:nil',
    );
    expect(msg('ExtraDays')).toBeUndefined();
  });

  test('lexical forms of dateTime, double and boolean (the latter two on model types no operation returns)', () => {
    const f = shaped('AmendmentRequest', (r) => {
      at(r, 'OriginalBooking/currentCancellationPolicyDeadline').text = '2024-05-01';
    });
    expect(f[0]!.message).toBe(
      'invalid xs:dateTime value "2024-05-01" of element currentCancellationPolicyDeadline: not of the '
        + 'form YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]',
    );
    const walk = (type: string, xml: string) =>
      shapeFindings(parseXml(`<x xmlns="${SEARCH}">${xml}</x>`).root, type, '/x', SEARCH).map((y) => y.message);
    expect(walk('CoordinatePair', '<latitude>-INF</latitude><longitude>1.5E3</longitude>')).toEqual([]);
    expect(walk('CoordinatePair', '<latitude>1,5</latitude><longitude>inf</longitude>')).toEqual([
      'invalid xs:double value "1,5" of element latitude: not an xs:double (decimal, exponent, INF, -INF or NaN)',
      'invalid xs:double value "inf" of element longitude: not an xs:double (decimal, exponent, INF, -INF or NaN)',
    ]);
    expect(walk('Fee', '<includedInPrice> 1 </includedInPrice>')).toEqual([]);
    expect(walk('Fee', '<includedInPrice>True</includedInPrice>')).toEqual([
      'invalid xs:boolean value "True" of element includedInPrice: not an xs:boolean (true, false, 1 or 0)',
    ]);
  });

  test('string fields accept any text', () => {
    expect(
      shaped('GetRoomTypes', (r) => {
        at(r, 'roomTypes/roomType[1]/name').text = ' 1,5 <&> ';
      }),
    ).toEqual([]);
  });

  test('text in an element-only element and elements in a simple element', () => {
    const f = shaped('GetSpecialRequest', (r) => {
      r.text = 'oops';
      at(r, 'text').children.push(node('b'));
    });
    expect(f.map((x) => x.message)).toEqual([
      'text "oops" in getSpecialRequestResult, whose type GetSpecialRequestResult holds only elements',
      `child element {${BOOK}}b in text, whose content is a xs:string value`,
    ]);
  });

  test('an unknown item in a list, hinting the case', () => {
    const f = shaped('GetMeals', (r) => rename(at(r, 'meals/meal[1]'), 'Meal'));
    expect(f).toEqual([
      expect.objectContaining({
        path: `${MEALS}/meals/Meal`,
        message:
          `unknown element {${SEARCH}}Meal in the list meals: expected meal items (names are `
          + `case-sensitive: Meal differs from meal only in letter case)`,
      }),
    ]);
  });

  test('an item in another namespace and text in a list wrapper', () => {
    const f = shaped('GetMeals', (r) => {
      at(r, 'meals/meal[1]').attrs.push(['xmlns', 'urn:other']);
      at(r, 'meals').text = 'x';
    });
    expect(f.map((x) => x.message)).toEqual([
      'text "x" in the list meals, which holds only meal elements',
      'element meal in another namespace (urn:other) instead of the group namespace',
    ]);
  });

  test('a value in the content of a MonetaryValue that is not a decimal, and a bad paymentMethods list', () => {
    const f = shaped('AmendmentPriceRequest', (r) => {
      at(r, 'Price').text = 'EUR 12';
    });
    expect(f[0]!.message).toContain('invalid xs:decimal value "EUR 12" of element Price');
    const g = shaped('AmendmentPriceRequest', (r) => {
      at(r, 'Price').children.push(node('amount', [], [], '1'));
    });
    expect(g[0]!.message).toBe(
      `child element {${BOOK}}amount in Price, whose content is a MonetaryValue (simple content) value`,
    );
  });

  test('an xsi:type naming an unrelated type', () => {
    const f = shaped('SearchTransfers', (r) => {
      at(r, 'airports/airport[1]').attrs.push(['xsi:type', 'Hotel']);
    });
    expect(f[0]!.message).toBe('xsi:type "Hotel" on airport does not name a type derived from Airport');
  });

  test('a nil searchTransfersResult with content', () => {
    const r = sampleResult('SearchTransfers', 'get', { full: true });
    r.attrs.push(['xsi:nil', 'true']);
    const f = findingsOf(
      shape,
      contextFor('SearchTransfers', 'get', documentFor('SearchTransfers', 'get', { result: r })),
    );
    expect(f).toEqual([
      expect.objectContaining({
        path: '/searchTransfersResult',
        message: 'nil element searchTransfersResult with content (child element airports): a nil element must be empty',
      }),
    ]);
  });
});

describe('shape skips', () => {
  test('when the result element is missing (result_element reports it) or nil where not allowed', () => {
    expect(skipOf(shape, contextFor('GetMeals', 'get', documentFor('GetMeals', 'get', { ns: BOOK })))).toContain(
      'result_element',
    );
    expect(
      skipOf(
        shape,
        contextFor(
          'GetMeals',
          'get',
          documentFor('GetMeals', 'get', { result: node('getMealsResult', [['xsi:nil', 'true']]) }),
        ),
      ),
    ).toContain('result_element');
  });
  test('when the body is not XML', () => {
    expect(skipOf(shape, contextFor('GetMeals', 'get', '<getMealsResult>'))).toContain('xml_wellformed');
  });
});
