import { describe, expect, test } from 'vitest';
import { findOperation } from '../contract/catalogue.js';
import type { ResultRow } from '../core/types.js';
import { FLAKY_MAX_CASES, resendFailures } from './flaky.js';
import { summarise } from './run.js';
import type { Unit } from './plan.js';

const meals = findOperation('GetMeals')!;
const cancel = findOperation('CancelBooking')!;
const unit = (op = meals, caseId = 'default'): Unit => ({ op, caseId, kind: 'valid', params: {} });
const row = (
  status: ResultRow['status'],
  check = 'shape',
  code: 'missing_required_element' | 'transient_answer' = 'missing_required_element',
): ResultRow => ({
  operation: 'GetMeals',
  group: 'reference',
  binding: 'soap11',
  case: 'default',
  check,
  status,
  message: status === 'failed' ? `${check} failed` : '',
  path: '',
  reproduce: 'curl …',
  findings: status === 'failed' ? [{ check, code, path: '/', message: `${check} failed` }] : [],
});
const failing = [row('passed', 'http_exchange'), row('failed')];
const passing = [row('passed', 'http_exchange'), row('passed')];
const transient = [row('failed', 'http_exchange', 'transient_answer')];

describe('FLAKY: a failure that does not reproduce when its case is sent again', () => {
  test('passes when sent again: FLAKY, its attempts kept, not failed; the summary counts it apart', async () => {
    let sent = 0;
    const out = await resendFailures([unit()], [failing], async () => {
      sent++;
      return passing;
    });
    expect(sent).toBe(1);
    expect(out.flaky).toBe(1);
    const rows = out.rows[0]!;
    expect(rows.filter((r) => r.status === 'failed')).toEqual([]);
    const flaky = rows.filter((r) => r.flaky);
    expect(flaky).toHaveLength(1);
    expect(flaky[0]).toMatchObject({
      status: 'skipped',
      check: 'shape',
      message: expect.stringMatching(/^FLAKY: failed, then passed when sent again \(attempt 2 of 2\)/),
    });
    expect(flaky[0]!.flaky!.attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'failed'],
      [2, 'passed'],
    ]);
    // The passing sending's rows come first: the cell is judged by them.
    expect(rows.slice(0, 2)).toEqual(passing);
    expect(summarise(rows)).toMatchObject({ failed: 0, flaky: 1 });
  });

  test('a failure that comes back fails as before: sent once more only', async () => {
    let sent = 0;
    const out = await resendFailures([unit()], [failing], async () => {
      sent++;
      return failing;
    });
    expect(sent).toBe(1);
    expect(out.flaky).toBe(0);
    expect(out.rows[0]).toEqual(failing);
    expect(summarise(out.rows[0]!).flaky).toBeUndefined();
  });

  test('a sending not sent (a host given up on) or not checked is no pass: the failure stands', async () => {
    const notRun: ResultRow = { ...row('skipped', 'all'), message: 'not sent: host given up on' };
    const out = await resendFailures([unit()], [failing], async () => [notRun]);
    expect(out.flaky).toBe(0);
    expect(out.rows[0]).toEqual(failing);
  });

  test(
    'the same answers, byte for byte: reproduced without checking them again; a transient one is tried ' + 'once more',
    async () => {
      const out = await resendFailures([unit()], [failing], async () => 'same' as const);
      expect(out.rows[0]).toEqual(failing);
      let sent = 0;
      await resendFailures([unit()], [transient], async () => {
        sent++;
        return 'same' as const;
      });
      expect(sent).toBe(2);
    },
  );

  test('a transient answer again is sent a second time; three transient sendings fail', async () => {
    const answers = [transient, passing];
    const out = await resendFailures([unit()], [transient], async () => answers.shift()!);
    expect(out.rows[0]!.find((r) => r.flaky)!.flaky!.attempts.map((a) => a.status)).toEqual([
      'failed',
      'failed',
      'passed',
    ]);
    let sent = 0;
    const stuck = await resendFailures([unit()], [transient], async () => {
      sent++;
      return transient;
    });
    expect(sent).toBe(2);
    expect(stuck.rows[0]).toEqual(transient);
  });

  test(
    'never a write, a sequence, or a case that passed; at most FLAKY_MAX_CASES cases; not past the ' + 'deadline',
    async () => {
      let sent = 0;
      const send = async () => {
        sent++;
        return passing;
      };
      const seq: Unit = { ...unit(), sequence: { family: 'write-read', pool: 'specialRequest', needs: 4 } };
      await resendFailures([unit(cancel), seq, unit()], [failing, failing, passing], send);
      expect(sent).toBe(0);
      const many = Array.from({ length: FLAKY_MAX_CASES + 5 }, (_, i) => unit(meals, `c${i}`));
      const out = await resendFailures(
        many,
        many.map(() => failing),
        send,
      );
      expect(sent).toBe(FLAKY_MAX_CASES);
      expect(out.resent).toBe(FLAKY_MAX_CASES);
      sent = 0;
      await resendFailures([unit()], [failing], send, { deadline: Date.now() - 1 });
      expect(sent).toBe(0);
    },
  );
});
