/** The model-driven serialiser: order, attributes, lists, nil, simple and open content, options, strictness. */
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation } from '../contract/catalogue.js';
import { allTypes, effective } from '../contract/model.js';
import { parseXml, XSI_NS } from '../xml/tree.js';
import { serializeElement, serializeResult, SerializeError, type SerializeOptions } from './serialize.js';
import { canon } from '../../test/support/mock.js';

const NS = 'urn:test:1/';
const root: SerializeOptions = { ns: NS, declareNamespace: true };
const inner: SerializeOptions = { ns: NS, declareNamespace: false };

describe('driven by the type model', () => {
  test('fields in model order whatever the key order; base fields first', () => {
    const xml = serializeElement(
      'transfer',
      'StaticTransfer',
      {
        transferTypeName: 'Private taxi',
        estimatedTimeInMinutes: 25,
        estimatedTimeInHours: 0,
        maximumPassengers: 3,
        minimumPassengers: 1,
        transferTypeId: 2,
        rates: [{ currency: 'EUR', $text: '89.00' }],
      },
      inner,
    );
    expect(xml).toBe(
      '<transfer><rates><TransferRate currency="EUR">89.00</TransferRate></rates><transferTypeId>2</transferTypeId>'
        + '<minimumPassengers>1</minimumPassengers><maximumPassengers>3</maximumPassengers><estimatedTimeInHours>0</estimatedTimeInHours>'
        + '<estimatedTimeInMinutes>25</estimatedTimeInMinutes><transferTypeName>Private '
        + 'taxi</transferTypeName></transfer>',
    );
  });

  test('attributes unqualified in model order, escaped; optional ones left out', () => {
    const xml = serializeElement('theme', 'Theme', { image: 'a.png?x=1&y="2"', id: 7 }, inner);
    expect(xml).toBe('<theme id="7" image="a.png?x=1&amp;y=&quot;2&quot;"/>');
  });

  test('list wrappers with the model item names; [] is an empty wrapper; absent is no element', () => {
    const xml = serializeElement(
      'r',
      'AmendmentPriceRequestResult',
      {
        Price: { $text: '12.50' },
        RoomId: 1,
        hotelnotes: [],
        BookingType: 'FullPeriod',
        cancellation_policies: [{ deadline: 3, percentage: '50' }],
      },
      inner,
    );
    expect(xml).toBe(
      '<r><Price>12.50</Price><RoomId>1</RoomId><hotelnotes/><cancellation_policies><cancellation_policy>'
        + '<deadline>3</deadline><percentage>50</percentage></cancellation_policy></cancellation_policies><BookingType>FullPeriod</BookingType></r>',
    );
  });

  test('wildcard list items named by $element, else by the item type', () => {
    const xml = serializeElement(
      't',
      'NonStaticTransfer',
      { rates: [{ $text: '1' }, { $element: 'rate', currency: 'SEK', $text: '2.5' }] },
      inner,
    );
    expect(xml).toBe('<t><rates><TransferRate>1</TransferRate><rate currency="SEK">2.5</rate></rates></t>');
  });

  test('null is xsi:nil on nillable elements, with the configured xsi prefix', () => {
    expect(serializeElement('c', 'CoordinatePair', { latitude: null, longitude: '8.55' }, inner)).toBe(
      '<c><latitude xsi:nil="true"/><longitude>8.55</longitude></c>',
    );
    const xml = serializeElement(
      'c',
      'CoordinatePair',
      { latitude: null, longitude: null },
      { ...root, xsiPrefix: 'i' },
    );
    expect(xml).toBe(`<c xmlns="${NS}" xmlns:i="${XSI_NS}"><latitude i:nil="true"/><longitude i:nil="true"/></c>`);
    const el = parseXml(xml).root.children[0]!;
    expect(el.attrs).toEqual([{ ns: XSI_NS, local: 'nil', prefix: 'i', value: 'true' }]);
  });

  test('a nillable result element may itself be nil', () => {
    const op = findOperation('SearchTransfers')!;
    expect(serializeResult(op, null, { ns: NS, declareNamespace: true })).toBe(
      `<searchTransfersResult xmlns="${NS}" xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`,
    );
  });

  test('repeated elements without wrapper; open content and anyType written as given, text escaped', () => {
    const xml = serializeElement(
      'result',
      'CancelBookingResult',
      {
        Code: 0,
        CancellationPaymentMethod: [
          {
            id: 1,
            name: 'Crème & brûlée',
            cancellationfee: [
              { currency: 'EUR', $content: '12.50' },
              { currency: 'CHF', $content: [{ $element: 'v', $content: '1 < 2' }] },
            ],
            cancellation: [
              { type: 'free', activecancellationpolicy: 'Zürich <free>' },
              { type: 'x', activecancellationpolicy: null },
            ],
          },
        ],
      },
      inner,
    );
    expect(xml).toBe(
      '<result><Code>0</Code><CancellationPaymentMethod id="1" name="Crème &amp; brûlée">'
        + '<cancellationfee currency="EUR">12.50</cancellationfee><cancellationfee currency="CHF"><v>1 '
        + '&lt; 2</v></cancellationfee>'
        + '<cancellation type="free"><activecancellationpolicy>Zürich '
        + '&lt;free&gt;</activecancellationpolicy></cancellation>'
        + '<cancellation type="x"><activecancellationpolicy '
        + 'xsi:nil="true"/></cancellation></CancellationPaymentMethod></result>',
    );
    const labels = serializeElement(
      'meal',
      'Meal',
      { id: 1, name: '日本語', labels: [[{ $element: 'id', $content: '3' }, 'text'], 'plain'] },
      inner,
    );
    expect(labels).toBe(
      '<meal><id>1</id><name>日本語</name><labels><label><id>3</id>text</label><label>plain</label></labels></meal>',
    );
  });

  test('intList attributes, booleans and numbers in lexical form', () => {
    expect(
      serializeElement(
        'p',
        'MonetaryValueWithPaymentMethods',
        { currency: 'EUR', paymentMethods: [1, 2, 3], $text: '0.50' },
        inner,
      ),
    ).toBe('<p currency="EUR" paymentMethods="1 2 3">0.50</p>');
    expect(serializeElement('f', 'Fee', { includedInPrice: false }, inner)).toBe(
      '<f><includedInPrice>false</includedInPrice></f>',
    );
  });

  test('CR in text survives as a character reference', () => {
    expect(serializeElement('g', 'GetSpecialRequestResult', { text: 'a\r\nb' }, inner)).toBe(
      '<g><text>a&#13;\nb</text></g>',
    );
  });

  test('no type of the model uses one name for a field and an attribute (the data keys would clash)', () => {
    for (const t of allTypes()) {
      if (t.kind !== 'complex') continue;
      const e = effective(t.name);
      const fields = new Set(e.fields.flatMap((f) => (f.kind === 'element' ? [f.name] : [])));
      for (const a of e.attributes) expect(fields.has(a.name), `${t.name}.${a.name}`).toBe(false);
    }
  });
});

describe('options give other legitimate serialisations of the same infoset', () => {
  const op = findOperation('AmendmentPriceRequest')!;
  const value = {
    Price: { currency: 'EUR', $text: '447.50' },
    RoomId: 5521,
    hotelnotes: [{ start_date: '2025-06-01T00:00:00', end_date: '2025-06-05T23:59:59', text: 'Ελληνικά' }],
    cancellation_policies: [{ deadline: null, percentage: '100' }],
    BookingType: 'ExtraDays',
  };
  const ns = DEFAULT_NAMESPACES.book;
  const base = serializeResult(op, value, { ns, declareNamespace: true });

  test.for([
    ['prefixed', { prefix: 'b' }],
    ['pretty', { pretty: true }],
    ['pretty with tabs, prefixed, other xsi prefix', { pretty: '\t', prefix: 'bk', xsiPrefix: 'inst' }],
  ] as const)('%s', ([, opts]) => {
    const other = serializeResult(op, value, { ns, declareNamespace: true, ...opts });
    expect(other).not.toBe(base);
    expect(canon(parseXml(other).root)).toEqual(canon(parseXml(base).root));
  });

  test('inside a SOAP response wrapper nothing is declared', () => {
    const xml = serializeResult(op, value, { ns, declareNamespace: false });
    expect(xml.startsWith('<amendmentPriceRequestResult><Price')).toBe(true);
  });
});

describe('strict mode names the path of data that does not fit the model', () => {
  test.for([
    [
      'required element missing',
      'RoomType',
      { sharedRoom: 0, sharedFacilities: null },
      /\/x\/id: required element missing/,
    ],
    ['null on a non-nillable element', 'Language', { isoCode: null, name: 'x' }, /\/x\/isoCode: null given/],
    ['unknown key', 'Language', { isoCode: 'en', name: 'x', nmae: 'y' }, /"nmae" is neither a field nor an attribute/],
    ['bad int', 'RoomType', { id: 'one', sharedRoom: 0, sharedFacilities: null }, /\/x\/id: "one" is not a valid int/],
    [
      'bad enum',
      'AmendmentBookingRecord',
      { bookingStatus: 'Done', currentCancellationPolicyDeadline: '2025-01-01T00:00:00' },
      /"Done" is not one of BookingStatus/,
    ],
    ['required attribute missing', 'NoteType', { text: 'x' }, /\/x\/@id: required attribute missing/],
    ['list not an array', 'GetLanguagesResult', { languages: { isoCode: 'en' } }, /languages: a list needs an array/],
    ['simple content missing', 'MonetaryValue', { currency: 'EUR' }, /simple content/],
  ] as const)('%s', ([, type, value, message]) => {
    expect(() => serializeElement('x', type, value, inner)).toThrow(SerializeError);
    expect(() => serializeElement('x', type, value, inner)).toThrow(message);
  });

  test('strict: false writes what it is given (for fault injection)', () => {
    expect(serializeElement('x', 'Language', { name: 'x', extra: 'y' }, { ...inner, strict: false })).toBe(
      '<x><name>x</name></x>',
    );
    expect(
      serializeElement('x', 'RoomType', { id: 'one', sharedRoom: 0, sharedFacilities: 1 }, { ...inner, strict: false }),
    ).toBe('<x><id>one</id><sharedRoom>0</sharedRoom><sharedFacilities>1</sharedFacilities></x>');
  });
});

describe('an in-band rejection (BaseResult Error) leaves out what it does not hold, in strict mode too', () => {
  const error = {
    Error: {
      ErrorType: 'System.Security.Authentication.AuthenticationException',
      Message: 'Invalid username or password.',
    },
  };
  test.for([
    'AmendmentPriceRequestResult',
    'CancelBookingResult',
    'CancelTransferBookingResult',
    'UpdateSpecialRequestResult',
  ] as const)('%s holding only Error', (type) => {
    expect(serializeElement('x', type, error, inner)).toBe(
      '<x><Error><ErrorType>System.Security.Authentication.AuthenticationException</ErrorType><Message>Invalid '
        + 'username or password.</Message></Error></x>',
    );
  });
  test('without the Error, a required field is still required', () => {
    expect(() => serializeElement('x', 'AmendmentPriceRequestResult', { BookingType: 'FullPeriod' }, inner)).toThrow(
      /\/x\/RoomId: required element missing/,
    );
  });
});
