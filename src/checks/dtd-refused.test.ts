import { describe, expect, test } from 'vitest';
import { dtdRefused } from './dtd-refused.js';
import { contextFor, documentFor, findingsOf, node, outcomeOf } from '../../test/support/checks.js';
import type { BindingId } from '../contract/catalogue.js';

const probe = (
  opName: string,
  binding: BindingId,
  body: string,
  o: { status?: number; contentType?: string; caseId?: string } = {},
) =>
  contextFor(opName, binding, body, {
    caseKind: 'doctype',
    caseId: o.caseId ?? 'doctype-internal-entity',
    status: o.status ?? 200,
    ...(o.contentType ? { contentType: o.contentType } : {}),
  });

const asmxFault = (opName: string) =>
  documentFor(opName, 'soap11').replace(
    /<soap:Body>[^]*<\/soap:Body>/,
    '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read '
      + 'request. ---&gt; For security reasons DTD is prohibited in this XML '
      + 'document.</faultstring></soap:Fault></soap:Body>',
  );

describe('dtd_refused', () => {
  test('applies to the DOCTYPE probes only', () => {
    expect(
      outcomeOf(dtdRefused, contextFor('GetMeals', 'soap11', documentFor('GetMeals', 'soap11', { full: true }))),
    ).toBe('not applicable');
  });

  test(
    'passes on every form of refusal and notes it: the ASMX fault, an HTTP 4xx, an in-band Error of the ' + 'login',
    () => {
      const login = node(
        'getMealsResult',
        [],
        [node('Error', [], [node('ErrorType', [], [], 'Login'), node('Message', [], [], 'Invalid login')])],
      );
      const forms: [ReturnType<typeof probe>, RegExp][] = [
        [
          probe('GetMeals', 'soap11', asmxFault('GetMeals'), { status: 500 }),
          /HTTP 500 and a SOAP fault.*DTD is prohibited/,
        ],
        [probe('GetMeals', 'soap12', 'Bad Request', { status: 400, contentType: 'text/plain' }), /HTTP 400/],
        [probe('GetMeals', 'soap11', documentFor('GetMeals', 'soap11', { result: login })), /HTTP 200 and no data/],
        // A state-changing operation refused at the login, in-band: no call past the login.
        [
          probe(
            'CancelBooking',
            'soap11',
            documentFor('CancelBooking', 'soap11', {
              result: node(
                'result',
                [],
                [node('Error', [], [node('Message', [], [], 'Invalid login')]), node('Code', [], [], '-1')],
              ),
            }),
          ),
          /no data/,
        ],
      ];
      for (const [ctx, note] of forms)
        expect(outcomeOf(dtdRefused, ctx)).toEqual({ note: expect.stringMatching(note) });
    },
  );

  test('an answer with data is dtd_processed, saying SOAP forbids a DTD', () => {
    const f = findingsOf(dtdRefused, probe('GetMeals', 'soap12', documentFor('GetMeals', 'soap12', { full: true })));
    expect(f.map((x) => x.code)).toEqual(['dtd_processed']);
    expect(f[0]!.message).toMatch(
      /DOCTYPE declares an internal entity.*answered with data.*SOAP 1\.1 section 3, SOAP 1\.2 part 1 section 5/,
    );
  });

  test('a state-changing operation answered as a call past the login (its probe id not found) is dtd_processed', () => {
    const notFound = node(
      'result',
      [],
      [
        node(
          'Error',
          [],
          [node('ErrorType', [], [], 'BookingNotFoundException'), node('Message', [], [], 'Booking not found')],
        ),
        node('Code', [], [], '-1'),
      ],
    );
    const f = findingsOf(
      dtdRefused,
      probe('CancelBooking', 'soap11', documentFor('CancelBooking', 'soap11', { result: notFound }), {
        caseId: 'doctype-external-entity',
      }),
    );
    expect(f.map((x) => x.code)).toEqual(['dtd_processed']);
    expect(f[0]!.message).toMatch(
      /external entity.*answered as a call past the login \("BookingNotFoundException Booking not found"/,
    );
    expect(f[0]!.path).toBe('/Envelope/Body/CancelBookingResponse/result/Error');
  });
});
