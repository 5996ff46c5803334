/**
 * The library API, imported by the package's name as a consumer imports it (vitest.config.ts maps
 * the names to the sources; scripts/test-package.mjs does the same against the installed tarball).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, runConformance, TOOL_NAME, validateDocument, type RunReport } from 'accommodation-conformance';
import { createHandlers, DEFAULT_PATHS, FAULTS, startMock } from 'accommodation-conformance/mock';
import { LIBRARY_TARGET_KEYS, LIBRARY_TOP_KEYS } from '../../test/support/library-keys.js';

describe('accommodation-conformance: runConformance', () => {
  test('ConformanceSettings has exactly the keys of the published config schema (the password besides)', () => {
    // The compiler holds these records to the type (a key missing or extra does not compile); the test holds them to
    // the schema.
    // The keys, written out once for the compiler to hold to the type (test/support/library-keys.ts).
    const top = LIBRARY_TOP_KEYS;
    const target = LIBRARY_TARGET_KEYS;
    const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as {
      properties: Record<string, { properties?: object }>;
    };
    expect(Object.keys(top).sort()).toEqual(
      Object.keys(schema.properties)
        .filter((k) => k !== '$schema')
        .sort(),
    );
    // A config file may not hold a password itself (the first account's, the second's or the proxy's); a program may.
    expect(
      Object.keys(target)
        .filter((k) => k !== 'password' && k !== 'otherPassword' && k !== 'proxyPassword')
        .sort(),
    ).toEqual(Object.keys(schema.properties.target!.properties!).sort());
  });

  test('against the embedded mock: the report, no reports written without reportDir', async () => {
    const report: RunReport = await runConformance({
      operations: ['GetLanguages', 'GetMeals'],
      bindings: ['soap12', 'get'],
    });
    expect(report.tool.name).toBe(TOOL_NAME);
    expect(report.summary.failed).toBe(0);
    const ops = new Set(report.results.map((r) => r.operation));
    expect(ops).toContain('GetLanguages');
    expect(ops).toContain('GetMeals');
    expect(ops).not.toContain('GetThemes');
    expect(report).toMatchObject({ verdict: 'PASS', exitCode: 0 });
  });

  test(
    'the verdict (issue 31): a wrong password fails no row, yet is UNTESTED; no password is a ConfigError '
      + "in the library's words",
    async () => {
      const mock = await startMock({ port: 0, realService: true });
      try {
        const target = { bookUrl: mock.url, searchUrl: mock.url, user: 'mock-user' };
        const report = await runConformance({
          target: { ...target, password: 'wrong-pass' },
          operations: ['GetMeals'],
          examples: 0,
        });
        expect(report.summary.failed).toBe(0);
        expect(report).toMatchObject({
          verdict: 'UNTESTED',
          exitCode: 5,
          verdictReason: expect.stringMatching(/nothing was tested/),
        });
        expect(report.summary.passedUnreached).toBe(report.summary.passed);
        const none = runConformance({ target, operations: ['GetMeals'] });
        await expect(none).rejects.toThrow(ConfigError);
        await expect(none).rejects.toThrow(
          /^runConformance settings: no password for the target: give target\.password, or target\.passwordEnv/,
        );
        await expect(runConformance({ target, operations: ['GetMeals'] })).rejects.not.toThrow(
          /--password|set CONFORMANCE_PASSWORD/,
        );
      } finally {
        await mock.close();
      }
    },
  );

  test('against a mock with a fault: failed rows; reportDir gets the reports', async () => {
    const mock = await startMock({ port: 0, faults: ['charset-missing'] });
    const dir = mkdtempSync(join(tmpdir(), 'conformance-api-'));
    try {
      const fault = FAULTS.find((f) => f.name === 'charset-missing')!;
      const report = await runConformance({
        target: { bookUrl: mock.url, searchUrl: mock.url, user: 'mock-user', password: 'mock-password' },
        operations: [fault.operation],
        reportDir: dir,
      });
      expect(report.summary.failed).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).summary).toEqual(report.summary);
    } finally {
      await mock.close();
    }
  });

  test('a bad setting: a ConfigError naming the key', async () => {
    await expect(runConformance({ concurrency: 0 })).rejects.toThrow(ConfigError);
    await expect(runConformance({ concurrency: 0 })).rejects.toThrow(
      /^runConformance settings: concurrency must be a whole number/,
    );
    await expect(runConformance({ bogus: 1 } as never)).rejects.toThrow(/unknown key "bogus"/);
  });
});

describe('accommodation-conformance: validateDocument', () => {
  test('a valid and an invalid GET result', async () => {
    const mock = await startMock({ port: 0 });
    let body: string;
    try {
      body = await (
        await fetch(`${mock.url}${DEFAULT_PATHS.reference.http}/GetLanguages?userName=mock-user&password=mock-password`)
      ).text();
    } finally {
      await mock.close();
    }
    const ok = validateDocument(body);
    expect(ok).toMatchObject({ valid: true, findings: [] });
    expect(ok.what).toMatch(/^GetLanguages result/);
    const bad = validateDocument(body.replace('</getLanguagesResult>', '<bogus/></getLanguagesResult>'), {
      operation: 'GetLanguages',
      binding: 'get',
    });
    expect(bad.valid).toBe(false);
    expect(bad.findings.map((f) => f.check)).toContain('shape');
    const broken = validateDocument('<getLanguagesResult></b>', { operation: 'GetLanguages', binding: 'get' });
    expect(broken.valid).toBe(false);
    expect(broken.findings.map((f) => f.check)).toContain('xml_wellformed');
  });
});

describe('accommodation-conformance/mock: createHandlers with msw setupServer', () => {
  const server = setupServer(...createHandlers({ baseUrl: 'http://mock.test' }));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  test('a plain fetch of GetLanguages over HTTP GET', async () => {
    const res = await fetch(
      `http://mock.test${DEFAULT_PATHS.reference.http}/GetLanguages?userName=mock-user&password=mock-password`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/xml; charset=utf-8$/i);
    expect(await res.text()).toContain('<getLanguagesResult');
  });
});
