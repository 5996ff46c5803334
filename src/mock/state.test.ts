/**
 * The mock keeps state (issue 23): per instance, shared by its four bindings, empty when made. A
 * special request written is what is read back (after XML or form decoding), a booking and a
 * transfer booking cancel once, an amendment of a cancelled booking gets an in-band Error; the
 * stateless mode answers as before. Every stateful fault is invisible to one request on a fresh
 * mock (unless it is about the first call) and shows in a short sequence, only on its bindings.
 * In-process: each mock is one createHandlers() call, driven through msw's getResponse.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { requestAt } from '../bindings/endpoint.js';
import { BINDINGS, DEFAULT_NAMESPACES, findOperation, type BindingId, type Namespaces } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import { loadFixtureCases } from '../engine/cases.js';
import { validateDocument } from '../engine/validate-document.js';
import { createHandlers, type MockHandlerOptions } from './handlers.js';
import { FAULTS } from './faults.js';
import { faultBindings } from './fault-lookup.js';
import { nextBookingId } from './fault-helpers.js';
import type { Fault } from './fault-types.js';
import { parseMockFlags } from './main.js';
import { startMock } from './server.js';
import { BOOKING_ALREADY_CANCELLED, intBookingKey, MockState, TRANSFER_ALREADY_CANCELLED } from './state.js';
import { resultElement, validParams, call } from '../../test/support/mock.js';

const NS = DEFAULT_NAMESPACES;
const ORIGIN = 'http://mock.test';
const cases = loadFixtureCases();

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly op: string;
  readonly binding: BindingId;
}
type Send = (name: string, b: BindingId, overrides?: Record<string, string | undefined>) => Promise<Answer>;

/** One mock instance (one createHandlers call) and a client calling it in-process through msw. */
function mock(options: MockHandlerOptions = {}, namespaces: Namespaces = { ...NS, ...options.namespaces }): Send {
  const handlers = createHandlers({ ...options, baseUrl: ORIGIN });
  return async (name, b, overrides = {}) => {
    const op = findOperation(name)!;
    const r = requestAt(ORIGIN, op, b, validParams(op, overrides), namespaces);
    const res = await getResponse(handlers, new Request(r.url, { method: r.method, headers: r.headers, body: r.body }));
    if (!res) throw new Error(`no handler answered ${r.method} ${r.url}`);
    return { status: res.status, body: await res.text(), op: name, binding: b };
  };
}

const child = (a: Answer, local: string) =>
  resultElement(findOperation(a.op)!, a.binding, a.body).children.find((c) => c.local === local);
/** The special request text a GetSpecialRequest answer holds (undefined when left out). */
const textOf = (a: Answer) => child(a, 'text')?.text;
/** The ErrorType of an in-band Error, or undefined. */
const errorOf = (a: Answer) => child(a, 'Error')?.children.find((c) => c.local === 'ErrorType')?.text;
const childNames = (a: Answer) => resultElement(findOperation(a.op)!, a.binding, a.body).children.map((c) => c.local);

/**
 * Texts as the sequences write them: spaces, +, &, <, >, quotes, Latin-1, outside the BMP, and more than 300
 * characters.
 */
const TEXTS = [
  'Late arrival + cot, please',
  'Fish & chips <no> "peanuts" \'ever\'',
  'Ankunft spät: Schlüssel an der Rezeption, ça va, niño',
  'Emoji 😀 and 𠮷 (outside the BMP)',
  `${'Long request with spaces + plus & amp < lt > gt '.repeat(7)}end`,
];

describe('MockState', () => {
  test('starts empty; a write replaces the earlier one; "007" and "7" are one booking (an int)', () => {
    const s = new MockState();
    expect(s.empty).toBe(true);
    expect(s.specialRequest('7')).toBeUndefined();
    s.setSpecialRequest('007', 'a');
    s.setSpecialRequest(' 7 ', 'b');
    expect(s.specialRequest('7')).toBe('b');
    expect(s.lastSpecialRequest()).toEqual({ bookingId: '7', text: 'b' });
    expect(s.empty).toBe(false);
    expect([intBookingKey('-0'), intBookingKey('000'), intBookingKey('+12'), intBookingKey('x1')]).toEqual([
      '0',
      '0',
      '12',
      'x1',
    ]);
  });

  test('bookings and transfer bookings cancel, each in its own id space, in order', () => {
    const s = new MockState();
    s.cancel('BK-1');
    s.cancel(' BK-2 ');
    expect(s.isCancelled('BK-1')).toBe(true);
    expect(s.isCancelled('BK-2')).toBe(true);
    expect(s.isCancelled('BK-3')).toBe(false);
    expect(s.isTransferCancelled('BK-1', undefined)).toBe(false);
    s.cancelTransfer('TR-1', 'a@example.com');
    s.cancelTransfer('TR-1', 'other@example.com');
    expect(s.cancelledBookings()).toEqual(['BK-1', 'BK-2']);
    expect(s.cancelledTransfers()).toEqual([{ transferBookingID: 'TR-1', email: 'a@example.com' }]);
  });

  test("a fault's memory is its own, per instance", () => {
    const a = new MockState();
    a.memory('x').set('k', 1);
    expect(a.memory('x').get('k')).toBe(1);
    expect(a.memory('y').has('k')).toBe(false);
    expect(new MockState().memory('x').has('k')).toBe(false);
  });

  test('nextBookingId: the last run of digits plus one', () => {
    expect(['BK-2025-0042', '100234', '0099', 'TR-9', 'X'].map(nextBookingId)).toEqual([
      'BK-2025-0043',
      '100235',
      '0100',
      'TR-10',
      'X1',
    ]);
  });
});

describe('the stateful mock', () => {
  test('a special request written through any binding is read back exactly through all four', async () => {
    const send = mock();
    for (const [i, w] of BINDINGS.entries()) {
      for (const [j, text] of TEXTS.entries()) {
        const bookingId = String(300_000 + i * 100 + j);
        const ack = await send('UpdateSpecialRequest', w, { bookingId, text });
        expect(child(ack, 'resultCode')?.text, `${w} ${text}`).toBe('0');
        for (const r of BINDINGS)
          expect(textOf(await send('GetSpecialRequest', r, { bookingId })), `${w} → ${r}: ${text}`).toBe(text);
      }
    }
  });

  test.for([
    ['plain', {}],
    ['--vary', { vary: true }],
    ['--real-service', { realService: true }],
  ] as const)(
    '%s: texts XML makes hard (CDATA end, CR LF, tab, edge spaces, no-break space) read back exactly on every binding',
    async ([, options]) => {
      const send = mock(options);
      const hard = [
        'a ]]> b',
        '  lead and trail  ',
        'tab\there',
        'cr\r\nlf and lone\rcr',
        '\u00a0no-break',
        `${'x'.repeat(400)} & <`,
      ];
      // Many bookings: variation mode picks the presentation (CDATA, character references...) per request.
      for (let i = 0; i < 24; i++) {
        const text = hard[i % hard.length]!;
        const bookingId = String(9000 + i);
        await send('UpdateSpecialRequest', BINDINGS[i % BINDINGS.length]!, { bookingId, text });
        for (const r of BINDINGS)
          expect(textOf(await send('GetSpecialRequest', r, { bookingId })), `${r} ${JSON.stringify(text)}`).toBe(text);
      }
    },
  );

  test('a second write replaces the first; two bookings keep their own texts; a blank text clears', async () => {
    const send = mock();
    await send('UpdateSpecialRequest', 'soap11', { bookingId: '41', text: 'first' });
    await send('UpdateSpecialRequest', 'post', { bookingId: '41', text: 'second' });
    await send('UpdateSpecialRequest', 'get', { bookingId: '42', text: 'other' });
    for (const r of BINDINGS) {
      expect(textOf(await send('GetSpecialRequest', r, { bookingId: '41' }))).toBe('second');
      expect(textOf(await send('GetSpecialRequest', r, { bookingId: '042' }))).toBe('other');
    }
    const clear = await send('UpdateSpecialRequest', 'soap12', { bookingId: '41', text: '  ' });
    expect(child(clear, 'resultCode')?.text).toBe('1');
    for (const r of BINDINGS) expect(textOf(await send('GetSpecialRequest', r, { bookingId: '41' }))).toBe('');
  });

  test('state belongs to one instance: another createHandlers() starts empty', async () => {
    const a = mock();
    const b = mock();
    const fresh = await b('GetSpecialRequest', 'get', { bookingId: '77' });
    await a('UpdateSpecialRequest', 'get', { bookingId: '77', text: 'only in a' });
    expect(textOf(await a('GetSpecialRequest', 'get', { bookingId: '77' }))).toBe('only in a');
    expect((await b('GetSpecialRequest', 'get', { bookingId: '77' })).body).toBe(fresh.body);
    await a('CancelBooking', 'soap11', { bookingID: 'BK-1' });
    expect(errorOf(await b('CancelBooking', 'soap11', { bookingID: 'BK-1' }))).toBeUndefined();
  });

  test(
    'a booking cancels once: every later CancelBooking, on any binding, is the in-band "already '
      + 'cancelled" (Error, then Code -2, nothing else)',
    async () => {
      const send = mock();
      const first = await send('CancelBooking', 'soap12', { bookingID: 'BK-500' });
      expect(errorOf(first)).toBeUndefined();
      expect(childNames(first)).toContain('CancellationPaymentMethod');
      for (const b of BINDINGS) {
        const again = await send('CancelBooking', b, { bookingID: 'BK-500' });
        expect(again.status, b).toBe(200);
        expect(childNames(again), b).toEqual(['Error', 'Code']);
        expect(errorOf(again), b).toBe(BOOKING_ALREADY_CANCELLED);
        expect(child(again, 'Error')!.children.find((c) => c.local === 'Message')!.text).toBe(
          'The booking with ID BK-500 has already been cancelled.',
        );
        expect(child(again, 'Code')!.text, b).toBe('-2');
      }
      // Another booking is untouched.
      expect(errorOf(await send('CancelBooking', 'get', { bookingID: 'BK-501' }))).toBeUndefined();
    },
  );

  test(
    'a transfer booking cancels once, keyed by transferBookingID (another of the same email stays ' + 'cancellable)',
    async () => {
      const send = mock();
      const email = 'guest@example.com';
      expect(
        errorOf(await send('CancelTransferBooking', 'post', { transferBookingID: 'TR-1', email })),
      ).toBeUndefined();
      for (const b of BINDINGS) {
        const again = await send('CancelTransferBooking', b, { transferBookingID: 'TR-1', email });
        expect(childNames(again), b).toEqual([
          'Error',
          'cancellationFeeInEuros',
          'cancellationFeeInLocalCurrency',
          'code',
        ]);
        expect(errorOf(again), b).toBe(TRANSFER_ALREADY_CANCELLED);
        expect(child(again, 'code')!.text).toBe('-2');
      }
      expect(errorOf(await send('CancelTransferBooking', 'get', { transferBookingID: 'TR-2', email }))).toBeUndefined();
      // Not the booking id space.
      expect(errorOf(await send('CancelBooking', 'get', { bookingID: 'TR-1' }))).toBeUndefined();
    },
  );

  test(
    'everyId: every id exists on first touch, blank included; a blank booking cancels once; a transfer '
      + "booking is its first email's",
    async () => {
      const NOT_FOUND = 'Fitruums.Framework.Booking.Exceptions.TransferBookingNotFoundException';
      // The default mock: a blank id never names a booking.
      expect(errorOf(await mock()('CancelBooking', 'get', { bookingID: '' }))).toBe(
        'Fitruums.Framework.Booking.Exceptions.BookingNotFoundException',
      );
      const send = mock({ everyId: true });
      expect(errorOf(await send('CancelBooking', 'soap11', { bookingID: '' }))).toBeUndefined();
      for (const b of BINDINGS)
        expect(errorOf(await send('CancelBooking', b, { bookingID: '' })), b).toBe(BOOKING_ALREADY_CANCELLED);
      expect(
        errorOf(await send('CancelTransferBooking', 'post', { transferBookingID: '', email: 'Zoë@exämple.com' })),
      ).toBeUndefined();
      expect(
        errorOf(await send('CancelTransferBooking', 'get', { transferBookingID: '', email: 'Zoë@exämple.com' })),
      ).toBe(TRANSFER_ALREADY_CANCELLED);
      // Named with another email: not that customer's booking.
      expect(
        errorOf(await send('CancelTransferBooking', 'get', { transferBookingID: '', email: 'ZoÃ«@exÃ¤mple.com' })),
      ).toBe(NOT_FOUND);
      expect(
        errorOf(await send('CancelTransferBooking', 'soap12', { transferBookingID: 'TR-9', email: '' })),
      ).toBeUndefined();
      expect(() =>
        createHandlers({ everyId: true, bookings: { cancel: [], amend: [], specialRequest: [], transfers: [] } }),
      ).toThrow(UsageError);
      expect(parseMockFlags(['--every-id'])).toMatchObject({ everyId: true });
      expect(() => parseMockFlags(['--every-id', '--bookings', 'x.json'])).toThrow(
        /--every-id and --bookings exclude each other/,
      );
    },
  );

  test(
    'AmendmentPriceRequest and AmendmentRequest of a cancelled booking answer an in-band Error; before, ' + 'data',
    async () => {
      const send = mock();
      const before = await send('AmendmentPriceRequest', 'get', { bookingID: 'BK-9' });
      expect(errorOf(before)).toBeUndefined();
      expect(errorOf(await send('AmendmentRequest', 'get', { bookingID: 'BK-9' }))).toBeUndefined();
      await send('CancelBooking', 'soap11', { bookingID: 'BK-9' });
      for (const b of BINDINGS) {
        const price = await send('AmendmentPriceRequest', b, { bookingID: 'BK-9' });
        expect(errorOf(price), b).toBe(BOOKING_ALREADY_CANCELLED);
        expect(childNames(price), b).toEqual(['Error', 'RoomId', 'BookingType']);
        const amend = await send('AmendmentRequest', b, { bookingID: 'BK-9' });
        expect(childNames(amend), b).toEqual(['Error']);
      }
    },
  );

  test('a rejected call changes nothing: wrong credentials do not cancel or write', async () => {
    const send = mock();
    expect((await send('CancelBooking', 'soap11', { bookingID: 'BK-3', password: 'wrong' })).status).toBe(500);
    expect(errorOf(await send('CancelBooking', 'soap11', { bookingID: 'BK-3' }))).toBeUndefined();
    const before = (await send('GetSpecialRequest', 'get', { bookingId: '5' })).body;
    await send('UpdateSpecialRequest', 'get', { bookingId: '5', text: 'x', password: 'wrong' });
    expect((await send('GetSpecialRequest', 'get', { bookingId: '5' })).body).toBe(before);
  });

  test.for([
    ['plain', {}],
    ['--vary', { vary: true }],
    ['--real-service', { realService: true }],
    ['with a fault elsewhere', { faults: ['charset-missing', 'soap12-drops-list-item'] }],
  ] as const)('the default in every style: %s', async ([, options]) => {
    const send = mock(options);
    for (const [i, b] of BINDINGS.entries()) {
      const bookingID = `BK-7${i}`;
      expect(errorOf(await send('CancelBooking', b, { bookingID })), b).toBeUndefined();
      expect(errorOf(await send('CancelBooking', BINDINGS[(i + 1) % BINDINGS.length]!, { bookingID })), b).toBe(
        BOOKING_ALREADY_CANCELLED,
      );
      expect(errorOf(await send('CancelTransferBooking', b, { transferBookingID: `TR-7${i}` }))).toBeUndefined();
      expect(errorOf(await send('CancelTransferBooking', b, { transferBookingID: `TR-7${i}` }))).toBe(
        TRANSFER_ALREADY_CANCELLED,
      );
      const bookingId = String(700 + i);
      await send('UpdateSpecialRequest', b, { bookingId, text: TEXTS[i]! });
      for (const r of BINDINGS)
        expect(textOf(await send('GetSpecialRequest', r, { bookingId })), `${b} → ${r}`).toBe(TEXTS[i]);
    }
  });

  test('stateless: nothing stored, a booking cancels any number of times, byte for byte as before', async () => {
    const send = mock({ stateless: true });
    const read = (await send('GetSpecialRequest', 'soap11', { bookingId: '8' })).body;
    await send('UpdateSpecialRequest', 'soap11', { bookingId: '8', text: 'not kept' });
    expect((await send('GetSpecialRequest', 'soap11', { bookingId: '8' })).body).toBe(read);
    const cancel = (await send('CancelBooking', 'get', { bookingID: 'BK-8' })).body;
    expect((await send('CancelBooking', 'get', { bookingID: 'BK-8' })).body).toBe(cancel);
    expect(() => createHandlers({ stateless: true, faults: ['read-ignores-store'] })).toThrow(UsageError);
    expect(() => createHandlers({ stateless: true, faults: ['read-ignores-store'] })).toThrow(
      /read-ignores-store needs the mock's state/,
    );
  });

  test('--stateless: parsed, and refused with a stateful fault', () => {
    expect(parseMockFlags(['--stateless'])).toMatchObject({ stateless: true });
    expect(parseMockFlags([])).not.toHaveProperty('stateless');
    expect(() => parseMockFlags(['--stateless', '--fault', 'cancel-leak-already-cancelled'])).toThrow(
      /--stateless: fault cancel-leak-already-cancelled needs the mock's state/,
    );
  });

  test('over HTTP (the direct path and its memo): the second cancellation is not served from the memo', async () => {
    const running = await startMock({ port: 0 });
    try {
      const op = findOperation('CancelBooking')!;
      const params = validParams(op, { bookingID: 'BK-HTTP' });
      const first = await call(running.url, NS, op, 'get', params);
      const second = await call(running.url, NS, op, 'get', params);
      expect(first.body).not.toContain('BookingAlreadyCancelledException');
      expect(second.body).toContain('BookingAlreadyCancelledException');
      expect((await call(running.url, NS, op, 'get', params)).body).toBe(second.body);
    } finally {
      await running.close();
    }
  });
});

describe('a fresh mock answers as the stateless mock does', () => {
  const BOOKING_OPS = [
    'AmendmentPriceRequest',
    'AmendmentRequest',
    'CancelBooking',
    'CancelTransferBooking',
    'UpdateSpecialRequest',
    'GetSpecialRequest',
  ];
  test.for([
    ['plain', {}],
    ['--vary', { vary: true }],
  ] as const)('%s: every case of every state operation, on every binding, byte for byte', async ([, options]) => {
    for (const name of BOOKING_OPS) {
      for (const c of cases.get(name)!) {
        for (const b of BINDINGS) {
          const fresh = await mock(options)(name, b, c.params);
          const before = await mock({ ...options, stateless: true })(name, b, c.params);
          expect(fresh.body, `${name} ${c.id} ${b}`).toBe(before.body);
        }
      }
    }
  });

  test(
    '--real-service: the same, but no booking is picked "already cancelled" or "not found" by its id (the '
      + 'state says)',
    async () => {
      let picked = 0;
      for (const name of BOOKING_OPS) {
        for (const c of cases.get(name)!) {
          for (const b of BINDINGS) {
            const fresh = await mock({ realService: true })(name, b, c.params);
            const before = await mock({ realService: true, stateless: true })(name, b, c.params);
            if (errorOf(before) !== undefined) {
              picked++;
              expect(errorOf(fresh), `${name} ${c.id} ${b}`).toBeUndefined();
            } else {
              expect(fresh.body, `${name} ${c.id} ${b}`).toBe(before.body);
            }
          }
        }
      }
      // The stateless real style does pick some (the comparison above is not vacuous).
      expect(picked).toBeGreaterThan(0);
    },
  );
});

describe("the real style's already-cancelled answer validates as the live service's does", () => {
  const FIXTURES = fileURLToPath(new URL('../../fixtures/real-service/', import.meta.url));
  const LIVE_NS: Namespaces = { book: 'http://xml.example.com/book/1/', search: 'http://xml.example.com/search/1/' };

  test.for(['soap11', 'get'] as const)(
    '%s: the same document as fixtures/real-service/fact1-cancel-booking-already-cancelled',
    async (b) => {
      const send = mock({ realService: true, namespaces: LIVE_NS });
      await send('CancelBooking', 'soap12', { bookingID: '6981148' });
      const again = await send('CancelBooking', b, { bookingID: '6981148' });
      const fixture = readFileSync(`${FIXTURES}fact1-cancel-booking-already-cancelled.${b}.xml`, 'utf8');
      // The mock's bare root always declares xsi (unused here); the live document declares it only where used.
      const squeeze = (x: string) =>
        x
          .replace(/\?>\s*</, '?><')
          .replace(/\s+\/>/g, '/>')
          .replace(/ xmlns:xsi="[^"]*"(?=>)/, '')
          .trim();
      expect(squeeze(again.body)).toBe(squeeze(fixture));
    },
  );

  test.for(BINDINGS.map((b) => [b] as const))(
    '%s: XSD and shape as the project checks them, like the fixture',
    async ([b]) => {
      for (const options of [{ realService: true }, {}, { vary: true }] as MockHandlerOptions[]) {
        const send = mock({ ...options, namespaces: LIVE_NS });
        await send('CancelBooking', b, { bookingID: '6981148' });
        const again = await send('CancelBooking', b, { bookingID: '6981148' });
        const v = validateDocument(again.body, { binding: b, operation: 'CancelBooking', namespaces: LIVE_NS });
        expect(v.findings, `${b} ${JSON.stringify(options)}`).toEqual([]);
        expect(v.valid).toBe(true);
        expect(v.notes.join('\n')).toMatch(
          /shape: not run: answered with an in-band Error Fitruums\.Framework\.Booking\.Exceptions\.BookingAlreadyCancelledException/,
        );
        // The shape walk of the result element as its type: Error then Code is a CancelBookingResult.
        const el = resultElement(findOperation('CancelBooking')!, b, again.body);
        expect(el.children.map((c) => c.local)).toEqual(['Error', 'Code']);
        // The other answers of the state: a transfer cancelled twice, amendments of the cancelled booking.
        await send('CancelTransferBooking', b, { transferBookingID: 'TR-6981148' });
        const others = [
          await send('CancelTransferBooking', b, { transferBookingID: 'TR-6981148' }),
          await send('AmendmentPriceRequest', b, { bookingID: '6981148' }),
          await send('AmendmentRequest', b, { bookingID: '6981148' }),
        ];
        for (const doc of others) {
          expect(errorOf(doc), `${doc.op} ${b}`).toBeDefined();
          const w = validateDocument(doc.body, { binding: b, operation: doc.op, namespaces: LIVE_NS });
          expect(w.findings, `${doc.op} ${b} ${JSON.stringify(options)}`).toEqual([]);
        }
      }
      const fixture = validateDocument(readFileSync(`${FIXTURES}fact1-cancel-booking-already-cancelled.get.xml`), {
        namespaces: LIVE_NS,
      });
      expect(fixture.valid).toBe(true);
    },
  );
});

// ---- the stateful faults -----------------------------------------------------------------------

const STATEFUL = FAULTS.filter((f) => f.stateful);

/** Which bindings a sequence uses for each operation's calls. */
type Use = (op: string) => readonly BindingId[];
const EVERY: Use = () => BINDINGS;

/**
 * A short battery of sequences, each binding with bookings of its own: write then read (two texts,
 * two bookings), cancel a booking then the next one then the first again (and an amendment quote),
 * cancel a transfer booking then another of the same customer then one of another. Returns every
 * answer, in order, labelled.
 */
async function battery(send: Send, use: Use = EVERY): Promise<string[]> {
  const out: string[] = [];
  const log = async (label: string, a: Promise<Answer>) => {
    const answer = await a;
    out.push(`${answer.op} ${label}: ${answer.body}`);
  };
  for (const [i, w] of use('UpdateSpecialRequest').entries()) {
    const a = String(610_000 + i * 100);
    const b = String(610_050 + i * 100);
    await log(`write ${a} ${w}`, send('UpdateSpecialRequest', w, { bookingId: a, text: TEXTS[4]! }));
    for (const r of use('GetSpecialRequest'))
      await log(`read ${a} ${w}→${r}`, send('GetSpecialRequest', r, { bookingId: a }));
    await log(`write ${a} ${w}`, send('UpdateSpecialRequest', w, { bookingId: a, text: TEXTS[i % 4]! }));
    for (const r of use('GetSpecialRequest'))
      await log(`read ${a} ${w}→${r}`, send('GetSpecialRequest', r, { bookingId: a }));
    await log(`write ${b} ${w}`, send('UpdateSpecialRequest', w, { bookingId: b, text: TEXTS[3]! }));
    for (const r of use('GetSpecialRequest')) {
      await log(`read ${a} ${w}→${r}`, send('GetSpecialRequest', r, { bookingId: a }));
      await log(`read ${b} ${w}→${r}`, send('GetSpecialRequest', r, { bookingId: b }));
    }
  }
  for (const [i, c] of use('CancelBooking').entries()) {
    const a = `BK-8${i}00`;
    await log(`quote ${a}`, send('AmendmentPriceRequest', 'soap11', { bookingID: a }));
    await log(`cancel ${a} ${c}`, send('CancelBooking', c, { bookingID: a }));
    await log(`cancel ${nextBookingId(a)} ${c}`, send('CancelBooking', c, { bookingID: nextBookingId(a) }));
    await log(`cancel ${a} ${c}`, send('CancelBooking', c, { bookingID: a }));
    // A cancelled booking is priced and amended through every binding: each must be refused.
    const dates = { checkInDate: '2027-03-10T00:00:00', checkOutDate: '2027-03-17T00:00:00' };
    for (const r of use('AmendmentPriceRequest'))
      await log(`quote cancelled ${a} ${r}`, send('AmendmentPriceRequest', r, { bookingID: a, ...dates }));
    for (const r of use('AmendmentRequest'))
      await log(`amend cancelled ${a} ${r}`, send('AmendmentRequest', r, { bookingID: a, ...dates }));
  }
  for (const [i, c] of use('CancelTransferBooking').entries()) {
    const email = `customer${i}@example.com`;
    await log(`cancel TR-9${i}00 ${c}`, send('CancelTransferBooking', c, { transferBookingID: `TR-9${i}00`, email }));
    await log(`cancel TR-9${i}50 ${c}`, send('CancelTransferBooking', c, { transferBookingID: `TR-9${i}50`, email }));
    await log(
      `cancel TR-9${i}70 ${c}`,
      send('CancelTransferBooking', c, { transferBookingID: `TR-9${i}70`, email: `other${i}@example.com` }),
    );
    await log(
      `cancel TR-9${i}00 again ${c}`,
      send('CancelTransferBooking', c, { transferBookingID: `TR-9${i}00`, email }),
    );
  }
  // One booking written through one binding, then at once through another (a race, one after the other here), and read.
  const ws = use('UpdateSpecialRequest');
  if (ws.length > 1) {
    await log(`write 620000 ${ws[0]}`, send('UpdateSpecialRequest', ws[0]!, { bookingId: '620000', text: TEXTS[0]! }));
    await log(`write 620000 ${ws[1]}`, send('UpdateSpecialRequest', ws[1]!, { bookingId: '620000', text: TEXTS[1]! }));
    for (const r of use('GetSpecialRequest'))
      await log(`read 620000 →${r}`, send('GetSpecialRequest', r, { bookingId: '620000' }));
  }
  return out;
}

/** The first answer that differs, for the message. */
function firstDifference(a: readonly string[], b: readonly string[]): string {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i < 0 ? 'none' : `${a[i]!.slice(0, 400)}\n≠\n${b[i]!.slice(0, 400)}`;
}

describe('stateful faults', () => {
  test(
    'at least ten, marked stateful, each with a state hook; write path, read path and cancellation, '
      + 'single bindings and all',
    () => {
      expect(STATEFUL.length).toBeGreaterThanOrEqual(10);
      for (const f of STATEFUL) expect(f.apply.state, f.name).toBeDefined();
      for (const op of ['UpdateSpecialRequest', 'GetSpecialRequest', 'CancelBooking', 'CancelTransferBooking']) {
        expect(
          STATEFUL.some((f) => f.operation === op && f.bindings !== 'all'),
          `${op} on one binding`,
        ).toBe(true);
      }
      for (const op of ['UpdateSpecialRequest', 'GetSpecialRequest', 'CancelTransferBooking']) {
        expect(
          STATEFUL.some((f) => f.operation === op && f.bindings === 'all'),
          `${op} on all`,
        ).toBe(true);
      }
      expect(new Set(STATEFUL.flatMap((f) => faultBindings(f)))).toEqual(new Set(BINDINGS));
    },
  );

  test.for(STATEFUL.map((f) => [f.name] as const))(
    '%s: a single request on a fresh mock is the correct answer (unless about the first call)',
    async ([name]) => {
      const f = STATEFUL.find((x) => x.name === name)!;
      let differs = 0;
      for (const b of faultBindings(f)) {
        for (const c of cases.get(f.operation)!) {
          const faulty = await mock({ faults: [name] })(f.operation, b, c.params);
          const correct = await mock()(f.operation, b, c.params);
          if (f.showsOnFirstCall) differs += faulty.body === correct.body ? 0 : 1;
          else expect(faulty.body, `${b} ${c.id}`).toBe(correct.body);
        }
      }
      if (f.showsOnFirstCall) expect(differs).toBeGreaterThan(0);
    },
  );

  test.for(STATEFUL.map((f) => [f.name] as const))(
    '%s: a short sequence shows it; without its bindings for its operation, the sequence does not',
    async ([name]) => {
      const f: Fault = STATEFUL.find((x) => x.name === name)!;
      const correct = await battery(mock());
      const faulty = await battery(mock({ faults: [name] }));
      expect(faulty.length).toBe(correct.length);
      expect(faulty, 'the battery shows no difference').not.toEqual(correct);
      // It shows where it says it does (showsIn): the answers that differ are of those operations.
      const shown = new Set(faulty.filter((x, i) => x !== correct[i]).map((x) => x.split(' ')[0]));
      expect(
        [...shown].filter((o) => !f.showsIn!.includes(o!)),
        `${name} shows in ${[...shown].join(', ')}`,
      ).toEqual([]);
      if (f.bindings !== 'all') {
        // The same battery, the fault's operation called only through the other bindings: no trace.
        const others: Use = (op) =>
          op === f.operation ? BINDINGS.filter((b) => !faultBindings(f).includes(b)) : BINDINGS;
        const a = await battery(mock(), others);
        const b = await battery(mock({ faults: [name] }), others);
        expect(b, firstDifference(a, b)).toEqual(a);
      }
    },
  );
});
