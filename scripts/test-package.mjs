#!/usr/bin/env node
/**
 * `npm run test:package`: the package proved as a consumer gets it (issue 17). It packs the tarball
 * (`npm pack`, whose prepack builds dist/), checks what it holds, installs it into an empty
 * temporary project with `npm install <tarball>`, then there
 *   - runs `npx accommodation-conformance --version`, `--help`, `run --help` and
 *     `run` against the embedded mock (exit 0, reports written), timed;
 *   - has the compiled libxml2 validator process (dist/schema/validator-child.js, no tsx) check a
 *     document over 256 K characters;
 *   - runs a small vitest file that imports the package by name: `setupServer(...createHandlers())`
 *     from `accommodation-conformance/mock` answering a plain `fetch`, and `runConformance` and
 *     `validateDocument` from `accommodation-conformance`;
 *   - compiles a TypeScript file against the type declarations of both entry points (tsc).
 * Kept out of `npm test` (it installs a project: about a minute, most of it building libxmljs2 from
 * source); `.ci/run` runs it after `npm test`. Plain JavaScript so it runs with no build and no tsx.
 * Exit 0 when every step passed; otherwise 1 with the step that failed and its output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const versionOf = (name) =>
  lock.packages[`node_modules/${name}`]?.version ?? pkg.devDependencies[name] ?? pkg.dependencies[name];

const work = mkdtempSync(join(tmpdir(), 'accommodation-conformance-package-'));
const timings = [];
let failed = false;

/** Run a command, timed; its output is shown only when it fails (or `show`). */
function step(title, cmd, args, { cwd = work, expect = 0, show = false, env = {} } = {}) {
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Date.now() - started;
  timings.push([title, ms]);
  const ok = r.status === expect;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${title} (${(ms / 1000).toFixed(1)} `
      + `s${ok ? '' : `, exit ${r.status ?? r.signal}, expected ${expect}`})`,
  );
  if (!ok || show) process.stdout.write(`${`${r.stdout}${r.stderr}`.trimEnd().replace(/^/gm, '     | ')}\n`);
  if (!ok) failed = true;
  return r;
}

function check(title, ok, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${title}${detail ? `: ${detail}` : ''}`);
  if (!ok) failed = true;
}

// 1. The tarball, built fresh (prepack runs `npm run build`).
const pack = step('npm pack (prepack: npm run build)', 'npm', ['pack', '--json', '--pack-destination', work], {
  cwd: ROOT,
});
if (pack.status !== 0) process.exit(1);
const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')))[0];
const tarball = join(work, info.filename);
const files = info.files.map((f) => f.path);
const top = [...new Set(files.map((f) => f.split('/')[0]))].sort();
console.log(
  `     ${info.filename}: ${(statSync(tarball).size / 1024).toFixed(0)} KiB `
    + `packed, ${(info.unpackedSize / 1024).toFixed(0)} KiB unpacked, `
    + `${files.length} files; top level: ${top.join(', ')}`,
);
for (const need of [
  'dist/index.js',
  'dist/index.d.ts',
  'dist/mock/index.js',
  'dist/mock/index.d.ts',
  'dist/cli/main.js',
  'dist/schema/validator-child.js',
  'bin/accommodation-conformance.js',
  'schemas/booking.xsd',
  'schemas/config.schema.json',
  'fixtures/mock-data/booking.json',
  'fixtures/cases/GetMeals.json',
  'README.md',
  'docs/checks.md',
  'LICENSE',
  'package.json',
]) {
  check(`the tarball holds ${need}`, files.includes(need));
}
const testish = files.filter((f) => /\.test\.|^src\/|^test\/|^suites\/|^scripts\/|\.ts$(?<!\.d\.ts)/.test(f));
check('the tarball holds nothing of the tests or the sources', testish.length === 0, testish.slice(0, 5).join(', '));

// 2. An empty project installs it (from the npm cache where it can: the dependencies were installed
//    by `npm ci`). libxmljs2 builds from source, as in the clone (no prebuilt binary is fetched).
const consumer = join(work, 'consumer');
mkdirSync(consumer);
writeFileSync(
  join(consumer, 'package.json'),
  `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
);
const install = step(
  'npm install <tarball> msw vitest typescript',
  'npm',
  [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    tarball,
    `msw@${versionOf('msw')}`,
    `vitest@${versionOf('vitest')}`,
    `typescript@${versionOf('typescript')}`,
    `@types/node@${versionOf('@types/node')}`,
  ],
  { cwd: consumer, env: { npm_config_build_from_source: 'true' } },
);
if (install.status !== 0) process.exit(1);

// 3. The command, from the installed package: compiled JavaScript, no tsx.
check('tsx is not installed with the package', !existsSync(join(consumer, 'node_modules', 'tsx')));
const version = step(
  'npx accommodation-conformance --version',
  'npx',
  ['--no-install', 'accommodation-conformance', '--version'],
  { cwd: consumer },
);
check(
  '--version prints the package version',
  version.stdout.trim() === pkg.version,
  JSON.stringify(version.stdout.trim()),
);
const help = step(
  'npx accommodation-conformance --help',
  'npx',
  ['--no-install', 'accommodation-conformance', '--help'],
  { cwd: consumer },
);
check('--help lists the commands', /\brun\b/.test(help.stdout) && /\bmock\b/.test(help.stdout));
const runHelp = step(
  'npx accommodation-conformance run --help',
  'npx',
  ['--no-install', 'accommodation-conformance', 'run', '--help'],
  { cwd: consumer },
);
check(
  'run --help shows every flag with its default',
  /--max-body-bytes[\s\S]*33554432/.test(runHelp.stdout) && /--report-dir[\s\S]*reports/.test(runHelp.stdout),
);
step(
  'npx accommodation-conformance run (embedded mock)',
  'npx',
  ['--no-install', 'accommodation-conformance', 'run', '--quiet', '--report-dir', 'reports'],
  { cwd: consumer, show: true },
);
for (const f of ['conformance.json', 'junit.xml', 'conformance.md', 'conformance.html'])
  check(`reports/${f} written`, existsSync(join(consumer, 'reports', f)));
if (existsSync(join(consumer, 'reports', 'conformance.json'))) {
  const report = JSON.parse(readFileSync(join(consumer, 'reports', 'conformance.json'), 'utf8'));
  check(
    'the report passes, with rows',
    report.summary.failed === 0 && report.summary.total > 1000,
    JSON.stringify(report.summary),
  );
}

// The libxml2 validator process from dist/ (documents over 256 K characters): the compiled child,
// forked without tsx. By file path: it is not an entry point of the package.
const xsdValidator = join(consumer, 'node_modules', 'accommodation-conformance', 'dist', 'schema', 'xsd-validator.js');
const child = step(
  'the validator process from dist/ (a 2 MB document)',
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `
  const { createDocumentValidator, IN_PROCESS_MAX_CHARS } = await import(${JSON.stringify(xsdValidator)});
  const { stopValidatorProcess } = await import(${JSON.stringify(xsdValidator.replace('xsd-validator.js', 'validator-process.js'))});
  const ns = 'http://mock.accommodation.test/search/1/';
  const doc = '<getLanguagesResult xmlns="' + ns + '"><languages>' + '<language isoCode="en" name="English" bogus="1"/>'.repeat(40000) + '</languages></getLanguagesResult>';
  if (doc.length <= IN_PROCESS_MAX_CHARS) throw new Error('the document is not large enough');
  const v = createDocumentValidator({ book: 'http://mock.accommodation.test/book/1/', search: ns });
  const out = await v.validateAsync(doc);
  stopValidatorProcess();
  console.log(JSON.stringify({ xsdErrors: out.xsdErrors.length, notParsed: out.notParsed }));
`,
  ],
  { cwd: consumer },
);
check('the validator process checked it', /"xsdErrors":[1-9]/.test(child.stdout), child.stdout.trim());

// 4. The library, by the package's name, under the consumer's own vitest.
writeFileSync(
  join(consumer, 'consumer.test.js'),
  `\
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runConformance, validateDocument } from 'accommodation-conformance';
import { createHandlers, DEFAULT_PATHS, FAULTS } from 'accommodation-conformance/mock';

const server = setupServer(...createHandlers({ baseUrl: 'http://service.test' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

test('the mock answers a plain fetch through msw', async () => {
  const res = await fetch(\`http://service.test\${DEFAULT_PATHS.reference.http}/GetLanguages?userName=mock-user&password=mock-password\`);
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toContain('<getLanguagesResult');
  expect(validateDocument(body)).toMatchObject({ valid: true, findings: [] });
});

test('wrong credentials get no data', async () => {
  const res = await fetch(\`http://service.test\${DEFAULT_PATHS.reference.http}/GetLanguages?userName=mock-user&password=wrong\`);
  expect(await res.text()).not.toContain('<language ');
});

test('the fault catalogue and runConformance', async () => {
  expect(FAULTS.length).toBeGreaterThan(50);
  const report = await runConformance({ operations: ['GetMeals'], bindings: ['soap11', 'post'] });
  expect(report.summary.failed).toBe(0);
  expect(report.summary.passed).toBeGreaterThan(0);
});
`,
);
const vitest = step(
  'npx vitest run (consumer.test.js: setupServer(...createHandlers()) + fetch)',
  'npx',
  ['--no-install', 'vitest', 'run'],
  { cwd: consumer },
);
check(
  "the consumer's 3 tests ran and passed",
  /Tests\s+3 passed \(3\)/.test(vitest.stdout.replace(/\x1b\[[0-9;]*m/g, '')),
);

// 5. The type declarations, as a TypeScript consumer compiles against them.
writeFileSync(
  join(consumer, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    },
    files: ['types.ts'],
  }),
);
writeFileSync(
  join(consumer, 'types.ts'),
  `\
import { runConformance, validateDocument, type ConformanceSettings, type DocumentValidation, type RunReport } from 'accommodation-conformance';
import { createHandlers, startMock, FAULTS, type Fault, type MockOptions } from 'accommodation-conformance/mock';

const settings: ConformanceSettings = { operations: ['GetMeals'], bindings: ['soap11'], concurrency: 2 };
const options: MockOptions = { port: 0, faults: [FAULTS[0]!.name], vary: true };
export async function check(): Promise<[RunReport, DocumentValidation, number, Fault[]]> {
  const mock = await startMock(options);
  await mock.close();
  return [await runConformance(settings), validateDocument('<x/>', { binding: 'get' }), createHandlers().length, [...FAULTS]];
}
// @ts-expect-error: a binding the types do not know
export const wrong: ConformanceSettings = { bindings: ['rest'] };
`,
);
step('tsc --noEmit against the type declarations', 'npx', ['--no-install', 'tsc', '-p', '.'], { cwd: consumer });

console.log(
  `\npackage `
    + `test: ${failed ? 'FAILED' : 'passed'}; ${timings.map(([t, ms]) => `${t.split(' (')[0]} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
);
if (!failed) rmSync(work, { recursive: true, force: true });
else console.log(`(left in ${work})`);
process.exitCode = failed ? 1 : 0;
