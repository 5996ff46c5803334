/**
 * The run's preflight compares the WSDLs it fetches with the contract's: against our mock they
 * match; a served WSDL with a breaking change is said in one line and carried by the reports, and
 * fails the run only with --fail-on-drift (a failed `wsdl_drift` row, so the one verdict is FAIL).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, DEFAULT_PATHS, findOperation, type Operation } from '../contract/catalogue.js';
import type { RunReport, Target } from '../core/types.js';
import { startMock, type RunningMock } from '../mock/index.js';
import { renderMarkdown, validateReport } from '../report/index.js';
import { driftAnnotations, driftLine } from '../report/drift.js';
import { serviceWsdl } from '../schema/wsdl.js';
import { Transport } from '../transport/client.js';
import { main } from '../cli/main.js';
import { serveXml } from '../../test/support/network.js';
import { DRIFT_CHECK } from '../core/rows.js';
import { preflight } from './preflight.js';
import { resolveRunSettingsFlags } from './settings.js';

const target = (url: string): Target => ({
  bookUrl: url,
  searchUrl: url,
  transfersUrl: url,
  paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES,
  user: 'u',
  password: 'p',
  embedded: false,
});
const ops = ['CancelBooking', 'GetMeals'].map((n) => findOperation(n)!) as Operation[];

let mock: RunningMock;
let server: Awaited<ReturnType<typeof serveXml>>;
let changedUrl = '';
/**
 * The Booking WSDL without CancelBooking's SOAP 1.2 operation and with a new optional response element; the search one
 * as the contract's.
 */
function served(url: string): string {
  const base = `http://127.0.0.1:${new URL(changedUrl).port}`;
  if (/Booking\.asmx/.test(url)) {
    return serviceWsdl('Booking', base, DEFAULT_NAMESPACES)
      .replace(/<wsdl:operation name="CancelBooking">\s*<soap12:operation[^]*?<\/wsdl:operation>/, '')
      .replace(
        '<xs:element name="cancellation" type="tns:Cancellation" minOccurs="0" maxOccurs="unbounded"/>',
        '<xs:element name="cancellation" type="tns:Cancellation" minOccurs="0" '
          + 'maxOccurs="unbounded"/><xs:element name="note" type="xs:string" minOccurs="0"/>',
      );
  }
  return serviceWsdl('NonStaticXMLAPI', base, DEFAULT_NAMESPACES);
}

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  server = await serveXml(served);
  changedUrl = server.url;
});
afterAll(async () => {
  await mock.close();
  await server.close();
});

describe("the preflight's drift", () => {
  test('our mock: the WSDL matches the contract', async () => {
    const t = new Transport();
    const p = await preflight({ target: target(mock.url), operations: ops, bindings: ['soap11'] }, t);
    await t.close();
    expect(p.drift?.verdict).toBe('match');
    expect(p.drift?.services.map((s) => s.service)).toEqual(['Booking', 'NonStaticXMLAPI']);
    expect(driftLine(p.drift!)).toBe("the target's WSDL matches the contract");
    expect(p.rows).toEqual([]);
  });

  test('a WSDL that differs: one line with the counts; no row without --fail-on-drift', async () => {
    const t = new Transport();
    const p = await preflight({ target: target(changedUrl), operations: ops, bindings: ['soap11'] }, t);
    await t.close();
    expect(driftLine(p.drift!)).toBe("the target's WSDL differs: 1 breaking, 1 compatible: see drift.md");
    expect(p.drift!.services[0]!.differences.map((d) => `${d.severity} ${d.rule} ${d.where}`)).toEqual([
      'breaking operation_removed service Booking, binding soap12, operation CancelBooking',
      'compatible response_element_added type CancellationPaymentMethod: CancellationPaymentMethod/note',
    ]);
    expect(p.rows).toEqual([]);
    // GitHub: an ::error per breaking difference, a ::warning per compatible one.
    expect(driftAnnotations(p.drift!).map((l) => l.slice(0, l.indexOf('::', 2)))).toEqual([
      '::error title=WSDL drift Booking%3A operation_removed',
      '::warning title=WSDL drift Booking%3A response_element_added',
    ]);
  });

  test(
    '--fail-on-drift: a failed wsdl_drift row per service whose WSDL breaks the contract, a finding per '
      + 'breaking difference',
    async () => {
      const t = new Transport();
      const p = await preflight(
        { target: target(changedUrl), operations: ops, bindings: ['soap11'], failOnDrift: true },
        t,
      );
      await t.close();
      expect(p.rows.map((r) => [r.operation, r.check, r.case, r.status])).toEqual([
        ['CancelBooking', DRIFT_CHECK, 'preflight', 'failed'],
      ]);
      expect(p.rows[0]!.findings.map((f) => [f.code, f.path])).toEqual([
        ['wsdl_breaking_drift', 'service Booking, binding soap12, operation CancelBooking'],
      ]);
    },
  );

  test('--fail-on-drift and config failOnDrift are settings; off by default', () => {
    expect(resolveRunSettingsFlags({ 'fail-on-drift': true }, {}).failOnDrift).toBe(true);
    expect(resolveRunSettingsFlags({}, {}).failOnDrift).toBeUndefined();
  });

  test(
    'the report section: conformance.md carries the line and the differences; conformance.json stays ' + 'valid',
    async () => {
      const t = new Transport();
      const p = await preflight({ target: target(changedUrl), operations: ops, bindings: ['soap11'] }, t);
      await t.close();
      const report: RunReport = {
        tool: { name: 'x', version: '0' },
        target: { ...target(changedUrl), password: '***', network: undefined },
        startedAt: new Date(0).toISOString(),
        durationMs: 1,
        bindings: ['soap11'],
        operations: ['CancelBooking'],
        summary: { passed: 0, failed: 0, skipped: 0, known: 0, total: 0 },
        results: [],
        drift: p.drift!,
      };
      const md = renderMarkdown(report);
      expect(md).toContain("> **WSDL drift**: the target's WSDL differs: 1 breaking, 1 compatible: see drift.md");
      expect(md).toContain(
        '> - **breaking** service Booking, binding soap12, operation CancelBooking: the operation '
          + 'CancelBooking is not in the soap12 binding (operation_removed)',
      );
      expect(md).toContain(
        '> - compatible Booking, type CancellationPaymentMethod: CancellationPaymentMethod/note: note is '
          + 'new and optional (response_element_added)',
      );
      expect(validateReport(JSON.parse(JSON.stringify(report)))).toEqual([]);
      expect(validateReport({ ...JSON.parse(JSON.stringify(report)), drift: { verdict: 'odd' } })).not.toEqual([]);
    },
  );
});

/**
 * A front of the mock at `to` whose `?WSDL` answers 404 (a target that serves no WSDL there); every other request goes
 * through.
 */
async function withoutWsdl(to: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (/\?wsdl$/i.test(req.url ?? '')) {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
      return;
    }
    const up = request(`${to}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('--fail-on-drift with a WSDL that could not be compared', () => {
  const run = async (url: string, extra: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'drift-404-'));
    const out: string[] = [];
    const code = await main(
      [
        'run',
        '--book-url',
        url,
        '--search-url',
        url,
        '--transfers-url',
        url,
        '--user',
        'mock-user',
        '--operations',
        'GetMeals',
        '--bindings',
        'soap11',
        '--examples',
        '0',
        '--quiet',
        '--report-dir',
        dir,
        ...extra,
      ],
      { out: (x) => out.push(x), err: () => undefined, env: { CONFORMANCE_PASSWORD: 'mock-password' }, isTTY: false },
    );
    return {
      code,
      out: out.join('\n'),
      json: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport,
    };
  };

  test(
    'a target whose ?WSDL answers 404: UNTESTED, exit 5, the reason first in the headline (as '
      + '`conformance drift`); without the flag the run passes',
    async () => {
      const front = await withoutWsdl(mock.url);
      try {
        const gated = await run(front.url, ['--fail-on-drift']);
        expect(gated.code).toBe(5);
        expect([gated.json.verdict, gated.json.exitCode]).toEqual(['UNTESTED', 5]);
        expect(gated.json.verdictReason).toMatch(
          /^the WSDL at http:\/\/127\.0\.0\.1:\d+\/\S+\?WSDL could not be compared with the contract's \(HTTP 404\), so --fail-on-drift .* could not hold: /,
        );
        expect(gated.out).toMatch(/^Verdict: UNTESTED \(exit 5\): the WSDL at \S+ could not be compared/m);
        const row = gated.json.results.find((r) => r.check === DRIFT_CHECK)!;
        expect([row.status, row.case]).toEqual(['skipped', 'preflight']);
        expect(row.message).toContain('CONFORMANCE_FAIL_ON_DRIFT, config failOnDrift');
        expect(validateReport(gated.json)).toEqual([]);
        // The same target without the flag: drift is reported only, the run passes.
        const plain = await run(front.url, []);
        expect([plain.code, plain.json.verdict]).toEqual([0, 'PASS']);
        expect(plain.json.results.filter((r) => r.check === DRIFT_CHECK)).toEqual([]);
      } finally {
        front.server.close();
      }
    },
  );

  test('a WSDL that is there and matches: --fail-on-drift passes (exit 0, no wsdl_drift row)', async () => {
    const r = await run(mock.url, ['--fail-on-drift']);
    expect([r.code, r.json.verdict]).toEqual([0, 'PASS']);
    expect(r.json.results.filter((x) => x.check === DRIFT_CHECK)).toEqual([]);
  });
});

describe('a run against the embedded mock', () => {
  test('says the WSDL matches, and writes drift.md and drift.json beside its reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drift-run-'));
    const out: string[] = [];
    const code = await main(
      ['run', '--operations', 'GetMeals', '--bindings', 'soap11', '--examples', '0', '--quiet', '--report-dir', dir],
      { out: (s) => out.push(s), err: () => undefined, env: {}, isTTY: false },
    );
    expect(code).toBe(0);
    expect(out).toContain("conformance: the target's WSDL matches the contract");
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as RunReport;
    expect(json.drift?.verdict).toBe('match');
    expect(validateReport(json)).toEqual([]);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(
      "**WSDL drift**: the target's WSDL matches the contract",
    );
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain(
      '<dt>WSDL</dt><dd>the target&#39;s WSDL matches the contract</dd>',
    );
    expect(JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')).verdict).toBe('match');
    expect(readFileSync(join(dir, 'drift.md'), 'utf8')).toContain('# WSDL drift: MATCH');
  });
});

describe('what a hostile target serves', () => {
  test(
    'a DOCTYPE, a document nested too deep, too large, beyond the markup limits, not XML: not compared, '
      + 'with why; never thrown',
    async () => {
      const { compareService } = await import('./drift.js');
      const contract = serviceWsdl('Booking', 'http://h', DEFAULT_NAMESPACES);
      const deep = `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`;
      for (const [text, why] of [
        ['<!DOCTYPE d [<!ENTITY x "y">]><d/>', /DOCTYPE/],
        [deep, /not a WSDL/],
        ['x'.repeat(8 * 1024 * 1024 + 1), /more than 8388608 is not read/],
        // The markup limits of every reading of a target's XML, before the reader: these took 4.3 GB and crashed the
        // run.
        [
          `<definitions><a${Array.from({ length: 100_000 }, (_, i) => ` a${i}="1"`).join('')}/></definitions>`,
          /beyond the harness's limits: element <a> \(line 1\) has 100,000 attributes/,
        ],
        [`<definitions>${'<z/>'.repeat(1_000_000)}</definitions>`, /beyond the harness's limits: /],
        ['not xml <', /not a WSDL/],
        ['<html><body>Service</body></html>', /not a WSDL 1\.1 document/],
      ] as const) {
        const d = compareService('Booking', 'http://h/x?WSDL', 'the contract', contract, text);
        expect(d.status).toBe('no_wsdl');
        expect(d.reason).toMatch(why);
      }
    },
  );
});
