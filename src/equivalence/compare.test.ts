import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation, type BindingId } from '../contract/catalogue.js';
import { CheckContext, type CaseKind } from '../checks/context.js';
import type { Finding } from '../core/types.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../xml/tree.js';
import { compareBindings, compareViews } from './compare.js';
import { bindingViewOf, type BindingView } from './binding-view.js';
import { ENTRY_BLOCK } from './entry-digest.js';

const NS = DEFAULT_NAMESPACES.search;
const BNS = DEFAULT_NAMESPACES.book;
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const ALL: BindingId[] = ['soap11', 'soap12', 'get', 'post'];

/** A response document for a binding: the result element wrapped as the binding wraps it. */
function doc(b: BindingId, opName: string, result: string, ns = NS, style: 'plain' | 'prefixed' = 'plain'): string {
  if (b === 'get' || b === 'post') return `<?xml version="1.0" encoding="utf-8"?>${result}`;
  const env = b === 'soap11' ? SOAP11_ENV_NS : SOAP12_ENV_NS;
  const p = style === 'prefixed' ? 'SOAP-ENV' : 'soap';
  return (
    `<${p}:Envelope xmlns:${p}="${env}" xmlns:xsi="${XSI}"><${p}:Body>`
    + `<${opName}Response xmlns="${ns}">${result}</${opName}Response></${p}:Body></${p}:Envelope>`
  );
}

function ctx(opName: string, b: BindingId, body: string, status = 200, kind: CaseKind = 'valid'): CheckContext {
  const op = findOperation(opName)!;
  const ct =
    b === 'soap12'
      ? 'application/soap+xml; charset=utf-8'
      : status === 500 && (b === 'get' || b === 'post')
        ? 'text/plain'
        : 'text/xml; charset=utf-8';
  return new CheckContext({
    op,
    binding: b,
    caseId: 'default',
    caseKind: kind,
    namespaces: DEFAULT_NAMESPACES,
    exchange: {
      request: { method: 'GET', url: 'http://t/', headers: {} },
      response: { status, headers: { 'content-type': ct }, body: Buffer.from(body), elapsedMs: 1 },
    },
    validator: { validate: () => ({ xsdErrors: [] }) },
  });
}

function run(
  opName: string,
  bodies: Partial<Record<BindingId, { body: string; status?: number }>>,
  kind: CaseKind = 'valid',
) {
  const bindings = Object.keys(bodies) as BindingId[];
  const contexts = new Map(bindings.map((b) => [b, ctx(opName, b, bodies[b]!.body, bodies[b]!.status ?? 200, kind)]));
  return compareBindings(findOperation(opName)!, kind, bindings, contexts);
}

function findings(rows: ReturnType<typeof run>): (Finding & { binding?: string })[] {
  return rows.flatMap((r) => (Array.isArray(r.outcome) ? r.outcome.map((f) => ({ ...f, binding: r.binding })) : []));
}

const meals = (items: string[], root = `<getMealsResult xmlns="${NS}">`) =>
  `${root}<meals>${items.join('')}</meals></getMealsResult>`;
const meal = (id: string, name: string) => `<meal><id>${id}</id><name>${name}</name></meal>`;
const THREE = [meal('1', 'Breakfast'), meal('2', 'Half board'), meal('3', 'Crème brûlée')];

describe('binding equivalence', () => {
  test('equal results in different legitimate serialisations are equivalent', () => {
    const pretty =
      `<getMealsResult xmlns="${NS}">\n  <meals>\n${THREE.map((m) => `    ${m}\n`).join('')}  `
      + `</meals>\n</getMealsResult>`;
    const prefixed = `<t:getMealsResult xmlns:t="${NS}"><t:meals>${[
      ['+1', 'Breakfast'],
      ['02', 'Half board'],
      ['3', 'Crème brûlée'],
    ]
      .map(([i, n]) => `<t:meal><t:id>${i}</t:id><t:name>${n}</t:name></t:meal>`)
      .join('')}</t:meals></t:getMealsResult>`;
    const rows = run('GetMeals', {
      soap11: { body: doc('soap11', 'GetMeals', meals(THREE).replace(` xmlns="${NS}"`, ''), NS, 'prefixed') },
      soap12: { body: doc('soap12', 'GetMeals', meals(THREE).replace(` xmlns="${NS}"`, '')) },
      get: { body: doc('get', 'GetMeals', pretty) },
      post: { body: doc('post', 'GetMeals', prefixed) },
    });
    expect(rows).toEqual([{ outcome: [] }]);
  });

  test('a SOAP 1.2 result that drops one list item is caught and pinpointed', () => {
    const inner = (items: string[]) => meals(items).replace(` xmlns="${NS}"`, '');
    const rows = run('GetMeals', {
      soap11: { body: doc('soap11', 'GetMeals', inner(THREE)) },
      soap12: { body: doc('soap12', 'GetMeals', inner(THREE.slice(0, 2))) },
      get: { body: doc('get', 'GetMeals', meals(THREE)) },
      post: { body: doc('post', 'GetMeals', meals(THREE)) },
    });
    const [f, ...more] = findings(rows);
    expect(more).toEqual([]);
    expect(f!.binding).toBe('soap12');
    expect(f!.path).toBe('/getMealsResult/meals/meal[3]');
    expect(f!.message).toContain('soap12 departs from soap11, get, post');
    expect(f!.message).toContain('soap12="(absent)"');
    // The missing item is named by its content, and the canonical forms are diffed.
    expect(f!.message).toContain('soap11=<meal id=3 name="Crème brûlée">');
    expect(f!.expected).toBe('soap11, get, post: <meal id=3 name="Crème brûlée">');
    expect(f!.diff).toBe(
      [
        '--- soap11, get, post (majority)',
        '+++ soap12',
        '@@ -6,6 +6,3 @@',
        '     meal',
        '       id = 2',
        '       name = "Half board"',
        '-    meal',
        '-      id = 3',
        '-      name = "Crème brûlée"',
      ].join('\n'),
    );
  });

  test('a POST result that changes one attribute value is caught and pinpointed', () => {
    const themes = (second: string) =>
      `<getThemesResult xmlns="${NS}"><themes><theme id="1" name="Beach"/><theme name="${second}" `
      + `id="2" image="ski.png"/></themes></getThemesResult>`;
    const rows = run('GetThemes', {
      soap11: { body: doc('soap11', 'GetThemes', themes('Ski').replace(` xmlns="${NS}"`, '')) },
      soap12: { body: doc('soap12', 'GetThemes', themes('Ski').replace(` xmlns="${NS}"`, '')) },
      get: { body: doc('get', 'GetThemes', themes('Ski')) },
      post: { body: doc('post', 'GetThemes', themes('Skiing')) },
    });
    const [f] = findings(rows);
    expect(f!.binding).toBe('post');
    expect(f!.path).toBe('/getThemesResult/themes/theme[2]/@name');
    expect(f!.expected).toBe('soap11, soap12, get: Ski');
    expect(f!.actual).toBe('post: Skiing');
  });

  test('attribute order, decimal forms and dateTime zones are not differences; a changed value is', () => {
    const price = (v: string, attrs: string) =>
      `<amendmentPriceRequestResult xmlns="${BNS}"><Price ${attrs}>${v}</Price><RoomId>7</RoomId>`
      + `<hotelnotes><note end_date="2027-03-17T00:00:00Z" `
      + `start_date="2027-03-10T01:00:00+01:00"><text>x</text></note></hotelnotes>`
      + `<BookingType>FullPeriod</BookingType></amendmentPriceRequestResult>`;
    const inner = (v: string) => price(v, 'currency="EUR"').replace(` xmlns="${BNS}"`, '');
    const ok = run('AmendmentPriceRequest', {
      soap11: { body: doc('soap11', 'AmendmentPriceRequest', inner('12.50'), BNS) },
      get: {
        body: doc(
          'get',
          'AmendmentPriceRequest',
          price('12.5', 'currency="EUR"').replace(
            'start_date="2027-03-10T01:00:00+01:00"',
            'start_date="2027-03-10T00:00:00Z"',
          ),
        ),
      },
    });
    expect(ok).toEqual([{ outcome: [] }]);
    const bad = run('AmendmentPriceRequest', {
      soap11: { body: doc('soap11', 'AmendmentPriceRequest', inner('12.50'), BNS) },
      get: { body: doc('get', 'AmendmentPriceRequest', price('12.51', 'currency="EUR"')) },
    });
    const [f] = findings(bad);
    // Only two bindings: no majority, the pair is named.
    expect(f!.binding).toBe('soap11,get');
    expect(f!.path).toBe('/amendmentPriceRequestResult/Price/text()');
    expect(f!.message).toContain('no majority');
    expect(f!.message).toContain('soap11="12.5"');
    expect(f!.message).toContain('get="12.51"');
  });

  test('xsi:type naming the declared type, under any prefix, is no difference; naming another type is', () => {
    const typed =
      `<getMealsResult xmlns="${NS}" xmlns:i="${XSI}" xmlns:t="${NS}" i:type="t:GetMealsResult"><meals>`
      + THREE.map((m) =>
        m
          .replace('<meal>', '<meal i:type="Meal">')
          .replace('<id>', '<id i:type="xsd:int" xmlns:xsd="http://www.w3.org/2001/XMLSchema">'),
      ).join('')
      + '</meals></getMealsResult>';
    const same = run('GetMeals', {
      soap11: { body: doc('soap11', 'GetMeals', meals(THREE)) },
      get: { body: doc('get', 'GetMeals', typed) },
      post: { body: doc('post', 'GetMeals', meals(THREE)) },
    });
    expect(same).toEqual([{ outcome: [] }]);
    const other = run('GetMeals', {
      soap11: { body: doc('soap11', 'GetMeals', meals(THREE)) },
      get: {
        body: doc(
          'get',
          'GetMeals',
          meals([THREE[0]!.replace('<meal>', `<meal xmlns:i="${XSI}" i:type="SpecialMeal">`), THREE[1]!, THREE[2]!]),
        ),
      },
      post: { body: doc('post', 'GetMeals', meals(THREE)) },
    });
    const [f] = findings(other);
    expect(f!.binding).toBe('get');
    expect(f!.path).toBe(`/getMealsResult/meals/meal[1]/@{${XSI}}type`);
  });

  test('an attribute only one binding has is named by its own path', () => {
    const rows = run('GetHotelNoteTypes', {
      soap11: {
        body: doc(
          'soap11',
          'GetHotelNoteTypes',
          `<getHotelNoteTypesResult><noteTypes><noteType id="1" text="A"/></noteTypes></getHotelNoteTypesResult>`,
        ),
      },
      soap12: {
        body: doc(
          'soap12',
          'GetHotelNoteTypes',
          `<getHotelNoteTypesResult><noteTypes><noteType id="1" text="A"/></noteTypes></getHotelNoteTypesResult>`,
        ),
      },
      get: {
        body: doc(
          'get',
          'GetHotelNoteTypes',
          `<getHotelNoteTypesResult xmlns="${NS}"><noteTypes><noteType id="1" lang="en" `
            + `text="A"/></noteTypes></getHotelNoteTypesResult>`,
        ),
      },
    });
    const [f] = findings(rows);
    expect(f!.binding).toBe('get');
    expect(f!.path).toBe('/getHotelNoteTypesResult/noteTypes/noteType[1]/@lang');
    expect(f!.message).toContain('soap11="(absent)"');
  });

  test(
    'a valid call every binding answers with an in-band Error: the same ErrorType, or a finding naming '
      + 'the departing binding',
    () => {
      const err = (type: string) =>
        `<result `
        + `xmlns="${BNS}"><Error><ErrorType>${type}</ErrorType><Message>m</Message></Error><Code>-2</Code></result>`;
      const same = run(
        'CancelBooking',
        Object.fromEntries(ALL.map((b) => [b, { body: doc(b, 'CancelBooking', err('A.CancelledException'), BNS) }])),
      );
      expect(same).toEqual([{ outcome: [] }]);
      const rows = run(
        'CancelBooking',
        Object.fromEntries(
          ALL.map((b) => [
            b,
            { body: doc(b, 'CancelBooking', err(b === 'post' ? 'A.NotFoundException' : 'A.CancelledException'), BNS) },
          ]),
        ),
      );
      const [f] = findings(rows);
      expect(f).toMatchObject({
        binding: 'post',
        path: '/result/Error/ErrorType',
        actual: 'post: A.NotFoundException',
      });
      expect(f!.message).toMatch(/^bindings answer with different in-band Errors: soap11=A\.CancelledException/);
      // In a negative case the error forms may differ (a fault on one binding, an Error on another): not compared.
      expect(
        findings(
          run(
            'CancelBooking',
            Object.fromEntries(ALL.map((b) => [b, { body: doc(b, 'CancelBooking', err(b), BNS) }])),
            'wrong-credentials',
          ),
        ),
      ).toEqual([]);
    },
  );

  test(
    "a state-changing call is compared by shape: values (and nil) that belong to each binding's booking "
      + 'are not a difference; an element against a value is',
    () => {
      const cancel = (policy: string) =>
        `<result xmlns="${BNS}" xmlns:xsi="${XSI}"><Code>1</Code><CancellationPaymentMethod `
        + `id="1"><cancellation>${policy}</cancellation></CancellationPaymentMethod></result>`;
      const elements = (pct: string) =>
        `<activecancellationpolicy><deadline `
        + `xsi:nil="true"/><percentage>${pct}</percentage></activecancellationpolicy>`;
      const bodies = (post: string) => ({
        soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        soap12: { body: doc('soap12', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        get: { body: doc('get', 'CancelBooking', cancel(elements('0'))) },
        post: { body: doc('post', 'CancelBooking', cancel(post)) },
      });
      expect(run('CancelBooking', bodies(elements('0.00')))).toEqual([{ outcome: [] }]);
      expect(run('CancelBooking', bodies(elements('50')))).toEqual([{ outcome: [] }]);
      expect(
        run(
          'CancelBooking',
          bodies(
            '<activecancellationpolicy><deadline xsi:nil="true"/><percentage '
              + 'xsi:nil="true"/></activecancellationpolicy>',
          ),
        ),
      ).toEqual([{ outcome: [] }]);
      // The same answers for a read (values compared): the difference is found.
      expect(
        findings(
          run('AmendmentPriceRequest', {
            soap11: {
              body: doc(
                'soap11',
                'AmendmentPriceRequest',
                `<amendmentPriceRequestResult xmlns="${BNS}"><RoomId>1</RoomId></amendmentPriceRequestResult>`,
                BNS,
              ),
            },
            soap12: {
              body: doc(
                'soap12',
                'AmendmentPriceRequest',
                `<amendmentPriceRequestResult xmlns="${BNS}"><RoomId>1</RoomId></amendmentPriceRequestResult>`,
                BNS,
              ),
            },
            get: {
              body: doc(
                'get',
                'AmendmentPriceRequest',
                `<amendmentPriceRequestResult xmlns="${BNS}"><RoomId>1</RoomId></amendmentPriceRequestResult>`,
              ),
            },
            post: {
              body: doc(
                'post',
                'AmendmentPriceRequest',
                `<amendmentPriceRequestResult xmlns="${BNS}"><RoomId>2</RoomId></amendmentPriceRequestResult>`,
              ),
            },
          }),
        ).map((f) => f.code),
      ).toEqual(['value_differs']);
    },
  );

  test('xsi:nil is distinguished from empty', () => {
    const rt = (sf: string) =>
      `<getRoomTypesResult xmlns="${NS}" `
      + `xmlns:xsi="${XSI}"><roomTypes><roomType><id>1</id><sharedRoom>0</sharedRoom>${sf}</roomType></roomTypes></getRoomTypesResult>`;
    const rows = run('GetRoomTypes', {
      soap11: { body: doc('soap11', 'GetRoomTypes', rt('<sharedFacilities xsi:nil="true"/>')) },
      soap12: { body: doc('soap12', 'GetRoomTypes', rt('<sharedFacilities xsi:nil="true"/>')) },
      get: { body: doc('get', 'GetRoomTypes', rt('<sharedFacilities xsi:nil="true"/>')) },
      post: { body: doc('post', 'GetRoomTypes', rt('<sharedFacilities></sharedFacilities>')) },
    });
    const [f] = findings(rows);
    expect(f!.binding).toBe('post');
    expect(f!.path).toBe('/getRoomTypesResult/roomTypes/roomType[1]/sharedFacilities');
  });

  describe('the documented difference (activecancellationpolicy)', () => {
    const cancel = (policy: string, code = '0') =>
      `<result xmlns="${BNS}" xmlns:xsi="${XSI}"><Code>${code}</Code>`
      + `<CancellationPaymentMethod id="1" name="Card"><cancellationfee currency="EUR">12.50</cancellationfee>`
      + `<cancellation type="full">${policy}</cancellation></CancellationPaymentMethod></result>`;
    test('nil in SOAP and text in GET/POST is not a difference', () => {
      const rows = run('CancelBooking', {
        soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        soap12: { body: doc('soap12', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        get: {
          body: doc(
            'get',
            'CancelBooking',
            cancel('<activecancellationpolicy>Free until 48 h</activecancellationpolicy>'),
          ),
        },
        post: {
          body: doc(
            'post',
            'CancelBooking',
            cancel('<activecancellationpolicy>Free until 48 h</activecancellationpolicy>'),
          ),
        },
      });
      expect(rows).toEqual([{ outcome: [] }]);
    });
    test('anything else that differs in the same result is still caught', () => {
      const rows = run('CancelBooking', {
        soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        soap12: {
          body: doc(
            'soap12',
            'CancelBooking',
            cancel('<activecancellationpolicy xsi:nil="true"/>').replace(
              '<Code>0</Code>',
              '<Code><value>0</value></Code>',
            ),
            BNS,
          ),
        },
        get: { body: doc('get', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')) },
        post: { body: doc('post', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')) },
      });
      // A state-changing call: each binding's booking answers its own values, even where one writes a child element.
      expect(findings(rows)).toEqual([]);
      // The Code (its value belongs to the booking) may differ.
      expect(
        run('CancelBooking', {
          soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
          soap12: {
            body: doc('soap12', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>', '1'), BNS),
          },
          get: { body: doc('get', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')) },
          post: {
            body: doc('post', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')),
          },
        }),
      ).toEqual([{ outcome: [] }]);
    });
    test(
      'bindings the contract treats alike there must agree: HTTP GET and HTTP POST both give text (its '
        + "value is the booking's)",
      () => {
        const rows = run('CancelBooking', {
          soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
          soap12: { body: doc('soap12', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
          get: {
            body: doc(
              'get',
              'CancelBooking',
              cancel('<activecancellationpolicy>Free until 48 h</activecancellationpolicy>'),
            ),
          },
          post: {
            body: doc(
              'post',
              'CancelBooking',
              cancel(
                '<activecancellationpolicy><deadline>2</deadline><percentage>5</percentage></activecancellationpolicy>',
              ),
            ),
          },
        });
        // The policies are the bookings' (each binding cancelled its own): not compared.
        expect(findings(rows)).toEqual([]);
        // Different texts are two bookings' texts: no difference.
        expect(
          run('CancelBooking', {
            soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
            soap12: { body: doc('soap12', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
            get: {
              body: doc(
                'get',
                'CancelBooking',
                cancel('<activecancellationpolicy>Free until 48 h</activecancellationpolicy>'),
              ),
            },
            post: {
              body: doc(
                'post',
                'CancelBooking',
                cancel('<activecancellationpolicy>Free until 24 h</activecancellationpolicy>'),
              ),
            },
          }),
        ).toEqual([{ outcome: [] }]);
      },
    );
    test('and so must the two SOAP bindings: nil in one, an element in the other', () => {
      const rows = run('CancelBooking', {
        soap11: { body: doc('soap11', 'CancelBooking', cancel('<activecancellationpolicy xsi:nil="true"/>'), BNS) },
        soap12: {
          body: doc(
            'soap12',
            'CancelBooking',
            cancel('<activecancellationpolicy><deadline>2</deadline></activecancellationpolicy>'),
            BNS,
          ),
        },
        get: { body: doc('get', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')) },
        post: { body: doc('post', 'CancelBooking', cancel('<activecancellationpolicy>x</activecancellationpolicy>')) },
      });
      // Not compared on a state-changing call; binding_rules holds each SOAP binding to nil there.
      expect(findings(rows)).toEqual([]);
    });
  });

  describe('failures are equivalent too', () => {
    const fault11 = doc('soap11', 'X', '').replace(
      /<XResponse[^]*<\/XResponse>/,
      '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad</faultstring></soap:Fault>',
    );
    test('one binding rejecting a request the others accept is named', () => {
      const rows = run('GetMeals', {
        soap11: { body: fault11, status: 500 },
        soap12: { body: doc('soap12', 'GetMeals', meals(THREE)) },
        get: { body: doc('get', 'GetMeals', meals(THREE)) },
        post: { body: doc('post', 'GetMeals', meals(THREE)) },
      });
      const [f] = findings(rows);
      expect(f!.binding).toBe('soap11');
      expect(f!.message).toContain('soap11: rejected (SOAP fault (HTTP 500))');
    });
    test("wrong credentials rejected in each binding's own way are equivalent", () => {
      const err =
        `<searchTransfersResult `
        + `xmlns="${NS}"><Error><ErrorType>Authentication</ErrorType><Message>Invalid</Message></Error></searchTransfersResult>`;
      const rows = run(
        'SearchTransfers',
        {
          soap11: { body: fault11, status: 500 },
          soap12: { body: doc('soap12', 'SearchTransfers', err) },
          get: { body: 'Invalid credentials', status: 500 },
          post: { body: doc('post', 'SearchTransfers', err) },
        },
        'wrong-credentials',
      );
      expect(rows).toEqual([{ outcome: [] }]);
    });
    test('wrong credentials answered with data by one binding is named', () => {
      const err = `<getRoomTypesResult xmlns="${NS}"><Error><Message>Invalid</Message></Error></getRoomTypesResult>`;
      const data =
        `<getRoomTypesResult `
        + `xmlns="${NS}"><roomTypes><roomType><id>1</id><sharedRoom>0</sharedRoom><sharedFacilities>1</sharedFacilities></roomType></roomTypes></getRoomTypesResult>`;
      const rows = run(
        'GetRoomTypes',
        {
          soap11: { body: doc('soap11', 'GetRoomTypes', err) },
          soap12: { body: doc('soap12', 'GetRoomTypes', err) },
          get: { body: doc('get', 'GetRoomTypes', data) },
          post: { body: doc('post', 'GetRoomTypes', err) },
        },
        'wrong-credentials',
      );
      const [f] = findings(rows);
      expect(f!.binding).toBe('get');
      expect(f!.message).toContain('wrong credentials must be rejected by every binding');
    });
  });

  describe('generated cases (issue 16): judged by agreement, never by assuming success', () => {
    const fault11 = doc('soap11', 'X', '').replace(
      /<XResponse[^]*<\/XResponse>/,
      '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad date</faultstring></soap:Fault>',
    );
    const fault12 = doc('soap12', 'X', '').replace(
      /<XResponse[^]*<\/XResponse>/,
      '<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text '
        + 'xml:lang="en">bad</soap:Text></soap:Reason></soap:Fault>',
    );
    test('every binding rejecting it, each in its own way (fault, HTTP 500 text), agrees', () => {
      const rows = run(
        'GetMeals',
        {
          soap11: { body: fault11, status: 500 },
          soap12: { body: fault12, status: 500 },
          get: { body: 'System.FormatException: String was not recognized', status: 500 },
          post: { body: 'Invalid value', status: 400 },
        },
        'generated',
      );
      expect(rows).toEqual([{ outcome: [] }]);
    });
    test('every binding accepting it with equal values agrees; one rejecting it departs', () => {
      const ok = {
        soap11: { body: doc('soap11', 'GetMeals', meals(THREE)) },
        soap12: { body: doc('soap12', 'GetMeals', meals(THREE)) },
        get: { body: doc('get', 'GetMeals', meals(THREE)) },
        post: { body: doc('post', 'GetMeals', meals(THREE)) },
      };
      expect(run('GetMeals', ok, 'generated')).toEqual([{ outcome: [] }]);
      const [f] = findings(
        run('GetMeals', { ...ok, get: { body: 'Invalid value for parameter', status: 500 } }, 'generated'),
      );
      expect(f).toMatchObject({ binding: 'get', code: 'acceptance_differs' });
    });
    test("the real service's in-band Error on every binding agrees; another ErrorType on one binding departs", () => {
      const err = (t: string) =>
        `<getRoomTypesResult xmlns="${NS}"><Error><ErrorType>${t}</ErrorType><Message>Invalid `
        + `language</Message></Error></getRoomTypesResult>`;
      const all = (t: string) => ({
        soap11: { body: doc('soap11', 'GetRoomTypes', err(t)) },
        soap12: { body: doc('soap12', 'GetRoomTypes', err(t)) },
        get: { body: doc('get', 'GetRoomTypes', err(t)) },
        post: { body: doc('post', 'GetRoomTypes', err(t)) },
      });
      expect(run('GetRoomTypes', all('System.ArgumentException'), 'generated')).toEqual([{ outcome: [] }]);
      const [f] = findings(
        run(
          'GetRoomTypes',
          {
            ...all('System.ArgumentException'),
            post: { body: doc('post', 'GetRoomTypes', err('System.FormatException')) },
          },
          'generated',
        ),
      );
      expect(f).toMatchObject({ binding: 'post', code: 'error_type_differs' });
    });
    test('values that differ in one binding are named', () => {
      const other = [meal('1', 'Breakfast'), meal('2', 'Half+board'), meal('3', 'Crème brûlée')];
      const rows = run(
        'GetMeals',
        {
          soap11: { body: doc('soap11', 'GetMeals', meals(THREE)) },
          soap12: { body: doc('soap12', 'GetMeals', meals(THREE)) },
          get: { body: doc('get', 'GetMeals', meals(THREE)) },
          post: { body: doc('post', 'GetMeals', meals(other)) },
        },
        'generated',
      );
      expect(findings(rows)[0]).toMatchObject({ binding: 'post', code: 'value_differs' });
    });
  });

  test('fewer than two answering bindings is a skip, not a pass', () => {
    const op = findOperation('GetMeals')!;
    const rows = compareBindings(
      op,
      'valid',
      ALL,
      new Map([['get', ctx('GetMeals', 'get', doc('get', 'GetMeals', meals(THREE)))]]),
    );
    expect(rows).toEqual([{ outcome: { skipped: 'fewer than two bindings answered (get)' } }]);
  });
});

// Issue 43: two large answers that differ held every entry of each (a million unknown elements: two
// million path strings a binding, 2.6 GB in the run). Now only a window around the first differing
// block is read, and the finding still names the first difference.
describe('large answers that differ: a window of entries read, the first difference named', () => {
  const N = 20_000; // 40,000 entries (an element and its text each), ten blocks
  const zs = (at: number | undefined) =>
    `<getMealsResult `
    + `xmlns="${NS}">${Array.from({ length: N }, (_, i) => (i === at ? '<z>x</z>' : '<z/>')).join('')}</getMealsResult>`;
  /** Views that count the entries each read of them returns. */
  function counted(bodies: Partial<Record<BindingId, string>>) {
    const op = findOperation('GetMeals')!;
    let most = 0;
    const views = new Map(
      Object.entries(bodies).map(([b, body]) => {
        const v = bindingViewOf(op, ctx('GetMeals', b as BindingId, doc(b as BindingId, 'GetMeals', body!)));
        const view: BindingView = {
          ...v,
          entries: (i, s) => {
            const e = v.entries(i, s);
            most = Math.max(most, e.length);
            return e;
          },
        };
        return [b as BindingId, view] as const;
      }),
    );
    const rows = compareViews(op, 'valid', Object.keys(bodies) as BindingId[], views);
    return { rows, most };
  }

  for (const at of [0, 7_777, N - 1]) {
    test(
      `a difference at unknown element ${at + 1} of ${N.toLocaleString('en-US')}: named, at most three `
        + `blocks of entries read`,
      () => {
        const { rows, most } = counted({ soap11: zs(undefined), soap12: zs(undefined), get: zs(at), post: zs(at) });
        const f = findings(rows);
        expect(f).toHaveLength(1);
        expect(f[0]!.path).toBe(`/getMealsResult/z[${at + 1}]/text()`);
        expect(f[0]!.message).toContain(`soap11="", soap12="", get="x", post="x"`);
        expect(most).toBeGreaterThan(0);
        expect(most).toBeLessThanOrEqual(3 * ENTRY_BLOCK);
        if (at > 2 * ENTRY_BLOCK) expect(f[0]!.diff).toMatch(/entries of both answers, equal, are left out/);
      },
    );
  }

  test('one side longer (an extra element at the end): the extra one named', () => {
    const { rows, most } = counted({
      soap11: zs(undefined),
      get: zs(undefined).replace('</getMealsResult>', '<y/></getMealsResult>'),
    });
    expect(findings(rows)[0]!.path).toBe('/getMealsResult/y');
    expect(most).toBeLessThanOrEqual(3 * ENTRY_BLOCK);
  });

  test("equal large answers (the hostile target's own case, every binding alike): equivalent, no entry read", () => {
    const { rows, most } = counted({
      soap11: zs(undefined),
      soap12: zs(undefined),
      get: zs(undefined),
      post: zs(undefined),
    });
    expect(rows).toEqual([{ outcome: [] }]);
    expect(most).toBe(0);
  });
});
