/**
 * Issue 26 item 4: under GitHub Actions a run writes ::error annotations for its failed rows and its
 * Markdown summary to $GITHUB_STEP_SUMMARY, both capped; the CI examples (GitHub Actions, GitLab CI)
 * are valid YAML that publish junit.xml.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startMock, type RunningMock } from '../mock/index.js';
import { cli, mockTarget, tempDir } from '../../test/support/cli.js';
import { fixtureReport } from '../../test/support/report.js';
import { severityOf } from '../checks/registry.js';
import { githubAnnotations, MAX_ANNOTATIONS, MAX_STEP_SUMMARY_BYTES, writeStepSummary } from './github.js';

describe('GitHub Actions output of a run', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, faults: ['soap12-drops-list-item'] });
  });
  afterAll(() => mock?.close());

  test(
    'under GITHUB_ACTIONS=true: an ::error per defect, and the Markdown summary appended to the step ' + 'summary file',
    async () => {
      const dir = tempDir('github');
      const summary = join(dir, 'step-summary.md');
      writeFileSync(summary, '# earlier step\n');
      const r = await cli(
        [
          'run',
          ...mockTarget(mock.url),
          '--operations',
          'GetMeals',
          '--examples',
          '0',
          '--report-dir',
          join(dir, 'reports'),
        ],
        { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      );
      expect(r.code, r.err).toBe(1);
      const errors = r.out.split('\n').filter((l) => l.startsWith('::error '));
      expect(errors).toHaveLength(1); // one defect: the default and other-language cases' comparisons
      expect(errors[0]).toMatch(
        /^::error title=GetMeals \[soap12\] binding_equivalence\/[a-z_]+::2 cases: default, other-language: at \/getMealsResult\/meals\/meal\[6\]: soap12 departs from soap11, get, post: .*soap11=<meal id=6 /,
      );
      const written = readFileSync(summary, 'utf8');
      expect(written.startsWith('# earlier step\n## ❌ Conformance FAIL')).toBe(true);
      expect(written).toBe(`# earlier step\n${readFileSync(join(dir, 'reports', 'conformance.md'), 'utf8')}`);
    },
  );

  test('not under GitHub Actions: no annotations; --github without a summary file warns and still annotates', async () => {
    const plain = await cli([
      'run',
      ...mockTarget(mock.url),
      '--operations',
      'GetMeals',
      '--examples',
      '0',
      '--report-dir',
      tempDir('plain'),
    ]);
    expect(plain.out).not.toContain('::error');
    const flagged = await cli([
      'run',
      ...mockTarget(mock.url),
      '--github',
      '--operations',
      'GetMeals',
      '--examples',
      '0',
      '--report-dir',
      tempDir('flag'),
    ]);
    expect(flagged.out).toMatch(/::error title=GetMeals \[soap12\] binding_equivalence\/[a-z_]+::/);
    expect(flagged.err).toContain('GITHUB_STEP_SUMMARY is not set');
  });
});

describe('annotations and summary are capped and escaped', () => {
  test(
    'one ::error per defect, most severe first, at most MAX_ANNOTATIONS; the count in a notice; %, CR, '
      + 'LF, ":" and "," escaped',
    () => {
      const base = fixtureReport().results.find((r) => r.status === 'failed')!;
      const rows = Array.from({ length: MAX_ANNOTATIONS + 7 }, (_, i) => ({
        ...base,
        case: `c${i}`,
        check: 'shape',
        operation: 'GetMeals',
        binding: 'get',
        findings: [
          {
            check: 'shape',
            code: 'unknown_element' as const,
            path: `/r/x${i}`,
            message: `100% wrong\r\nline two, ${i}`,
          },
        ],
      }));
      const lines = githubAnnotations({ ...fixtureReport(), results: rows }, severityOf);
      expect(lines).toHaveLength(MAX_ANNOTATIONS + 1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^::notice title=Conformance FAIL::${MAX_ANNOTATIONS + 7} defects in ${MAX_ANNOTATIONS + 7} `
            + `failed checks: the ${MAX_ANNOTATIONS} most severe annotated, 7 more in the job summary`,
        ),
      );
      expect(lines[1]).toBe(
        '::error title=GetMeals [get] shape/unknown_element::1 case: c0: at /r/x0: 100%25 wrong%0D%0Aline two, 0',
      );
      const titled = githubAnnotations({ ...fixtureReport(), results: [{ ...rows[0]!, check: 'a:b,c' }] }, severityOf);
      expect(titled[1]).toMatch(/^::error title=GetMeals \[get\] a%3Ab%2Cc\/unknown_element::/);
    },
  );

  test('issue 31: 3 defects in 17 failed rows are 3 errors, not 17 of which GitHub shows 10; the worst first', () => {
    const base = fixtureReport().results.find((r) => r.status === 'failed')!;
    const row = (operation: string, check: string, code: string, c: string) => ({
      ...base,
      operation,
      binding: 'soap11',
      check,
      case: c,
      findings: [{ check, code: code as never, path: '/r', message: `${check} broke` }],
    });
    const rows = [
      ...Array.from({ length: 12 }, (_, i) => row('GetMeals', 'lexical', 'bad_decimal', `l${i}`)),
      ...Array.from({ length: 4 }, (_, i) => row('GetThemes', 'shape', 'unknown_element', `s${i}`)),
      row('GetFeatures', 'status_code', 'status_not_200', 'default'),
    ];
    const lines = githubAnnotations({ ...fixtureReport(), results: rows }, severityOf);
    expect(lines[0]).toMatch(/^::notice title=Conformance FAIL::3 defects in 17 failed checks \(exit 1/);
    expect(lines.slice(1).map((l) => /^::error title=(\S+)/.exec(l)?.[1])).toEqual([
      'GetFeatures',
      'GetThemes',
      'GetMeals',
    ]);
    expect(lines[3]).toMatch(/::12 cases: l0, l1, l2, l3, l4, l5, … and 6 more: at \/r: lexical broke$/);
  });

  test('a run that tested nothing has no failed row, yet an error saying why', () => {
    const report = {
      ...fixtureReport(),
      results: fixtureReport().results.filter((r) => r.status !== 'failed'),
      verdict: 'UNTESTED' as const,
      exitCode: 5,
      verdictReason: 'no valid call reached the data path: nothing was tested',
    };
    expect(githubAnnotations(report, severityOf)).toEqual([
      '::notice title=Conformance UNTESTED::0 defects in 0 failed checks (exit 5: no valid call reached '
        + 'the data path: nothing was tested)',
      '::error title=Conformance UNTESTED::no valid call reached the data path: nothing was tested',
    ]);
  });

  test("the step summary is cut to GitHub's limit", async () => {
    const dir = tempDir('summary-cap');
    const md = join(dir, 'conformance.md');
    writeFileSync(md, `${'| ❌ | row |\n'.repeat(200_000)}`);
    const out = join(dir, 'summary');
    expect(await writeStepSummary(md, { GITHUB_STEP_SUMMARY: out })).toBeUndefined();
    const written = readFileSync(out);
    expect(written.length).toBeLessThanOrEqual(MAX_STEP_SUMMARY_BYTES);
    expect(written.toString('utf8')).toMatch(/cut to GitHub's step summary limit: see conformance.md\n$/);
  });
});

describe('CI examples', () => {
  const yaml = (file: string) =>
    parse(readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')) as Record<string, any>;

  test('GitHub Actions: the gate publishes junit.xml with a maintained action, allowed to write checks', () => {
    const wf = yaml('github-actions.yml');
    expect(wf.permissions).toMatchObject({ checks: 'write', contents: 'read' });
    const steps: Record<string, any>[] = wf.jobs.merge.steps;
    const publish = steps.find(
      (s) => typeof s.uses === 'string' && s.uses.startsWith('mikepenz/action-junit-report@'),
    )!;
    expect(publish).toBeDefined();
    expect(publish.if).toBe('always()');
    expect(publish.with.report_paths).toBe('reports/junit.xml');
    // It comes after the gate wrote the reports.
    expect(steps.indexOf(publish)).toBeGreaterThan(
      steps.findIndex((s) => String(s.run ?? '').includes('npx conformance merge')),
    );
    for (const job of Object.values<Record<string, any>>(wf.jobs)) {
      expect(job['runs-on']).toBe('ubuntu-latest');
      for (const s of job.steps)
        expect(typeof s.uses === 'string' || typeof s.run === 'string', JSON.stringify(s)).toBe(true);
    }
  });

  test('GitLab CI: a job that runs the gate and hands junit.xml to artifacts:reports:junit, always', () => {
    const ci = yaml('gitlab-ci.yml');
    const job = ci.conformance;
    expect(ci.stages).toContain(job.stage);
    expect(job.image).toMatch(/^node:20/);
    expect(job.script).toContain('npm ci');
    expect(job.script.some((l: string) => l.startsWith('npx conformance run '))).toBe(true);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.reports.junit).toBe('reports/junit.xml');
    expect(job.artifacts.paths).toContain('reports/');
  });
});
