/** The mock's data: determinism, variety over parameters, credentials, the one binding difference. */
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, findOperation, OPERATIONS, type Operation } from '../contract/catalogue.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import {
  adjustForBinding,
  AUTH_ERROR_TYPE,
  AUTH_FAILED,
  hasGenerator,
  reportsErrorsInBand,
  resolveOperation,
} from './data.js';
import { DEFAULT_PASSWORD, DEFAULT_USER } from './handlers.js';
import { serializeResult, type DataObject, type Value } from './serialize.js';
import { validParams } from '../../test/support/mock.js';

const CREDS = { user: DEFAULT_USER, password: DEFAULT_PASSWORD };
const op = (name: string): Operation => findOperation(name)!;

function result(name: string, overrides: Record<string, string | undefined> = {}): Value {
  const o = op(name);
  const outcome = resolveOperation(o, validParams(o, overrides), CREDS);
  if (outcome.kind !== 'result') throw new Error(`fault: ${outcome.reason}`);
  return outcome.value;
}
const obj = (v: Value) => v as DataObject;
const arr = (v: Value) => v as readonly Value[];

/** Results of an operation over many bookings, for checks that some vary. */
function over<T>(n: number, name: string, key: string, f: (v: DataObject) => T): T[] {
  return Array.from({ length: n }, (_, i) =>
    f(obj(result(name, { [key]: key === 'bookingId' ? String(1000 + i) : `BK-${1000 + i}` }))),
  );
}

describe('coverage of the catalogue', () => {
  test('every operation has a data generator', () => {
    for (const o of OPERATIONS) expect(hasGenerator(o.resultType), o.name).toBe(true);
  });
  test('in-band errors exactly for the BaseResult types', () => {
    expect(OPERATIONS.filter((o) => reportsErrorsInBand(o.resultType)).map((o) => o.name)).toEqual([
      'GetRoomTypes',
      'SearchTransfers',
    ]);
  });
});

describe('deterministic', () => {
  test.for(OPERATIONS.map((o) => o.name))('%s: same parameters, same data; parameter order irrelevant', (name) => {
    const o = op(name);
    const params = validParams(o);
    const reversed = Object.fromEntries(Object.entries(params).reverse());
    const a = resolveOperation(o, params, CREDS);
    expect(JSON.stringify(resolveOperation(o, params, CREDS))).toBe(JSON.stringify(a));
    expect(JSON.stringify(resolveOperation(o, reversed, CREDS))).toBe(JSON.stringify(a));
  });
  test('the credentials are not part of the seed', () => {
    const o = op('CancelBooking');
    const a = resolveOperation(o, validParams(o), CREDS);
    const b = resolveOperation(o, validParams(o, { userName: 'u2', password: 'p2' }), { user: 'u2', password: 'p2' });
    expect(b).toEqual(a);
  });
});

describe('variety: optional present and absent, nil and not, over parameters', () => {
  test('AmendmentPriceRequest', () => {
    const rs = over(60, 'AmendmentPriceRequest', 'bookingID', (v) => v);
    expect(rs.some((r) => r.hotelnotes === undefined)).toBe(true);
    expect(rs.some((r) => Array.isArray(r.hotelnotes) && r.hotelnotes.length > 0)).toBe(true);
    const notes = rs.flatMap((r) => [...arr(r.hotelnotes ?? []), ...arr(r.roomnotes ?? [])].map(obj));
    expect(notes.some((n) => n.text === undefined)).toBe(true);
    expect(notes.some((n) => typeof n.text === 'string')).toBe(true);
    const policies = rs.flatMap((r) => arr(r.cancellation_policies ?? []).map(obj));
    expect(policies.some((p) => p.deadline === null)).toBe(true);
    expect(policies.some((p) => typeof p.deadline === 'number')).toBe(true);
    expect(rs.some((r) => r.cancellation_policies === undefined)).toBe(true);
    expect(new Set(rs.map((r) => r.BookingType))).toEqual(new Set(['FullPeriod', 'ExtraDays']));
    expect(new Set(rs.map((r) => obj(r.Price).currency)).size).toBeGreaterThan(1);
  });

  test('AmendmentPriceRequest: price grows with the stay; no stay, no amendment', () => {
    const week = obj(
      result('AmendmentPriceRequest', { checkInDate: '2025-06-01T00:00:00', checkOutDate: '2025-06-08T00:00:00' }),
    );
    const two = obj(
      result('AmendmentPriceRequest', { checkInDate: '2025-06-01T00:00:00', checkOutDate: '2025-06-03T00:00:00' }),
    );
    expect(Number(obj(week.Price).$text)).toBeGreaterThan(Number(obj(two.Price).$text));
    const none = obj(
      result('AmendmentPriceRequest', { checkInDate: '2025-06-05T00:00:00', checkOutDate: '2025-06-01T00:00:00' }),
    );
    expect(none.BookingType).toBe('NoAmendmentAvailable');
    expect(obj(none.Price).$text).toMatch(/^0(\.0+)?$/);
  });

  test('AmendmentRequest: accepted within maxPrice; fees present, empty and absent', () => {
    const cheap = obj(result('AmendmentRequest', { maxPrice: '0.01' }));
    expect(obj(cheap.AmendmentBooking).bookingStatus).toBe('NotActive');
    expect(obj(cheap.OriginalBooking).bookingStatus).toBe('Active');
    const rich = obj(result('AmendmentRequest', { maxPrice: '999999' }));
    expect(obj(rich.AmendmentBooking).bookingStatus).toBe('Active');
    expect(obj(rich.OriginalBooking).bookingStatus).toBe('NotActive');
    const fees = over(60, 'AmendmentRequest', 'bookingID', (v) => obj(v.AmendmentBooking).currentCancellationPolicyFee);
    expect(fees.some((f) => f === undefined)).toBe(true);
    expect(fees.some((f) => Array.isArray(f) && f.length === 0)).toBe(true);
    expect(fees.some((f) => Array.isArray(f) && f.length > 0)).toBe(true);
  });

  test('CancelBooking: methods with and without fees, several cancellations, money values', () => {
    const methods = over(40, 'CancelBooking', 'bookingID', (v) => arr(v.CancellationPaymentMethod).map(obj)).flat();
    expect(methods.some((m) => arr(m.cancellationfee).length === 0)).toBe(true);
    expect(methods.some((m) => arr(m.cancellationfee).length > 1)).toBe(true);
    expect(methods.some((m) => arr(m.cancellation).length > 1)).toBe(true);
    for (const f of methods.flatMap((m) => arr(m.cancellationfee).map(obj)))
      expect(f.$content).toMatch(/^\d+(\.\d{2})?$/);
  });

  test('GetSpecialRequest varies with the booking and may be empty', () => {
    const texts = over(40, 'GetSpecialRequest', 'bookingId', (v) => v.text);
    expect(new Set(texts).size).toBeGreaterThan(4);
    expect(texts).toContain('');
  });

  test('UpdateSpecialRequest reports what it did, counting characters not bytes', () => {
    expect(obj(result('UpdateSpecialRequest', { bookingId: '42', text: '日本語' }))).toEqual({
      resultCode: 0,
      resultMessage: 'Special request of booking 42 saved (3 characters).',
    });
    expect(obj(result('UpdateSpecialRequest', { text: '  ' })).resultCode).toBe(1);
  });

  test('reference data: optional and nil values, labels absent, empty and present, localised', () => {
    const meals = arr(obj(result('GetMeals', { language: 'fr' })).meals).map(obj);
    expect(meals.some((m) => m.labels === undefined)).toBe(true);
    expect(meals.some((m) => Array.isArray(m.labels) && m.labels.length === 0)).toBe(true);
    expect(meals.some((m) => Array.isArray(m.labels) && m.labels.length > 1)).toBe(true);
    expect(meals.map((m) => m.name)).toContain('Petit-déjeuner');
    const rooms = arr(obj(result('GetRoomTypes')).roomTypes).map(obj);
    expect(rooms.some((r) => r.name === undefined)).toBe(true);
    expect(rooms.some((r) => r.sharedFacilities === null)).toBe(true);
    const themes = arr(obj(result('GetThemes')).themes).map(obj);
    expect(themes.some((t) => t.image === undefined)).toBe(true);
    expect(themes.some((t) => t.name === undefined)).toBe(true);
    expect(arr(obj(result('GetLanguages')).languages).map((l) => obj(l).name)).toEqual(
      expect.arrayContaining(['Ελληνικά', '日本語']),
    );
    expect(arr(obj(result('GetFeatures', { language: 'ja' })).features).map((f) => obj(f).name)).toContain('無料Wi-Fi');
    expect(arr(obj(result('GetHotelNoteTypes', { language: 'xx' })).noteTypes).map((f) => obj(f).text)).toContain(
      'Renovation',
    );
  });

  test(
    'SearchTransfers: airports with and without optional strings, transfers absent and empty, rates per ' + 'currency',
    () => {
      const all = arr(
        obj(result('SearchTransfers', { hotelID: undefined, bookingID: undefined, currencies: 'EUR,JPY' })).airports,
      ).map(obj);
      expect(all.length).toBeGreaterThan(4);
      expect(all.some((a) => a.airportName === undefined && a.iataCode === undefined && a.timeZone === undefined)).toBe(
        true,
      );
      expect(all.some((a) => a.iataCode !== undefined && a.timeZone === undefined)).toBe(true);
      expect(all.some((a) => a.transfers === undefined)).toBe(true);
      expect(all.some((a) => Array.isArray(a.transfers) && a.transfers.length === 0)).toBe(true);
      const transfers = all.flatMap((a) => arr(a.transfers ?? []).map(obj));
      expect(transfers.some((t) => t.transferTypeName === undefined)).toBe(true);
      expect(transfers.some((t) => t.transferTypeName !== undefined)).toBe(true);
      for (const t of transfers) {
        expect(arr(t.rates).map((r) => obj(r).currency)).toEqual(['EUR', 'JPY']);
        expect(obj(arr(t.rates)[1]!).$text).toMatch(/^\d+$/);
      }
    },
  );

  test('SearchTransfers: filters and season', () => {
    const resort = arr(
      obj(result('SearchTransfers', { resortID: '503', hotelID: undefined, bookingID: undefined })).airports,
    ).map(obj);
    expect(resort.map((a) => a.airportId)).toEqual([13, 16]);
    const unknownResort = arr(obj(result('SearchTransfers', { resortID: '341' })).airports);
    expect(unknownResort.length).toBe(1);
    const hotel = arr(obj(result('SearchTransfers', { hotelID: '777', bookingID: undefined })).airports);
    expect(hotel.length).toBe(2);
    const taxi = arr(
      obj(result('SearchTransfers', { transferID: '2', hotelID: undefined, bookingID: undefined })).airports,
    ).map(obj);
    for (const a of taxi) for (const t of arr(a.transfers)) expect(obj(t).transferTypeId).toBe(2);
    expect(result('SearchTransfers', { transferID: '99' })).toBeNull();
    const rate = (arrivalDate: string) =>
      obj(
        arr(
          obj(
            arr(
              obj(
                arr(
                  obj(
                    result('SearchTransfers', {
                      resortID: '501',
                      currencies: 'EUR',
                      arrivalDate,
                      hotelID: undefined,
                      bookingID: undefined,
                    }),
                  ).airports,
                )[0]!,
              ).transfers,
            )[0]!,
          ).rates,
        )[0]!,
      ).$text;
    expect(Number(rate('2025-07-01'))).toBeGreaterThan(Number(rate('2025-03-01')));
  });

  test('SearchTransfers: the broadest result is large, the filtered ones are not, the same every time', () => {
    const broadest = () =>
      arr(obj(result('SearchTransfers', { hotelID: undefined, bookingID: undefined })).airports).map(obj);
    const all = broadest();
    expect(all.length).toBeGreaterThanOrEqual(300);
    expect(JSON.stringify(broadest())).toBe(JSON.stringify(all));
    expect(new Set(all.map((a) => a.airportId)).size).toBe(all.length);
    expect(new Set(all.map((a) => a.iataCode).filter(Boolean)).size).toBe(all.filter((a) => a.iataCode).length);
    expect(all.slice(0, 7).map((a) => a.airportId)).toEqual([11, 12, 13, 14, 15, 16, 17]);
    // The rest of the network varies as the hand-written airports do.
    const network = all.slice(7);
    expect(
      network.some((a) => a.airportName === undefined)
        && network.some((a) => a.timeZone === undefined)
        && network.some((a) => a.transfers === undefined),
    ).toBe(true);
    // A network resort lists its airports; hotels and bookings stay near the hand-written ones.
    const resortOf300th = all[299]!.resortId;
    const resort = arr(
      obj(result('SearchTransfers', { resortID: String(resortOf300th), hotelID: undefined, bookingID: undefined }))
        .airports,
    ).map(obj);
    expect(resort.map((a) => a.airportId)).toContain(all[299]!.airportId);
    expect(resort.every((a) => a.resortId === resortOf300th)).toBe(true);
    expect(
      arr(obj(result('SearchTransfers', { hotelID: '777', bookingID: undefined })).airports)
        .map(obj)
        .every((a) => Number(a.airportId) < 100),
    ).toBe(true);
    expect(
      arr(obj(result('SearchTransfers', { transferID: '1', hotelID: undefined, bookingID: undefined })).airports)
        .length,
    ).toBeLessThan(300);
  });

  test('SearchTransfers: bad optional values are reported in-band', () => {
    expect(result('SearchTransfers', { hotelID: 'abc' })).toEqual({
      Error: { ErrorType: 'InvalidParameter', Message: 'hotelID must be an integer, got "abc".' },
    });
    expect(obj(obj(result('SearchTransfers', { currencies: 'EUR,XYZ' })).Error).Message).toMatch(/XYZ/);
    expect(obj(obj(result('SearchTransfers', { arrivalDate: '14.07.2025' })).Error).Message).toMatch(/arrivalDate/);
    expect(obj(obj(result('SearchTransfers', { arrivalTime: 'noon' })).Error).Message).toMatch(/arrivalTime/);
  });
});

describe('credentials', () => {
  test.for(OPERATIONS.map((o) => o.name))('%s: wrong credentials give no data', (name) => {
    const o = op(name);
    for (const params of [
      validParams(o, { password: 'nope' }),
      validParams(o, { userName: 'nobody' }),
      validParams(o, { userName: undefined, password: undefined }),
    ]) {
      const outcome = resolveOperation(o, params, CREDS);
      if (reportsErrorsInBand(o.resultType)) {
        expect(outcome).toEqual({
          kind: 'result',
          value: { Error: { ErrorType: AUTH_ERROR_TYPE, Message: AUTH_FAILED } },
        });
      } else {
        expect(outcome).toEqual({ kind: 'fault', reason: AUTH_FAILED });
      }
    }
  });
});

describe('the one documented binding difference', () => {
  const o = op('CancelBooking');
  const value = result('CancelBooking');
  const policies = (v: Value) =>
    arr(obj(v).CancellationPaymentMethod).flatMap((m) =>
      arr(obj(m).cancellation).map((c) => obj(c).activecancellationpolicy),
    );

  test('SOAP: activecancellationpolicy nil; GET/POST: text; the input is not changed', () => {
    const before = JSON.stringify(value);
    for (const id of ['soap11', 'soap12'] as const)
      expect(new Set(policies(adjustForBinding(o, id, value)))).toEqual(new Set([null]));
    for (const id of ['get', 'post'] as const) {
      expect(adjustForBinding(o, id, value)).toBe(value);
      for (const p of policies(value)) expect(typeof p === 'string' && p.length > 0).toBe(true);
    }
    expect(JSON.stringify(value)).toBe(before);
  });

  test('no other operation differs', () => {
    for (const other of OPERATIONS.filter((x) => x.name !== 'CancelBooking')) {
      const v = result(other.name);
      expect(adjustForBinding(other, 'soap11', v)).toBe(v);
    }
  });
});

describe('every generated result over many parameter sets serialises strictly and validates', () => {
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);
  test.for(OPERATIONS.map((o) => o.name))('%s', (name) => {
    const o = op(name);
    const languages = ['en', 'de', 'fr', 'el', 'ja', 'sv'];
    for (let i = 0; i < 30; i++) {
      const overrides: Record<string, string> = {};
      for (const p of o.params) {
        if (p.name === 'bookingID' || p.name === 'transferBookingID') overrides[p.name] = `BK-${i * 7919}`;
        if (p.name === 'bookingId') overrides[p.name] = String(i * 7919);
        if (p.name === 'language') overrides[p.name] = languages[i % languages.length]!;
        if (p.name === 'checkOutDate') overrides[p.name] = `2025-06-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00`;
        if (p.name === 'hotelID') overrides[p.name] = String(i);
      }
      for (const binding of ['soap11', 'get'] as const) {
        const v = adjustForBinding(o, binding, result(name, overrides));
        const xml = serializeResult(o, v, { ns: DEFAULT_NAMESPACES[o.ns], declareNamespace: true });
        const outcome = validator.validate(xml);
        expect(outcome.xsdErrors, `${name} #${i}: ${xml}`).toEqual([]);
      }
    }
  });
});
