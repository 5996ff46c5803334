import { describe, expect, test } from 'vitest';
import type { Exchange } from '../core/types.js';
import { ambiguousWrite, DEFAULT_MAX_TRANSIENT, TransientTally, UNHEALTHY_TARGET } from './transient.js';

const req = { method: 'POST' as const, url: 'http://x/', headers: {} };
const ok: Exchange = {
  request: req,
  response: { status: 200, headers: { 'content-type': 'text/xml' }, body: Buffer.from('<a/>'), elapsedMs: 1 },
};
const page: Exchange = {
  request: req,
  response: { status: 503, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html></html>'), elapsedMs: 1 },
};
const reset: Exchange = { request: req, error: { code: 'connection_reset', message: 'closed' } };
const retriedOk: Exchange = {
  ...ok,
  retried: [
    { kind: 'gateway_502', status: 502, waitedMs: 10 },
    { kind: 'connection_reset', waitedMs: 30 },
  ],
};

describe('the transient tally and the health of a target', () => {
  test('counts per operation × binding: retries, transient answers, ambiguous writes', () => {
    const t = new TransientTally();
    t.note('GetMeals', 'soap11', retriedOk, false);
    t.note('GetMeals', 'soap11', ok, false);
    t.note('CancelBooking', 'get', reset, true);
    t.note('GetMeals', 'get', { request: req, error: { code: 'not_sent', message: '' } }, false);
    // 3 of 5 transient: 60%.
    const { transient, diagnosis } = t.summary(60);
    expect(diagnosis).toBeUndefined();
    expect(transient).toMatchObject({
      exchanges: 5,
      answers: 3,
      retries: 2,
      ambiguous: 1,
      unhealthy: false,
      maxPercent: 60,
    });
    expect(t.summary(59).transient!.unhealthy).toBe(true);
    expect(transient!.cells).toEqual([
      { operation: 'CancelBooking', binding: 'get', exchanges: 1, answers: 1, retries: 0, ambiguous: 1 },
      { operation: 'GetMeals', binding: 'soap11', exchanges: 4, answers: 2, retries: 2, ambiguous: 0 },
    ]);
  });

  test('3% transient is healthy by default; above --max-transient it is unhealthy, with the diagnosis', () => {
    const t = new TransientTally();
    for (let i = 0; i < 97; i++) t.note('GetMeals', 'soap11', ok, false);
    for (let i = 0; i < 3; i++) t.note('GetMeals', 'soap11', page, false);
    expect(t.summary(DEFAULT_MAX_TRANSIENT).transient!.unhealthy).toBe(false);
    const strict = t.summary(2);
    expect(strict.transient!.unhealthy).toBe(true);
    expect(strict.diagnosis).toMatchObject({
      level: 'error',
      code: UNHEALTHY_TARGET,
      message: expect.stringMatching(/3 of 100 exchanges \(3\.0%\).*--max-transient 2%/),
    });
  });

  test('nothing transient: no summary at all', () => {
    const t = new TransientTally();
    t.note('GetMeals', 'soap11', ok, false);
    expect(t.summary(20)).toEqual({});
  });

  test('a write is ambiguous without a real answer only', () => {
    expect(ambiguousWrite(reset)).toBe('no answer (connection_reset)');
    expect(ambiguousWrite(page)).toBe('a transient answer (gateway_503, HTTP 503)');
    expect(ambiguousWrite(ok)).toBeUndefined();
    expect(ambiguousWrite({ request: req, error: { code: 'connection_refused', message: '' } })).toBeUndefined();
  });
});
