/**
 * XML a SOAP endpoint must refuse (issue 42, section 2): the DOCTYPE probes as planned and sent, the
 * listener of the external one, and how a run judges them (dtd_refused: dtd_processed on an answer
 * with data, external_entity_fetched on a request to the listener, a note when no fetch could be seen).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation, OPERATIONS } from '../../src/contract/catalogue.js';
import { selectChecks } from '../../src/checks/registry.js';
import type { Target } from '../../src/core/types.js';
import { Transport } from '../../src/transport/client.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { DEFAULT_PASSWORD, DEFAULT_USER, startMock, type RunningMock } from '../../src/mock/index.js';
import type { Fault } from '../../src/mock/fault-types.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import {
  bookingNeeds,
  DOCTYPE_EXTERNAL_CASE,
  DOCTYPE_INTERNAL_CASE,
  planUnits,
  unitRequests,
  type RunPlan,
} from '../../src/engine/plan.js';
import {
  CallbackListener,
  LOCAL_GRACE_MS,
  newNonce,
  openCallback,
  UNREACHABLE_BASE,
  type Callback,
} from '../../src/engine/callback.js';
import { runPlan } from '../../src/engine/run.js';
import { checksOf } from '../../src/engine/session.js';
import { DOCTYPE_CASE_IDS, isHostileRow } from '../../src/core/check-groups.js';

const target = (url = 'http://target.test'): Target => ({
  bookUrl: url,
  searchUrl: url,
  transfersUrl: url,
  paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES,
  user: DEFAULT_USER,
  password: DEFAULT_PASSWORD,
  embedded: false,
});
const plan = (o: Partial<RunPlan> = {}): RunPlan => ({
  target: target(),
  bindings: ['soap11', 'soap12', 'get', 'post'],
  operations: OPERATIONS,
  cases: loadFixtureCases(),
  allowMutations: true,
  checks: selectChecks(),
  negative: true,
  equivalence: true,
  ...o,
});
const callback = (base: string, listener?: CallbackListener): Callback => ({
  base,
  nonce: newNonce(),
  ...(listener ? { listener } : {}),
  graceMs: LOCAL_GRACE_MS,
});

/**
 * Every external reference a request body makes: a system or public identifier, a URL anywhere in a DOCTYPE, a
 * parameter entity.
 */
function externalReferences(body: string): string[] {
  const doctype = /<!DOCTYPE[\s\S]*?\]>/.exec(body)?.[0] ?? '';
  return [
    ...doctype.matchAll(/SYSTEM\s+"([^"]*)"|PUBLIC\s+"[^"]*"\s+"([^"]*)"|([a-z][\w+.-]*:\/\/[^"\s>]*)|(%\w+;)/gi),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]!);
}

describe('planning the DOCTYPE probes', () => {
  const base = 'http://10.1.2.3:8765/cb';
  const p = plan({ callback: callback(base) });
  const units = planUnits(p).filter((u) => u.kind === 'doctype');

  test(
    'two on every SOAP 1.1 and SOAP 1.2 operation, none on HTTP GET or POST: 14 × 2 × 2 = 56 exchanges, '
      + 'one unit per operation and probe',
    () => {
      expect(units).toHaveLength(OPERATIONS.length * 2);
      const requests = units.flatMap((u) => unitRequests(p, u));
      expect(requests).toHaveLength(56);
      for (const op of OPERATIONS) {
        expect(
          units
            .filter((u) => u.op === op)
            .map((u) => u.caseId)
            .sort(),
          op.name,
        ).toEqual([DOCTYPE_EXTERNAL_CASE, DOCTYPE_INTERNAL_CASE]);
        for (const u of units.filter((x) => x.op === op))
          expect(
            unitRequests(p, u).map((r) => r.binding),
            `${op.name} ${u.caseId}`,
          ).toEqual(['soap11', 'soap12']);
      }
      // A plan without SOAP sends none.
      expect(planUnits(plan({ bindings: ['get', 'post'] })).some((u) => u.kind === 'doctype')).toBe(false);
    },
  );

  test(
    'nothing harmful: one entity, no entity in another, no file: URL, and no external reference but the '
      + "listener at the probe's own path",
    () => {
      const seen = new Set<string>();
      for (const u of units) {
        for (const { binding, request } of unitRequests(p, u)) {
          const body = request.body!;
          expect(body.match(/<!ENTITY/g), body).toHaveLength(1);
          expect(body).not.toMatch(/file:|<!ENTITY\s+%|&(?!probe;|#)\w+;/i);
          // The entity is used once, as the user name's whole value; the password is sent as in every valid call.
          expect(body.match(/&probe;/g)).toHaveLength(1);
          expect(body).toContain('<userName>&probe;</userName>');
          const refs = externalReferences(body);
          if (u.caseId === DOCTYPE_INTERNAL_CASE) {
            expect(refs).toEqual([]);
            expect(body).toContain(`<!ENTITY probe "${DEFAULT_USER}">`);
          } else {
            const url = `${base}/conformance-probe/${p.callback!.nonce}/${u.op.name}/${binding}`;
            expect(refs).toEqual([url]);
            seen.add(url);
          }
        }
      }
      // A path unique to each probe: operation, binding, the run's nonce.
      expect(seen.size).toBe(OPERATIONS.length * 2);
    },
  );

  test(
    'an internal entity literal cannot smuggle a reference: & < " % in the user name are escaped, its '
      + 'replacement text is the name',
    () => {
      const odd = plan({ target: { ...target(), user: 'a&b<c"d%e' }, operations: [findOperation('GetMeals')!] });
      const u = planUnits(odd).find((x) => x.caseId === DOCTYPE_INTERNAL_CASE)!;
      const body = unitRequests(odd, u)[0]!.request.body!;
      expect(body).toContain('<!ENTITY probe "a&#38;#38;b&#38;#60;c&#34;d&#37;e">');
    },
  );

  test(
    'state-changing operations send probe ids, never a pool booking: the bookings a run takes are those '
      + 'without the probes',
    () => {
      const probes = units.filter((u) => u.op.mutates);
      expect(probes.length).toBeGreaterThan(0);
      for (const u of probes) {
        expect(u.bookings, u.op.name).toBeUndefined();
        expect(u.calls, u.op.name).toBe('probe');
      }
      const withProbes = bookingNeeds(p);
      const without = bookingNeeds(plan({ checks: selectChecks().filter((c) => c.name !== 'dtd_refused') }));
      expect(withProbes).toEqual(without);
      expect(Object.values(withProbes).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(40);
    },
  );

  test('--skip-checks hostile_requests (the group) or dtd_refused leaves the check out, and no probe is sent', () => {
    for (const skip of ['hostile_requests', 'dtd_refused']) {
      const checks = checksOf({ skipChecks: [skip] });
      expect(checks.map((c) => c.name)).not.toContain('dtd_refused');
      expect(
        planUnits(plan({ checks })).some((u) => u.kind === 'doctype'),
        skip,
      ).toBe(false);
    }
    // The group holds the login variants' checks too (src/core/check-groups.ts), in the registry's order.
    expect(checksOf({ checks: ['hostile_requests'], skipChecks: [] }).map((c) => c.name)).toEqual([
      'dtd_refused',
      'login_rejected',
      'secret_echoed',
    ]);
    expect(() => checksOf({ skipChecks: ['hostile_request'] })).toThrow(/hostile_request/);
  });

  test(
    "the probes' rows belong to the hostile_requests group of the reports (core/check-groups.ts holds "
      + 'their case ids)',
    () => {
      expect(DOCTYPE_CASE_IDS).toEqual([DOCTYPE_INTERNAL_CASE, DOCTYPE_EXTERNAL_CASE]);
      for (const c of DOCTYPE_CASE_IDS) expect(isHostileRow({ check: 'http_exchange', case: c }), c).toBe(true);
      expect(isHostileRow({ check: 'http_exchange', case: 'default' })).toBe(false);
    },
  );

  test('without a listener, the external entity names a host of the reserved .invalid domain, never resolved', () => {
    const q = plan({ operations: [findOperation('GetMeals')!] });
    const u = planUnits(q).find((x) => x.caseId === DOCTYPE_EXTERNAL_CASE)!;
    const refs = externalReferences(unitRequests(q, u)[0]!.request.body!);
    expect(refs).toHaveLength(1);
    expect(refs[0]!.startsWith(`${UNREACHABLE_BASE}/conformance-probe/`)).toBe(true);
  });
});

describe('the listener', () => {
  test(
    'a target on this machine (or the embedded mock) gets a listener at 127.0.0.1; a remote one none, '
      + 'unless --callback-url',
    async () => {
      const local = await openCallback({ targets: ['http://localhost:8080'], embedded: false, answer: 'u' });
      expect(local.listener?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(local.base).toBe(local.listener!.url);
      await local.listener!.close();
      const remote = await openCallback({ targets: ['https://api.example.com'], embedded: false, answer: 'u' });
      expect(remote.listener).toBeUndefined();
      expect(remote.unobservable).toMatch(/--callback-url/);
      const told = await openCallback({
        targets: ['https://api.example.com'],
        embedded: false,
        answer: 'u',
        callbackUrl: 'http://harness.example:1/cb/',
        listen: { host: '127.0.0.1', port: 0 },
      });
      try {
        expect(told.base).toBe('http://harness.example:1/cb');
        const r = await fetch(`${told.listener!.url}/conformance-probe/${told.nonce}/GetMeals/soap11`);
        expect(await r.text()).toBe('u');
        expect((await fetch(`${told.listener!.url}/elsewhere`)).status).toBe(404);
        expect(told.listener!.hits.map((h) => h.path)).toEqual([
          `/conformance-probe/${told.nonce}/GetMeals/soap11`,
          '/elsewhere',
        ]);
      } finally {
        await told.listener!.close();
      }
    },
  );
});

describe('judging the probes in a run', () => {
  let listener: CallbackListener;
  const mocks: RunningMock[] = [];
  const transport = new Transport({ concurrency: 8, timeoutMs: 10_000, maxBodyBytes: 1 << 24 });
  const validator = createDocumentValidator(DEFAULT_NAMESPACES);
  beforeAll(async () => {
    listener = await CallbackListener.start('127.0.0.1', 0, DEFAULT_USER);
  });
  afterAll(async () => {
    await transport.close();
    await listener.close();
    await Promise.all(mocks.map((m) => m.close()));
  });
  const runOn = async (faults: string[], operation: string, cb?: Callback) => {
    const mock = await startMock({ port: 0, faults });
    mocks.push(mock);
    return runPlan(
      plan({
        target: { ...target(mock.url), embedded: true },
        operations: [findOperation(operation)!],
        ...(cb ? { callback: cb } : {}),
      }),
      { transport, validator },
    );
  };
  const doctypeRows = (r: Awaited<ReturnType<typeof runOn>>) => r.results.filter((x) => x.check === 'dtd_refused');

  test('the correct mock: every probe passes, its refusal noted; no request reached the listener', async () => {
    const r = await runOn([], 'GetThemes', callback(listener.url, listener));
    expect(
      doctypeRows(r)
        .map((x) => `${x.binding} ${x.case} ${x.status}`)
        .sort(),
    ).toEqual([
      'soap11 doctype-external-entity passed',
      'soap11 doctype-internal-entity passed',
      'soap12 doctype-external-entity passed',
      'soap12 doctype-internal-entity passed',
    ]);
    expect(r.summary.failed).toBe(0);
    expect(r.diagnosis?.some((d) => d.code === 'external_fetch_not_observable')).toBeFalsy();
  });

  test(
    "a fetch of the external entity fails that probe's row with external_entity_fetched, pinned through "
      + 'its path; the answer with data is dtd_processed',
    async () => {
      const cb = callback(listener.url, listener);
      const r = await runOn(['doctype-external-entity-fetched'], 'GetThemes', cb);
      const failed = doctypeRows(r).filter((x) => x.status === 'failed');
      expect(failed.map((x) => `${x.binding} ${x.case} ${x.findings.map((f) => f.code).join(',')}`).sort()).toEqual([
        'soap12 doctype-external-entity dtd_processed,external_entity_fetched',
        'soap12 doctype-internal-entity dtd_processed',
      ]);
      const fetched = failed.flatMap((x) => x.findings).find((f) => f.code === 'external_entity_fetched')!;
      expect(fetched.message).toContain(`/conformance-probe/${cb.nonce}/GetThemes/soap12`);
      const row = failed.find((x) => x.case === DOCTYPE_EXTERNAL_CASE)!;
      expect(row.request).toContain('<!DOCTYPE');
      expect(r.summary.failed).toBe(2);
    },
  );

  test('the internal entity expanded: dtd_processed on that binding only, no fetch', async () => {
    const r = await runOn(['doctype-internal-entity-expanded'], 'GetRoomTypes', callback(listener.url, listener));
    const failed = r.results.filter((x) => x.status === 'failed');
    expect(failed.map((x) => `${x.binding} ${x.case} ${x.check} ${x.findings.map((f) => f.code).join(',')}`)).toEqual([
      'soap11 doctype-internal-entity dtd_refused dtd_processed',
    ]);
    expect(failed[0]!.message).toMatch(/SOAP 1\.1 section 3/);
  });

  test(
    "a late fetch (after a clean refusal, within the grace) is judged at the run's end, on that probe's " + 'row',
    async () => {
      // A target that refuses the DOCTYPE but queues its external entity and fetches it 100 ms later (the grace:
      // LOCAL_GRACE_MS).
      const late: Fault = {
        name: 'late-fetch',
        description: "fetches a DOCTYPE's external entity 100 ms after refusing it",
        category: 'hostile-xml',
        operation: 'GetThemes',
        bindings: ['soap11'],
        apply: {
          request: (req) => {
            const url = /SYSTEM "(http:\/\/127\.0\.0\.1:\d+\/[^"]*)"/.exec(req.body)?.[1];
            if (url)
              setTimeout(() => {
                void fetch(url).catch(() => undefined);
              }, LOCAL_GRACE_MS * 0.4);
            return req;
          },
        },
      };
      const cb = callback(listener.url, listener);
      const mock = await startMock({ port: 0, faults: [late] });
      mocks.push(mock);
      const r = await runPlan(
        plan({
          target: { ...target(mock.url), embedded: true },
          operations: [findOperation('GetThemes')!],
          bindings: ['soap11'],
          callback: cb,
        }),
        { transport, validator },
      );
      const failed = r.results.filter((x) => x.status === 'failed');
      expect(failed.map((x) => `${x.binding} ${x.case} ${x.check} ${x.findings.map((f) => f.code).join(',')}`)).toEqual(
        ['soap11 doctype-external-entity dtd_refused external_entity_fetched'],
      );
    },
  );

  test(
    'no listener the target reaches: the probes are judged on their refusal, and the report notes that a '
      + 'fetch was not observable',
    async () => {
      const r = await runOn(['doctype-external-entity-fetched'], 'GetThemes');
      expect(
        doctypeRows(r)
          .filter((x) => x.status === 'failed')
          .map((x) => `${x.binding} ${x.case}`),
      ).toEqual(['soap12 doctype-internal-entity']);
      const note = r.diagnosis?.find((d) => d.code === 'external_fetch_not_observable');
      expect(note?.level).toBe('note');
      expect(note?.message).toMatch(/--callback-url URL \(CONFORMANCE_CALLBACK_URL, config callbackUrl\)/);
    },
  );
});
