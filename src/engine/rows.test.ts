import { describe, expect, test } from 'vitest';
import { findOperation } from '../contract/catalogue.js';
import { makeRedactor } from '../core/redact.js';
import type { Exchange } from '../core/types.js';
import { clip, MAX_MESSAGE_CHARS, RowMaker } from './rows.js';
import { MAX_FINDINGS_KEPT } from '../checks/types.js';

const SECRET = 'Pa55-w0rd!x';
const op = findOperation('GetMeals')!;
const exchange = (body: string): Exchange => ({
  request: {
    method: 'POST',
    url: 'http://t.example/SOAP/x.asmx',
    headers: { 'content-type': 'text/xml' },
    body: `<password>${SECRET}</password>`,
  },
  response: { status: 500, headers: { 'content-type': 'text/plain' }, body: Buffer.from(body), elapsedMs: 1 },
});

describe('rows: the redaction boundary of a run', () => {
  test(
    'every text of a failed row is redacted: message, path, expected, actual, reproduce, excerpts, ' + 'in-band Error',
    () => {
      const rows = new RowMaker(makeRedactor([SECRET]));
      const base = {
        op,
        binding: 'soap11',
        caseId: 'c',
        reproduce: `curl -d 'password=${SECRET}'`,
        exchange: exchange(`bad password ${SECRET}`),
      };
      const failed = rows.row(base, 'shape', [
        {
          check: 'shape',
          code: 'unknown_attribute',
          path: `/a[@x='${SECRET}']`,
          message: `m ${SECRET}`,
          expected: SECRET,
          actual: `x${SECRET}`,
        },
      ]);
      const skipped = rows.row(base, 'shape', {
        skipped: `s ${SECRET}`,
        inBandError: { type: SECRET, message: SECRET },
      });
      const noted = rows.row(base, 'shape', { note: `n ${SECRET}` });
      const text = JSON.stringify([failed, skipped, noted]);
      expect(text).not.toContain(SECRET);
      expect(failed.response).toContain('bad password ***');
      expect(failed.request).toContain('<password>***</password>');
      expect(failed.reproduce).toContain('password=***');
    },
  );

  test('each distinct text is redacted once per unit, however many rows repeat it', () => {
    let calls = 0;
    const inner = makeRedactor([SECRET]);
    const rows = new RowMaker((t) => {
      calls++;
      return inner(t);
    });
    const base = { op, binding: 'get', caseId: 'c', reproduce: 'curl http://t.example/x' };
    for (let i = 0; i < 10; i++) rows.row(base, `check${i}`, []);
    expect(calls).toBe(1);
  });

  test("rows of interleaved exchanges each carry their own command's redaction, fields in the report's order", () => {
    const redact = makeRedactor([SECRET]);
    const rows = new RowMaker(redact);
    const a = { op, binding: 'get', caseId: 'a', reproduce: `curl -d 'password=${SECRET}' http://t.example/a` };
    const b = { op, binding: 'post', caseId: 'b', reproduce: 'curl http://t.example/b' };
    const made = [a, b, b, a, a, b].map((base, i) => rows.row(base, `check${i}`, [], i));
    expect(made.map((r) => r.reproduce)).toEqual([a, b, b, a, a, b].map((base) => redact(base.reproduce)));
    const ex = exchange('fine');
    const first = rows.exchangeRow({ ...a, exchange: ex }, 'http_exchange', [], 3);
    expect(Object.keys(first)).toEqual([
      'operation',
      'group',
      'binding',
      'case',
      'check',
      'reproduce',
      'durationMs',
      'status',
      'message',
      'path',
      'findings',
      'request',
      'response',
    ]);
    const failed = rows.exchangeRow({ ...b, exchange: ex }, 'http_exchange', [
      { check: 'http_exchange', code: 'no_response', path: '/', message: 'm' },
    ]);
    expect(Object.keys(failed)).toEqual([
      'operation',
      'group',
      'binding',
      'case',
      'check',
      'reproduce',
      'status',
      'message',
      'path',
      'findings',
      'request',
      'response',
    ]);
    expect(failed.reproduce).toBe(b.reproduce);
  });

  test('a long message is cut after redaction, so a secret at the cut is never left half-shown', () => {
    const rows = new RowMaker(makeRedactor([SECRET]));
    const long = `${'x'.repeat(MAX_MESSAGE_CHARS - 4)}${SECRET}${'y'.repeat(50_000)}`;
    const r = rows.row({ op, binding: 'get', caseId: 'c', reproduce: '' }, 'shape', [
      { check: 'shape', code: 'unexpected_text', path: '/', message: long },
    ]);
    expect(r.message).not.toContain(SECRET.slice(0, 4));
    expect(r.message).toMatch(/… \([\d,]+ more characters\)$/);
    expect(r.message.length).toBeLessThan(MAX_MESSAGE_CHARS + 40);
  });

  test('clip keeps surrogate pairs whole and counts what it left out', () => {
    expect(clip('abc', 5)).toBe('abc');
    expect(clip('abcdef', 3)).toBe('abc… (3 more characters)');
    expect(clip('ab\u{1F600}cd', 3)).toBe('ab… (4 more characters)');
    expect(clip('abc', 2, 100)).toBe('ab… (98 more characters)');
  });
});

describe('rows: findings bounded whatever their source (issue 35)', () => {
  test('a row of 100,000 findings keeps a few per kind and counts the rest; a compacted list is kept as it is', () => {
    const rows = new RowMaker(makeRedactor([SECRET]));
    const base = { op, binding: 'soap11,get', caseId: 'c', reproduce: '' };
    const many = Array.from({ length: 100_000 }, (_, i) => ({
      check: 'binding_equivalence',
      code: 'value_differs' as const,
      path: `/r/meal[${i + 1}]/id`,
      message: `value ${i} differs`,
    }));
    const row = rows.row(base, 'binding_equivalence', many);
    expect(row.findings.length).toBeLessThanOrEqual(MAX_FINDINGS_KEPT);
    expect(row.findings.map((f) => f.message)).toEqual([
      'value 0 differs',
      'value 1 differs',
      'value 2 differs',
      'and 99,997 more like it: value 0 differs',
    ]);
    expect(row.message).toBe('value 0 differs (+3 more)');
    // Already bounded (a check's FindingList): not compacted again, its summaries not counted as findings.
    const again = rows.row(base, 'binding_equivalence', row.findings);
    expect(again.findings).toEqual(row.findings);
  });
});
