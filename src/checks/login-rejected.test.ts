import { describe, expect, test } from 'vitest';
import { loginRejected, refusalWords } from './login-rejected.js';
import { contextFor, documentFor, findingsOf, node, outcomeOf } from '../../test/support/checks.js';
import { readdirSync, readFileSync } from 'node:fs';
import { OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { SecretWatch } from '../core/secret-watch.js';
import { secretEchoed } from './secret-echoed.js';

const inBand = (type: string, message: string) =>
  node('Error', [], [node('ErrorType', [], [], type), node('Message', [], [], message)]);
const cancelError = (b: BindingId, type: string, message: string) =>
  documentFor('CancelBooking', b, { result: node('CancelBookingResult', [], [inBand(type, message)]) });
const AUTH = [
  'System.Security.Authentication.AuthenticationException',
  'Authentication failed: the userName or password is not valid.',
] as const;
const NOT_FOUND = ['BookingNotFoundException', 'No booking with ID PROBE-V1526941 was found.'] as const;
const variant = (
  opName: string,
  b: BindingId,
  body: string,
  o: { status?: number; contentType?: string; refusals?: readonly string[] } = {},
) => contextFor(opName, b, body, { caseKind: 'login-variant', caseId: 'login-password-extended', ...o });
/** The words of a reference answer, as run.ts records them from the wrong password's exchange. */
const wordsOf = (opName: string, b: BindingId, body: string, status = 200) =>
  refusalWords(contextFor(opName, b, body, { caseKind: 'wrong-credentials', caseId: 'wrong-credentials', status }));

describe('login_rejected', () => {
  test('applies to the login variants only', () => {
    expect(outcomeOf(loginRejected, contextFor('GetMeals', 'soap11', '', { caseKind: 'wrong-credentials' }))).toBe(
      'not applicable',
    );
    expect(outcomeOf(loginRejected, contextFor('GetMeals', 'soap11', '', { caseKind: 'valid' }))).toBe(
      'not applicable',
    );
  });

  test.each(['soap11', 'get'] as const)('data is login_bypassed, pinned on the variant (%s)', (b) => {
    const f = findingsOf(loginRejected, variant('GetMeals', b, documentFor('GetMeals', b, { full: true })));
    expect(f).toEqual([
      expect.objectContaining({
        check: 'login_rejected',
        code: 'login_bypassed',
        message: expect.stringContaining(
          'the login variant login-password-extended answered with data: meals holds 2 meal items',
        ),
      }),
    ]);
  });

  test('a data-path answer ("not found") where the wrong password got a login refusal is login_bypassed', () => {
    const refusals = [wordsOf('CancelBooking', 'soap12', cancelError('soap12', ...AUTH))];
    const f = findingsOf(
      loginRejected,
      variant('CancelBooking', 'soap12', cancelError('soap12', ...NOT_FOUND), { refusals }),
    );
    expect(f).toEqual([
      expect.objectContaining({ code: 'login_bypassed', message: expect.stringContaining('reached the data path') }),
    ]);
    // Without a reference (--case, a shard), "not found" still says the data path was reached.
    expect(
      findingsOf(loginRejected, variant('CancelBooking', 'soap12', cancelError('soap12', ...NOT_FOUND))).map(
        (x) => x.code,
      ),
    ).toEqual(['login_bypassed']);
    // Another in-band Error than the wrong password's, whatever it says, is the data path's too.
    expect(
      findingsOf(
        loginRejected,
        variant('CancelBooking', 'soap12', cancelError('soap12', 'System.ArgumentException', 'Value out of range'), {
          refusals,
        }),
      ).map((x) => x.code),
    ).toEqual(['login_bypassed']);
  });

  test(
    "refused as the wrong password is: the same words in another form pass (the mock's variation mode "
      + 'picks in-band or a fault per request)',
    () => {
      const refusals = [wordsOf('CancelBooking', 'soap11', cancelError('soap11', ...AUTH))];
      expect(
        findingsOf(loginRejected, variant('CancelBooking', 'soap11', cancelError('soap11', ...AUTH), { refusals })),
      ).toEqual([]);
      const fault = documentFor('GetMeals', 'soap11', { result: node('x') }).replace(
        /<soap:Body>.*<\/soap:Body>/s,
        '<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Request 12 refused: '
          + '"mock-user" is locked</faultstring></soap:Fault></soap:Body>',
      );
      const same = fault.replace('Request 12', 'Request 97').replace('"mock-user"', '""');
      expect(
        findingsOf(
          loginRejected,
          variant('GetMeals', 'soap11', same, { status: 500, refusals: [wordsOf('GetMeals', 'soap11', fault, 500)] }),
        ),
      ).toEqual([]);
    },
  );

  test.each<[string, number, string, string]>([
    ['words about the credentials', 200, 'Invalid password', 'text/plain'],
    ['words about the account, "not found" among them', 500, 'User not found', 'text/plain'],
    ['a 401 with an empty body', 401, '', 'text/html'],
    ['a 403 page', 403, '<html><body>Go away</body></html>', 'text/html'],
    [
      'a malformed request refused with an error status (ASMX: a parameter missing)',
      500,
      'Missing parameter: checkInDate.',
      'text/plain',
    ],
  ])('passes %s', (_, status, body, contentType) => {
    const refusals = [
      wordsOf(
        'GetMeals',
        'get',
        documentFor('GetMeals', 'get', { result: node('getMealsResult', [], [inBand(...AUTH)]) }),
      ),
    ];
    expect(findingsOf(loginRejected, variant('GetMeals', 'get', body, { status, contentType, refusals }))).toEqual([]);
  });

  test('the words compared leave numbers and quoted values out, fold blanks and case', () => {
    const a = refusalWords(
      contextFor('GetMeals', 'get', 'Booking 123 of "x"   NOT  found', { status: 500, contentType: 'text/plain' }),
    );
    const b = refusalWords(
      contextFor('GetMeals', 'get', 'booking 9 of "yy" not found', { status: 500, contentType: 'text/plain' }),
    );
    expect(a).toBe(b);
  });
});

describe("login_rejected and secret_echoed on the real service's answers (fixtures/real-service/)", () => {
  const dir = new URL('../../fixtures/real-service/', import.meta.url);
  const namespaces = { book: 'http://xml.example.com/book/1/', search: 'http://xml.example.com/search/1/' };
  const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
  const opOf = (f: string) =>
    OPERATIONS.find((o) => f.includes(`-${o.name.replace(/[A-Z]/g, (c, i) => `${i ? '-' : ''}${c.toLowerCase()}`)}.`))!;
  test(
    "its refusals of a login pass as a variant's answer, with or without the wrong password's as "
      + 'reference; no answer holds the password',
    () => {
      const refusals = files.filter((f) => f.includes('wrong-credentials'));
      expect(refusals.length).toBeGreaterThan(3);
      for (const f of refusals) {
        const op = opOf(f);
        const b = f.split('.').at(-2) as BindingId;
        const body = readFileSync(new URL(f, dir), 'utf8');
        const status = b.startsWith('soap') && body.includes(':Fault>') ? 500 : 200;
        const ctx = (refs?: readonly string[]) =>
          contextFor(op.name, b, body, {
            caseKind: 'login-variant',
            caseId: 'login-password-nil',
            namespaces,
            status,
            ...(refs ? { refusals: refs } : {}),
          });
        expect(findingsOf(loginRejected, ctx()), f).toEqual([]);
        expect(findingsOf(loginRejected, ctx([refusalWords(ctx())])), f).toEqual([]);
      }
      const watch = new SecretWatch([{ what: 'the password', value: 'mock-password' }]);
      for (const f of files) {
        const b = f.split('.').at(-2) as BindingId;
        expect(
          findingsOf(
            secretEchoed,
            contextFor(opOf(f)?.name ?? 'GetMeals', b, readFileSync(new URL(f, dir), 'utf8'), {
              namespaces,
              secrets: watch,
            }),
          ),
          f,
        ).toEqual([]);
      }
    },
  );
});
