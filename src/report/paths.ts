/** Where writeReports puts each report inside its output directory, and whether it can. */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

/**
 * Why reports cannot be written into `dir`, or undefined when they can: the directory (or, when it
 * does not exist yet, the nearest existing folder above it, where it would be created) must be a
 * writable directory. Asked before a run sends anything, so that a finished run is never lost to a
 * bad path.
 */
export function reportDirProblem(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a file stands somewhere above; go up until it is found.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return `cannot use ${at}: ${code ?? (e as Error).message}`;
      const up = dirname(at);
      if (up === at) return `no existing folder above ${resolve(dir)}`;
      at = up;
      continue;
    }
    const self = at === resolve(dir);
    if (!isDir)
      return self ? `${at} is a file, not a directory` : `${resolve(dir)} would sit under ${at}, which is a file`;
    try {
      accessSync(at, constants.W_OK | constants.X_OK);
    } catch {
      return self ? `${at} is not writable` : `${resolve(dir)} cannot be created: ${at} is not writable`;
    }
    return undefined;
  }
}
