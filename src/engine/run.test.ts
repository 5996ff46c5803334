import { MockAgent } from 'undici';
import { describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation, OPERATIONS, type BindingId } from '../contract/catalogue.js';
import { selectChecks } from '../checks/registry.js';
import type { Target } from '../core/types.js';
import { Transport } from '../transport/client.js';
import { loadFixtureCases } from './cases.js';
import { planUnits, WRONG_PASSWORD, type RunPlan } from './plan.js';
import { runConformance } from './run.js';

const PASSWORD = 'Engine-Secret-91';
const target = (embedded: boolean): Target => ({
  bookUrl: 'http://target.test', searchUrl: 'http://target.test', transfersUrl: 'http://target.test', paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES, user: 'u', password: PASSWORD, embedded,
});
const plan = (o: Partial<RunPlan> = {}): RunPlan => ({
  target: target(false), bindings: ['soap11', 'soap12', 'get', 'post'], operations: OPERATIONS, cases: loadFixtureCases(),
  allowMutations: false, checks: selectChecks(), negative: true, equivalence: true, ...o,
});
const noValidator = { validate: () => ({ xsdErrors: [] }) };

describe('planning', () => {
  test('every case of every operation, then its negative cases; credentials injected', () => {
    const units = planUnits(plan());
    const cases = loadFixtureCases();
    const valid = units.filter((u) => u.kind === 'valid');
    expect(valid).toHaveLength([...cases.values()].reduce((n, c) => n + c.length, 0));
    for (const u of valid) expect(u.params).toMatchObject({ userName: 'u', password: PASSWORD });
    const wrong = units.filter((u) => u.kind === 'wrong-credentials');
    expect(wrong).toHaveLength(14);
    for (const u of wrong) expect(u.params.password).toBe(WRONG_PASSWORD);
    // typed parameters: AmendmentPriceRequest, AmendmentRequest, UpdateSpecialRequest, GetSpecialRequest
    expect(units.filter((u) => u.kind === 'missing-param').map((u) => `${u.op.name}:${u.caseId}`)).toEqual([
      'AmendmentPriceRequest:missing-checkInDate', 'AmendmentRequest:missing-roomId', 'UpdateSpecialRequest:missing-bookingId', 'GetSpecialRequest:missing-bookingId',
    ]);
    const missing = units.find((u) => u.caseId === 'missing-roomId')!;
    expect('roomId' in missing.params).toBe(false);
    expect(units.find((u) => u.caseId === 'unparsable-checkInDate')!.params.checkInDate).toBe('not-a-date');
    expect(units.filter((u) => u.kind === 'wrong-soapaction').every((u) => u.only?.join() === 'soap11')).toBe(true);
    expect(units.filter((u) => u.kind === 'unknown-operation').map((u) => u.caseId)).toEqual(['unknown-operation-Booking', 'unknown-operation-NonStaticXMLAPI']);
  });
  test('no negative cases when switched off; no SOAPAction case without SOAP 1.1', () => {
    expect(planUnits(plan({ negative: false })).every((u) => u.kind === 'valid')).toBe(true);
    expect(planUnits(plan({ bindings: ['get', 'post'] })).some((u) => u.kind === 'wrong-soapaction')).toBe(false);
  });
});

/** A transport whose every request fails the test: proves nothing was sent. */
function forbiddingTransport(sent: string[]): Transport {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agent.get('http://target.test').intercept({ path: () => true, method: () => true }).reply((o) => {
    sent.push(`${o.method} ${o.path} ${String(o.body ?? '').match(/<(\w+) xmlns=/)?.[1] ?? ''}`.trim());
    return { statusCode: 500, data: 'unexpected' };
  }).persist();
  return new Transport({ dispatcher: agent });
}

describe('a real target is not a test fixture', () => {
  test('state-changing operations send no request without --allow-mutations, and are reported skipped', async () => {
    const mutating = OPERATIONS.filter((o) => o.mutates);
    const sent: string[] = [];
    const report = await runConformance(plan({ operations: mutating }), { transport: forbiddingTransport(sent), validator: noValidator });
    // Only the harmless per-service probe for an operation that does not exist may be sent, and the
    // preflight's request for the service's WSDL.
    expect(sent.filter((s) => !s.includes('NoSuchOperation') && !s.endsWith('?WSDL'))).toEqual([]);
    expect(sent.filter((s) => mutating.some((o) => s.includes(o.name)))).toEqual([]);
    expect(sent.filter((s) => s.endsWith('?WSDL'))).toEqual(['GET /1/SOAP/Booking.asmx?WSDL']);
    expect(sent).toHaveLength(5);
    expect(report.results.length).toBeGreaterThan(0);
    for (const r of report.results.filter((x) => x.operation !== 'NoSuchOperation')) {
      expect(r.status).toBe('skipped');
      expect(r.message).toMatch(/changes state on the target: not called without --allow-mutations/);
    }
  });
  test('with --allow-mutations, or on the embedded mock, they are sent', async () => {
    const op = findOperation('CancelBooking')!;
    for (const p of [plan({ operations: [op], allowMutations: true, negative: false }), plan({ operations: [op], target: target(true), negative: false })]) {
      const sent: string[] = [];
      await runConformance(p, { transport: forbiddingTransport(sent), validator: noValidator });
      expect(sent.filter((s) => !s.endsWith('?WSDL')).length).toBe(p.cases.get('CancelBooking')!.length * 4);
    }
  });
});

describe('redaction', () => {
  test('a target that echoes the password gets it redacted from every row, reproduce uses the variable', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('http://target.test').intercept({ path: () => true, method: () => true }).reply((o) => ({
      statusCode: 500, data: `echo: ${o.path} ${String(o.body ?? '')}`, responseOptions: { headers: { 'content-type': 'text/plain' } },
    })).persist();
    const bindings: BindingId[] = ['soap11', 'get', 'post'];
    const report = await runConformance(plan({ operations: [findOperation('GetMeals')!], bindings, negative: false }), { transport: new Transport({ dispatcher: agent }), validator: noValidator });
    expect(report.summary.failed).toBeGreaterThan(0);
    const text = JSON.stringify(report);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(encodeURIComponent(PASSWORD));
    expect(report.results.some((r) => r.response?.includes('***'))).toBe(true);
    expect(report.results.every((r) => !r.reproduce || r.reproduce.endsWith('?WSDL') || r.reproduce.includes('${CONFORMANCE_PASSWORD:?set CONFORMANCE_PASSWORD to the password}'))).toBe(true);
    expect(report.target.password).toBe('***');
  });
});
