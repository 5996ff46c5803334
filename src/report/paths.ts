/** Where writeReports puts each report inside its output directory. */
import { join, resolve } from 'node:path';

export interface ReportPaths {
  readonly dir: string;
  /** conformance.json: the RunReport, valid against schemas/conformance-report.schema.json. */
  readonly json: string;
  /** junit.xml: one testsuite per operation, one testcase per result row. */
  readonly junit: string;
  /** conformance.md: the CI job summary. */
  readonly markdown: string;
  /** conformance.html: the self-contained matrix page. */
  readonly html: string;
  /** allure-results/: Allure 2 results, one test per operation × binding × case. */
  readonly allureResults: string;
}

/** The report file paths inside dir (absolute). */
export function reportPaths(dir: string): ReportPaths {
  const d = resolve(dir);
  return {
    dir: d,
    json: join(d, 'conformance.json'),
    junit: join(d, 'junit.xml'),
    markdown: join(d, 'conformance.md'),
    html: join(d, 'conformance.html'),
    allureResults: join(d, 'allure-results'),
  };
}
