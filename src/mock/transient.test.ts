import { afterEach, describe, expect, test } from 'vitest';
import { request } from 'undici';
import { findOperation, DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { call, validParams } from '../../test/support/mock.js';
import { startMock, type RunningMock } from './server.js';
import { isWriteRequest, TransientFaults } from './transient.js';
import { parseMockFlags } from './main.js';

const mocks: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((m) => m.close()));
});

describe('the transient-fault mode draws', () => {
  test('the same seed gives the same faults; the rate holds roughly; pauses within their bounds', () => {
    const draw = (seed: number) => {
      const f = new TransientFaults({ rate: 0.1, seed, pauseMs: [10, 30] });
      return Array.from({ length: 2000 }, () => f.before());
    };
    const a = draw(7);
    expect(draw(7)).toEqual(a);
    expect(draw(8)).not.toEqual(a);
    const hit = a.filter((x) => x !== undefined);
    expect(hit.length).toBeGreaterThan(140);
    expect(hit.length).toBeLessThan(260);
    expect(new Set(hit.map((x) => x!.fault))).toEqual(new Set(['gateway_503', 'gateway_502', 'drop', 'pause']));
    for (const p of hit.filter((x) => x!.fault === 'pause'))
      expect(p!.pauseMs).toBeGreaterThanOrEqual(10), expect(p!.pauseMs).toBeLessThanOrEqual(30);
  });

  test('a share outside 0..1 is refused', () => {
    expect(() => new TransientFaults({ rate: 1.5 })).toThrow(/rate must be a share/);
    expect(() => new TransientFaults({ rate: 0, dropWrites: -1 })).toThrow(/dropWrites/);
  });

  test('writes are told from reads by path, SOAPAction, content type or body', () => {
    const none = Buffer.alloc(0);
    expect(isWriteRequest('/1/SOAP/Booking.asmx/UpdateSpecialRequest', undefined, undefined, none)).toBe(true);
    expect(isWriteRequest('/1/SOAP/Booking.asmx', '"http://x/CancelBooking"', undefined, none)).toBe(true);
    expect(
      isWriteRequest(
        '/1/SOAP/Booking.asmx',
        undefined,
        'application/soap+xml; action="http://x/AmendmentRequest"',
        none,
      ),
    ).toBe(true);
    expect(
      isWriteRequest(
        '/1/SOAP/Booking.asmx',
        undefined,
        'text/xml',
        Buffer.from('<soap:Body><CancelTransferBooking xmlns="x">'),
      ),
    ).toBe(true);
    expect(
      isWriteRequest('/1/SOAP/Booking.asmx/AmendmentPriceRequest', '"http://x/AmendmentPriceRequest"', undefined, none),
    ).toBe(false);
    expect(isWriteRequest('/1/SOAP/Booking.asmx/GetSpecialRequest', undefined, undefined, none)).toBe(false);
  });

  test('npm run mock flags: --transient, --transient-seed, --transient-pause, --drop-writes; bad values named', () => {
    const f = parseMockFlags(
      ['--transient', '0.03', '--transient-seed', '4', '--transient-pause', '5-20', '--drop-writes', '0.05'],
      {},
    );
    expect(f !== 'help' && f !== 'list-faults' && f.transient).toEqual({
      rate: 0.03,
      seed: 4,
      pauseMs: [5, 20],
      dropWrites: 0.05,
    });
    expect(() => parseMockFlags(['--transient', '3%'], {})).toThrow(/--transient must be a share from 0 to 1/);
    expect(() => parseMockFlags(['--transient', '2'], {})).toThrow(/--transient must be a share/);
    expect(() => parseMockFlags(['--transient-pause', '1-2'], {})).toThrow(/needs --transient/);
    expect(() => parseMockFlags(['--transient', '0.1', '--transient-pause', '9-2'], {})).toThrow(/MIN-MAX/);
  });
});

describe('the mock in transient-fault mode', () => {
  const meals = findOperation('GetMeals')!;

  test('every request meets a gateway page, a dropped connection or a pause before processing; counted', async () => {
    const m = await startMock({ transient: { rate: 1, seed: 3, pauseMs: [5, 10] } });
    mocks.push(m);
    const seen = { page: 0, dropped: 0, answered: 0 };
    for (let i = 0; i < 40; i++) {
      try {
        const r = await call(m.url, DEFAULT_NAMESPACES, meals, 'soap11', validParams(meals));
        if (r.status === 502 || r.status === 503) {
          expect(r.headers['content-type']).toBe('text/html');
          expect(r.body).toMatch(/<html>[\s\S]*nginx/);
          seen.page++;
        } else {
          expect(r.status).toBe(200);
          seen.answered++;
        }
      } catch (e) {
        expect(String((e as { code?: string }).code ?? e)).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
        seen.dropped++;
      }
    }
    const c = m.transientCounts!();
    expect(seen.page).toBe(c.gateway_503! + c.gateway_502!);
    expect(seen.dropped).toBe(c.drop);
    expect(seen.answered).toBe(c.pause);
    expect(Math.min(seen.page, seen.dropped, seen.answered)).toBeGreaterThan(0);
  });

  test('drop-writes: the write is applied, its answer lost; a read shows it took effect', async () => {
    const m = await startMock({ transient: { rate: 0, dropWrites: 1 } });
    mocks.push(m);
    const update = findOperation('UpdateSpecialRequest')!;
    const get = findOperation('GetSpecialRequest')!;
    const params = validParams(update, { bookingId: '4242', text: 'dropped but stored' });
    await expect(call(m.url, DEFAULT_NAMESPACES, update, 'post', params)).rejects.toMatchObject({
      code: 'UND_ERR_SOCKET',
    });
    const r = await call(m.url, DEFAULT_NAMESPACES, get, 'post', validParams(get, { bookingId: '4242' }));
    expect(r.status).toBe(200);
    expect(r.body).toContain('dropped but stored');
    expect(m.transientCounts!().dropped_write).toBe(1);
    // Reads are never dropped by this mode.
    const plain = await request(
      `${m.url}/1/SOAP/Booking.asmx/GetSpecialRequest?${new URLSearchParams(validParams(get, { bookingId: '4242' }))}`,
    );
    expect(plain.statusCode).toBe(200);
    await plain.body.text();
  });
});
