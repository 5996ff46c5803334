/**
 * The proof of issue 13: whatever a target sends, the run ends within its deadline, memory and reports stay bounded,
 * and the password appears nowhere. Each hostile answer of test/support/hostile-server.ts at the size that once broke
 * the harness, through the real command line against GetMeals on all four bindings: exit 1 (or 5: nothing reached the
 * data path), wall time within --deadline + 15 s, peak memory of the whole run (the CLI and its validator process,
 * summed) at most 1 GiB, all reports together at most 50 MB, and no spelling of the password in any file or on the
 * console. The mock gets the namespace-heavy request that once froze it. Figures are printed ([bound] lines).
 *
 * About a minute of CPU (the million siblings dominate); leave it out while working with
 * `npx vitest run --config vitest.e2e.config.ts --exclude suites/e2e/hostile-heavy.test.ts`.
 */
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_NAMESPACES, OPERATIONS } from '../../src/contract/catalogue.js';
import { DEFAULT_EXAMPLES } from '../../src/engine/generate.js';
import { startMock, type RunningMock } from '../../src/mock/index.js';
import { startHostileServer, type Behaviour, type HostileServer } from '../../test/support/hostile-server.js';
import { deepNamespaces } from '../../test/support/hostile-docs.js';
import {
  findSecret,
  memoryAfterGc,
  mib,
  MiB,
  readReport,
  readTree,
  runCli,
  tempDir,
  type CliResult,
  type ReportJson,
} from '../../test/support/processes.js';

const USER = 'heavy-user';
/** Distinctive and different in every encoding. */
const PASSWORD = `Hv9 "q'<&>\\ %+é/=Kw`;
// The bound every run must keep: about 25 s measured for the longest (a million siblings) on 2 cores,
// so a machine three times slower, or a busy one, still ends within it and its slack.
const DEADLINE_MS = 150_000;
const SLACK_MS = 15_000;
const MAX_TREE_RSS = 1024 * MiB;
const MAX_REPORTS = 50 * 1000 * 1000;
const TEST_MS = DEADLINE_MS + SLACK_MS + 30_000;

let mock: RunningMock;
let hostile: HostileServer;
let work: string;
let config: string;

beforeAll(async () => {
  work = tempDir('heavy');
  config = join(work, 'one-case.json');
  // One request case for GetMeals: each behaviour costs four documents (plus the negative cases where asked).
  writeFileSync(
    config,
    JSON.stringify({ cases: { GetMeals: [{ id: 'heavy', params: { language: 'en' } }] }, casesMode: 'replace' }),
  );
  mock = await startMock({ port: 0, user: USER, password: PASSWORD });
  hostile = await startHostileServer({ upstream: mock.url });
});

afterAll(async () => {
  await hostile?.close();
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Proof {
  readonly cli: CliResult;
  readonly report: ReportJson;
  readonly reportBytes: number;
}

/** Where each group's operations are sent: a hostile behaviour per base URL. */
interface Targets {
  readonly search: Behaviour;
  readonly book?: Behaviour;
  readonly transfers?: Behaviour;
}

/**
 * What one hostile answer of a kind costs is proven on the hand-written case alone: generated cases
 * would only send the same answer again (the deadline run proves that more cases stay bounded too).
 */
const ONE_CASE = ['--examples', '0'];

/** One run through the command line, and the bounds every run must keep. */
async function prove(
  name: string,
  t: Targets,
  extra: readonly string[] = [],
  operations = 'GetMeals',
  deadlineMs = DEADLINE_MS,
): Promise<Proof> {
  const dir = join(work, `run-${name}`);
  const cli = await runCli(
    [
      'run',
      '--search-url',
      hostile.url(t.search),
      '--book-url',
      hostile.url(t.book ?? 'proxy'),
      '--transfers-url',
      hostile.url(t.transfers ?? 'proxy'),
      '--operations',
      operations,
      '--config',
      config,
      '--deadline',
      String(deadlineMs),
      '--timeout',
      '30000',
      '--max-rps',
      '1000',
      ...(extra.includes('--concurrency') ? [] : ['--concurrency', '4']),
      '--report-dir',
      dir,
      ...extra,
    ],
    { CONFORMANCE_USER: USER, CONFORMANCE_PASSWORD: PASSWORD },
    deadlineMs + 60_000,
  );
  const files = readTree(dir);
  const reportBytes = files.reduce((n, f) => n + f.bytes.length, 0);
  console.log(
    `[bound] ${name}: exit ${cli.code}, ${(cli.ms / 1000).toFixed(1)} s (deadline ${deadlineMs / 1000} `
      + `s), peak memory of the run ${mib(cli.peakTreeRss)}, `
      + `reports ${(reportBytes / 1e6).toFixed(2)} MB in ${files.length} files`,
  );
  expect(cli.signal, cli.stderr).toBeNull();
  // Judged: failed (1), or, where no valid call got its result element back (an echo, a 10 MB fault
  // to everything), not tested (5).
  expect([1, 5], cli.stderr).toContain(cli.code);
  expect(cli.ms).toBeLessThan(deadlineMs + SLACK_MS);
  expect(cli.peakTreeRss).toBeGreaterThan(0);
  expect(cli.peakTreeRss).toBeLessThan(MAX_TREE_RSS);
  expect(reportBytes).toBeLessThan(MAX_REPORTS);
  const where = findSecret(PASSWORD, [
    ...files.map((f) => ({ name: f.path.slice(dir.length + 1), bytes: f.bytes })),
    { name: 'stdout', bytes: cli.stdout },
    { name: 'stderr', bytes: cli.stderr },
  ]);
  expect(where).toEqual([]);
  return { cli, report: readReport(dir), reportBytes };
}

/** The rows of an operation's first case (GetMeals: the one case of the config) for a check. */
function rows(p: Proof, check: string, operation = 'GetMeals') {
  const first = p.report.results.find((r) => r.operation === operation)?.case;
  return p.report.results.filter((r) => r.operation === operation && r.case === first && r.check === check);
}

// One run at a time: each is measured alone (peak memory of the run, wall time), as a user would run it.
describe('hostile answers at full size: bounded time, memory and reports, no password', () => {
  test('5,000 XSD errors: a few per kind, then "and N more like it"', { timeout: TEST_MS }, async () => {
    const p = await prove('xsd-errors', { search: 'xsd-errors' }, ['--no-negative', ...ONE_CASE]);
    const xsd = rows(p, 'xsd_valid');
    expect(xsd).toHaveLength(4);
    for (const r of xsd) {
      expect(r.findings.length).toBeLessThanOrEqual(8);
      expect(
        r.findings.some((f) =>
          /^and 4,997 more like it: Element '\{[^}]+\}id': 'not-an-int' is not a valid value/.test(f.message),
        ),
        JSON.stringify(r.findings),
      ).toBe(true);
    }
  });

  test('100,000 attributes, 20,000 + 20,000 and 400,000 namespace declarations: refused before either reader '
    + 'starts, a finding says which limit', {
    timeout: TEST_MS,
  }, async () => {
    // One run, a behaviour per group: GetMeals (search), GetSpecialRequest (booking), SearchTransfers (transfers).
    const p = await prove(
      'limits',
      { search: 'many-attributes', book: 'namespace-declarations', transfers: 'deep-namespaces' },
      ['--no-negative', ...ONE_CASE],
      'GetMeals,GetSpecialRequest,SearchTransfers',
    );
    for (const [op, what] of [
      [
        'GetMeals',
        /^document not read: element <meal> \(line 1\) has 100,000 attributes and namespace declarations: more than the 256/,
      ],
      [
        'GetSpecialRequest',
        /^document not read: element <meal> \(line 1\) has 400,000 attributes and namespace declarations/,
      ],
      [
        'SearchTransfers',
        /^document not read: element <getMealsResult> \(line 1\) has 20,00\d attributes and namespace declarations/,
      ],
    ] as const) {
      const wf = rows(p, 'xml_wellformed', op);
      expect(wf, op).toHaveLength(4);
      for (const r of wf) expect(r.message, op).toMatch(what);
    }
  });

  // One binding: such a document costs about ten seconds of checking (the bench runs two, and the
  // deadline test below many).
  test('a million siblings: every check ends, findings a few per kind', { timeout: TEST_MS }, async () => {
    const p = await prove('siblings', { search: 'siblings' }, ['--no-negative', '--bindings', 'soap12', ...ONE_CASE]);
    expect(rows(p, 'shape')).toHaveLength(1);
    for (const r of [...rows(p, 'shape'), ...rows(p, 'xsd_valid')]) {
      expect(r.findings.length, r.check).toBeLessThanOrEqual(8);
      expect(
        r.findings.some((f) => /^and 999,99\d more like it/.test(f.message)),
        `${r.binding} ${r.check}: ${JSON.stringify(r.findings)}`,
      ).toBe(true);
    }
  });

  test('two bindings with 5 MB texts that differ: the comparison quotes 200 characters of each', {
    timeout: TEST_MS,
  }, async () => {
    const p = await prove('differ', { search: 'differ' }, ['--no-negative', ...ONE_CASE]);
    const eq = p.report.results.filter((r) => r.check === 'binding_equivalence' && r.case === 'heavy');
    expect(eq.some((r) => r.status === 'failed')).toBe(true);
    for (const r of eq) for (const f of r.findings) expect(f.message.length).toBeLessThan(2_200);
    expect(
      eq
        .flatMap((r) => r.findings)
        .some((f) => /first difference at \/getMealsResult\/meals\/meal\[1\]\/name\/text\(\)/.test(f.message)),
    ).toBe(true);
    expect(p.reportBytes).toBeLessThan(5 * 1000 * 1000);
  });

  test('10 MB faults, with the negative cases: quoted briefly, memory bounded', { timeout: TEST_MS }, async () => {
    const p = await prove('fault-10mb', { search: 'fault-10mb' });
    const status = rows(p, 'status_code');
    expect(status).toHaveLength(4);
    for (const r of status) expect(r.message).toMatch(/^status 500 instead of 200/);
  });

  test('a target echoing the password in every spelling, in UTF-8, UTF-16 (both orders) and Latin-1 bodies', {
    timeout: 2 * TEST_MS,
  }, async () => {
    const a = await prove(
      'echo, echo-utf16le, echo-latin1',
      { search: 'echo', book: 'echo-utf16le', transfers: 'echo-latin1' },
      ['--no-negative'],
      'GetMeals,GetSpecialRequest,SearchTransfers',
    );
    const b = await prove('echo-utf16be', { search: 'echo-utf16be' }, ['--no-negative']);
    // The target did send the password back: the reports are clean because of redaction.
    for (const [p, op] of [
      [a, 'GetMeals'],
      [a, 'GetSpecialRequest'],
      [a, 'SearchTransfers'],
      [b, 'GetMeals'],
    ] as const) {
      expect(
        p.report.results.some((r) => r.operation === op && r.response?.includes('***')),
        op,
      ).toBe(true);
    }
  });
});

test('--deadline ends a run of million-sibling answers on time, the reports written, rows not run said so', {
  timeout: TEST_MS,
}, async () => {
  const deadline = 5_000;
  const p = await prove(
    'deadline',
    { search: 'siblings', book: 'siblings' },
    [],
    'GetMeals,GetSpecialRequest',
    deadline,
  );
  expect(p.report.results.filter((r) => /deadline/.test(r.message)).length).toBeGreaterThan(0);
  expect(p.report.summary.total).toBe(p.report.results.length);
});

// Issue 25: memory bounded per run, not per exchange. Slow (about the deadline, a minute): filter it
// out with -t or --exclude while working, as the file's other proofs.
// The run lasts its deadline whatever the machine (the plan is far longer): issue 25's own 60 s, and a
// time limit of 5× the deadline and its slack (it took 152 s with the 150 s deadline the other runs get).
const SIBLINGS_DEADLINE_MS = 60_000;
describe('slow: a million siblings on every answer, generated cases on, --concurrency 8 (issue 25)', () => {
  test('every operation: at most 1 GiB and the deadline + 15 s, bodies waiting for their checks within the budget', {
    timeout: 5 * (SIBLINGS_DEADLINE_MS + SLACK_MS),
  }, async () => {
    const p = await prove(
      'siblings, generated cases on, --concurrency 8',
      { search: 'siblings', book: 'siblings', transfers: 'siblings' },
      // Every operation a run without --allow-mutations may call: naming a state-changing one is a usage error (issue
      // 40).
      ['--concurrency', '8'],
      OPERATIONS.filter((o) => !o.mutates)
        .map((o) => o.name)
        .join(','),
      SIBLINGS_DEADLINE_MS,
    );
    // Generated cases were on (the defaults), and the deadline, not the end of the plan, ended the run.
    expect(p.report.generation?.examples).toBe(DEFAULT_EXAMPLES);
    expect(p.report.results.some((r) => r.case.startsWith('gen-'))).toBe(true);
    expect(p.report.results.some((r) => /deadline/.test(r.message))).toBe(true);
  });
});

// Issue 35: the same million siblings, but elements the contract does not know (<z/>): a finding
// each, so memory is bounded whatever the findings. GetMeals alone, generated cases on, at the
// default concurrency (4 against a target) and at 8; each run lasts its 60 s deadline.
describe('slow: a million unknown siblings (<z/>) on every answer, generated cases on (issue 35)', () => {
  for (const concurrency of [undefined, '8'] as const) {
    const name =
      `unknown siblings, generated cases `
      + `on, ${concurrency ? `--concurrency ${concurrency}` : 'default concurrency'}`;
    test(`${name}: at most 1 GiB and the deadline + 15 s, findings a few per kind`, {
      timeout: 5 * (SIBLINGS_DEADLINE_MS + SLACK_MS),
    }, async () => {
      const p = await prove(
        name,
        { search: 'unknown-siblings', book: 'unknown-siblings', transfers: 'unknown-siblings' },
        concurrency ? ['--concurrency', concurrency] : [],
        'GetMeals',
        SIBLINGS_DEADLINE_MS,
      );
      expect(p.report.generation?.examples).toBe(DEFAULT_EXAMPLES);
      expect(p.report.results.some((r) => r.case.startsWith('gen-'))).toBe(true);
      const shape = rows(p, 'shape');
      expect(shape.length).toBeGreaterThan(0);
      for (const r of [...shape, ...rows(p, 'xsd_valid')]) expect(r.findings.length, r.check).toBeLessThanOrEqual(8);
      expect(
        shape.every((r) =>
          r.findings.some((f) =>
            /^and 999,997 more like it: unknown element \{[^}]+\}z in getMealsResult/.test(f.message),
          ),
        ),
        JSON.stringify(shape[0]?.findings),
      ).toBe(true);
    });
  }
});

// Issue 43, the run as it was measured: GetMeals answering a million unknown <z/> on every binding
// (the bindings' first <z> differing, so the comparison reads the answers), every other setting the
// default (all of GetMeals' cases, generated and negative ones included, the default concurrency and
// rate), --deadline 60000. It once peaked at 2.6 GB in the checking process (the comparison held two
// million entries per binding) and exited after 73 s. Every process is measured alone, as the
// operating system reports its peak (VmHWM: what GNU time gives); the bench's figure for the same
// run is in docs/performance.md (section 8).
const ISSUE_43_DEADLINE_MS = 60_000;
describe('slow: a million unknown siblings, every binding, the bindings differing, defaults (issue 43)', () => {
  test('every process at most 1 GB, exit 1 by 70 s, reports at most 50 MB, findings count the unknown '
    + 'elements and place the first', {
    timeout: 5 * (ISSUE_43_DEADLINE_MS + 10_000),
  }, async () => {
    const dir = join(work, 'run-issue-43');
    const url = hostile.url('unknown-siblings-differ');
    const cli = await runCli(
      [
        'run',
        '--search-url',
        url,
        '--book-url',
        url,
        '--transfers-url',
        url,
        '--search-ns',
        DEFAULT_NAMESPACES.search,
        '--book-ns',
        DEFAULT_NAMESPACES.book,
        '--operations',
        'GetMeals',
        '--deadline',
        String(ISSUE_43_DEADLINE_MS),
        '--report-dir',
        dir,
      ],
      { CONFORMANCE_USER: USER, CONFORMANCE_PASSWORD: PASSWORD },
      ISSUE_43_DEADLINE_MS + 120_000,
    );
    const files = readTree(dir);
    const reportBytes = files.reduce((n, f) => n + f.bytes.length, 0);
    console.log(
      `[bound] issue 43 (unknown siblings, bindings differing, defaults): `
        + `exit ${cli.code}, ${(cli.ms / 1000).toFixed(1)} s (deadline 60 s), `
        + `largest process ${mib(cli.peakProcessRss)} (${cli.peakProcess}), all processes `
        + `summed ${mib(cli.peakTreeRss)}, reports ${(reportBytes / 1e6).toFixed(2)} MB`,
    );
    expect(cli.signal, cli.stderr).toBeNull();
    expect([1, 5], cli.stderr).toContain(cli.code);
    expect(cli.ms).toBeLessThan(ISSUE_43_DEADLINE_MS + 10_000);
    expect(cli.peakProcessRss).toBeGreaterThan(0);
    expect(cli.peakProcessRss).toBeLessThanOrEqual(1000 * 1000 * 1000);
    expect(reportBytes).toBeLessThanOrEqual(MAX_REPORTS);
    expect(
      findSecret(PASSWORD, [
        ...files.map((f) => ({ name: f.path, bytes: f.bytes })),
        { name: 'stdout', bytes: cli.stdout },
        { name: 'stderr', bytes: cli.stderr },
      ]),
    ).toEqual([]);
    const report = readReport(dir);
    // How many unknown elements there were, and where the first ones are, on every binding checked.
    const shape = report.results.filter(
      (r) => r.operation === 'GetMeals' && r.check === 'shape' && r.status === 'failed',
    );
    expect(new Set(shape.map((r) => r.binding)), JSON.stringify(shape.map((r) => r.binding))).toEqual(
      new Set(['soap11', 'soap12', 'get', 'post']),
    );
    for (const r of shape) {
      const text = JSON.stringify(r.findings);
      expect(r.findings.length, text).toBeLessThanOrEqual(8);
      expect(
        r.findings.some(
          (f) =>
            /\/getMealsResult\/z\[1\]$/.test(f.path) && /^unknown element \{[^}]+\}z in getMealsResult/.test(f.message),
        ),
        text,
      ).toBe(true);
      expect(
        r.findings.some((f) => /\/getMealsResult\/z\[2\]$/.test(f.path)),
        text,
      ).toBe(true);
      expect(
        r.findings.some((f) => f.path === '//z' && /^and 999,997 more like it: unknown element/.test(f.message)),
        text,
      ).toBe(true);
    }
    // Each comparison made named the first difference (it read a window of the answers, not all of
    // them). How many are made before the deadline depends on the machine (each answer costs seconds
    // of checking): none on a loaded 2-core one, two on a quiet one; src/equivalence/compare.test.ts
    // proves the window on answers of 20,000 unknown elements.
    const eq = report.results.filter((r) => r.check === 'binding_equivalence' && r.status === 'failed');
    console.log(
      `[bound] issue 43: ${eq.length} comparison(s) made before the deadline, each naming the first difference`,
    );
    for (const r of eq)
      expect(
        r.findings.some((f) => /first difference at \/getMealsResult\/z\[1\]\/text\(\)/.test(f.message)),
        JSON.stringify(r.findings),
      ).toBe(true);
  });
});

describe('the mock and the namespace-heavy request', () => {
  test('a 0.9 MB SOAP request declaring 30,000 namespaces is answered at once, and the mock goes on', async () => {
    const decls = deepNamespaces(undefined, 15_000)
      .match(/ xmlns:p\d+="[^"]*"/g)!
      .join('');
    const kids = Array.from({ length: 15_000 }, (_, i) => `<q${i}:x xmlns:q${i}="urn:q:${i}"/>`).join('');
    const body =
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope `
      + `xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"${decls}><soap:Body>`
      + `<GetMeals `
      + `xmlns="${DEFAULT_NAMESPACES.search}"><userName>${USER}</userName><password>x</password><language>en</language>${kids}</GetMeals></soap:Body></soap:Envelope>`;
    expect(body.length).toBeGreaterThan(850_000);
    expect(body.length).toBeLessThan(1024 * 1024);
    const before = memoryAfterGc();
    const t0 = performance.now();
    const res = await fetch(`${mock.url}/1/SOAP/NonStaticXMLAPI.asmx`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${DEFAULT_NAMESPACES.search}GetMeals"` },
      body,
    });
    await res.text();
    const ms = performance.now() - t0;
    const after = memoryAfterGc();
    console.log(
      `[bound] mock, namespace-heavy request of ${(body.length / 1e6).toFixed(2)} MB: answered `
        + `in ${Math.round(ms)} ms (once 74.5 s), heap retained ${mib(after.heapUsed - before.heapUsed)}`,
    );
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(ms).toBeLessThan(15_000); // a bound against the freeze, not a speed goal
    const next = await fetch(
      `${mock.url}/1/SOAP/NonStaticXMLAPI.asmx/GetLanguages?userName=${USER}&password=${encodeURIComponent(PASSWORD)}`,
    );
    expect(next.status).toBe(200);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(64 * MiB);
  });
});
