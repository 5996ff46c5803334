/**
 * Issue 31, section 4: the smaller things that misled a new user, each held against what it said on
 * 95fee16: `--list --case nosuch` exited 0 with "0 cases"; `--dry-run` against a URL demanded a
 * password it never sends; the Markdown wrote an unreachable host as `\\127.0.0.1:18199`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, readReport, tempDir } from '../../test/support/cli.js';
import { mdText } from '../../src/report/md-text.js';
import { resolveRunSettings } from '../../src/cli/config.js';

describe('--list and --dry-run', () => {
  test('--list --case nosuch exits 2, as run --case nosuch does, naming the cases there are', async () => {
    const list = await cli(['run', '--list', '--operations', 'GetThemes', '--case', 'nosuch']);
    expect(list.code, list.out).toBe(2);
    expect(list.err).toMatch(/--case nosuch matches no case of this run \(GetThemes, .*its cases: default/);
    const run = await cli(['run', '--operations', 'GetThemes', '--case', 'nosuch', '--quiet']);
    expect(run.code).toBe(2);
    expect((await cli(['run', '--list', '--operations', 'GetThemes', '--case', 'default'])).code).toBe(0);
  });

  test('--dry-run (and --list) against a URL send nothing, so need no password', async () => {
    const url = [
      '--book-url',
      'http://127.0.0.1:9',
      '--search-url',
      'http://127.0.0.1:9',
      '--user',
      'acme',
      '--operations',
      'GetThemes',
    ];
    for (const flag of ['--dry-run', '--list']) {
      const r = await cli(['run', ...url, flag]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^Plan \(nothing sent\)/);
    }
    // A run still needs it.
    expect(await cli(['run', ...url, '--quiet'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no password for the target: set CONFORMANCE_PASSWORD/),
    });
  });
});

describe('Markdown text', () => {
  test(
    'an unreachable host at the start of a line is not turned into \\127.0.0.1 (issue 31); a real list '
      + 'marker is still escaped',
    async () => {
      expect(mdText('127.0.0.1:18199 does not answer')).toBe('127.0.0.1:18199 does not answer');
      expect(mdText('1. not a list')).toBe('1\\. not a list');
      expect(mdText('2) not a list')).toBe('2\\) not a list');
      expect(mdText('- not a list')).toBe('\\- not a list');
      const dir = tempDir('md-host');
      const r = await cli(
        [
          'run',
          '--book-url',
          'http://127.0.0.1:9',
          '--search-url',
          'http://127.0.0.1:9',
          '--user',
          'u',
          '--operations',
          'GetThemes',
          '--examples',
          '0',
          '--quiet',
          '--report-dir',
          dir,
        ],
        { CONFORMANCE_PASSWORD: 'secret-pw' },
      );
      expect(r.code).toBe(4);
      const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
      expect(md).toMatch(/^> - ✗ 127\.0\.0\.1:9 does not answer/m);
      expect(md).not.toContain('\\127.0.0.1');
    },
  );
});

describe('examples/', () => {
  test(
    'the run config of the embedded mock is named as one (it was examples/mock.json, read as a config of '
      + 'the mock); every examples/ file the docs name exists',
    () => {
      expect(existsSync('examples/mock.json')).toBe(false);
      expect(resolveRunSettings(['--config', 'examples/run-embedded.json'], {}).embedded).toBe(true);
      const docs = [
        'README.md',
        ...readdirSync('docs')
          .filter((f) => f.endsWith('.md'))
          .map((f) => join('docs', f)),
      ];
      for (const f of docs) {
        for (const m of readFileSync(f, 'utf8').matchAll(/examples\/([\w.-]+\.(?:json|ya?ml))/g))
          expect(existsSync(join('examples', m[1]!)), `${f}: ${m[0]}`).toBe(true);
      }
    },
  );
});

describe('NoSuchOperation is a probe, not an operation', () => {
  test(
    'the matrix lists it under the probes, not as a 15th operation under Booking; the answer times leave ' + 'it out',
    async () => {
      const dir = tempDir('probe');
      const r = await cli([
        'run',
        '--operations',
        'GetSpecialRequest,GetThemes',
        '--examples',
        '0',
        '--report-dir',
        dir,
      ]);
      expect(r.code, r.err).toBe(0);
      const report = readReport(dir);
      expect(report.results.some((x) => x.operation === 'NoSuchOperation')).toBe(true);
      const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
      const rowsOf = (label: string) => {
        const at = md.indexOf(`| **${label}`);
        const next = md.indexOf('| **', at + 1);
        return md.slice(at, next < 0 ? undefined : next);
      };
      expect(rowsOf('Booking')).not.toContain('NoSuchOperation');
      expect(rowsOf('Probes')).toMatch(/^\| NoSuchOperation \|/m);
      const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
      expect(html).toMatch(
        /<tbody data-group="probes"><tr><th [^>]*>Probes: [^<]*<\/th><\/tr>\n<tr data-operation="NoSuchOperation">/,
      );
      expect(html).not.toMatch(/<tbody data-group="booking">(?:(?!<\/tbody>).)*NoSuchOperation/s);
      expect(r.out).toMatch(/Answer times, median \/ p95:/);
      expect(r.out).not.toMatch(/^\s+NoSuchOperation\s/m);
      const times = md.slice(md.indexOf('Answer times'));
      expect(times.slice(0, times.indexOf('</details>'))).not.toMatch(/NoSuchOperation/);
    },
  );
});

describe('--skip-operations', () => {
  const listed = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await cli(['run', '--list', '--list-format', 'json', '--examples', '0', ...argv], env);
    expect(r.code, r.err).toBe(0);
    return (JSON.parse(r.out) as { operations: string[] }).operations;
  };
  test('leaves operations out of the run, from the flag, the environment or the config file', async () => {
    const all = await listed([]);
    expect(all).toHaveLength(14);
    expect(await listed(['--skip-operations', 'GetThemes,CancelBooking'])).toEqual(
      all.filter((o) => o !== 'GetThemes' && o !== 'CancelBooking'),
    );
    expect(await listed([], { CONFORMANCE_SKIP_OPERATIONS: 'GetFeatures' })).toEqual(
      all.filter((o) => o !== 'GetFeatures'),
    );
    const config = join(tempDir('skip-ops'), 'run.json');
    writeFileSync(config, JSON.stringify({ skipOperations: ['GetMeals'] }));
    expect(await listed(['--config', config])).toEqual(all.filter((o) => o !== 'GetMeals'));
    expect(await listed(['--operations', 'GetMeals,GetThemes', '--skip-operations', 'GetThemes'])).toEqual([
      'GetMeals',
    ]);
    // And a run sends none of its calls.
    const dir = tempDir('skip-run');
    const r = await cli([
      'run',
      '--operations',
      'GetMeals,GetThemes',
      '--skip-operations',
      'GetThemes',
      '--examples',
      '0',
      '--quiet',
      '--report-dir',
      dir,
    ]);
    expect(r.code, r.err).toBe(0);
    expect(new Set(readReport(dir).results.map((x) => x.operation))).not.toContain('GetThemes');
  });
  test('an unknown name gets a "did you mean" naming its source; leaving nothing is bad usage', async () => {
    const r = await cli(['run', '--list', '--skip-operations', 'GetTheme']);
    expect(r).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /--skip-operations names an unknown operation "GetTheme" \(did you mean GetThemes\?\)/,
      ),
    });
    const e = await cli(['run', '--list'], { CONFORMANCE_SKIP_OPERATIONS: 'getmeals' });
    expect(e).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /CONFORMANCE_SKIP_OPERATIONS.*unknown operation "getmeals" \(did you mean GetMeals\? names are case-sensitive\)/,
      ),
    });
    const none = await cli(['run', '--list', '--operations', 'GetMeals', '--skip-operations', 'GetMeals']);
    expect(none).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--skip-operations leaves no operation to test \(--operations names GetMeals\)/),
    });
  });
});
