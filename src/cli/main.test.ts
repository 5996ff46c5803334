/** `conformance help` lists every command; every command answers --help with exit 0 and a usage line. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from './main.js';
import { RUN_OPTIONS } from './config.js';
import { RUN_HELP } from './help.js';
import { TOOL_VERSION } from '../core/version.js';
import { cli, tempDir } from '../../test/support/cli.js';

describe('conformance help', () => {
  test('lists every command the dispatcher knows', async () => {
    const r = await cli(['help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.out).toMatch(new RegExp(`^  ${c}\\s{2,}\\S`, 'm'));
    expect((await cli([])).code).toBe(2);
  });

  test.for(['run', 'diff', 'compare', 'record', 'validate', 'merge'])('help %s is %s --help (issue 22)', async (c) => {
    const r = await cli(['help', c]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^usage: conformance ${c} `));
    expect(r.out).toBe((await cli([c, '--help'])).out);
  });

  test('help of an unknown command exits 2 naming it', async () => {
    const r = await cli(['help', 'rnu']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/help: unknown command "rnu" \(did you mean run\?\)/);
  });

  test.for(['run', 'diff', 'compare', 'record', 'validate', 'merge'])('%s --help: its usage, exit 0', async (c) => {
    const r = await cli([c, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^usage: conformance ${c} `));
  });

  test('run --help: every flag with its meaning and default, and its environment variable (commander)', async () => {
    const r = await cli(['run', '--help']);
    const options = r.out.slice(r.out.indexOf('\nOptions:\n'));
    for (const flag of Object.keys(RUN_OPTIONS)) {
      const line = new RegExp(`^  (?:-\\w, )?--${flag}\\b[\\s\\S]*?(?=\\n  -|(?![\\s\\S]))`, 'm')
        .exec(options)?.[0]
        .replace(/\s+/g, ' ');
      expect(line, flag).toBeDefined();
      expect(line, flag).toContain(RUN_HELP[flag as keyof typeof RUN_HELP].description);
      if (flag !== 'help')
        expect(line, flag).toContain(`(default: ${RUN_HELP[flag as keyof typeof RUN_HELP].default})`);
    }
    expect(r.out).toMatch(/--password <SECRET>[\s\S]*\(env: CONFORMANCE_PASSWORD\)/);
  });

  test('--version prints the package version', async () => {
    expect(await cli(['--version'])).toMatchObject({ code: 0, out: TOOL_VERSION });
  });

  test('a near miss gets a "did you mean": a command, a flag', async () => {
    expect((await cli(['rnu'])).err).toMatch(/unknown command "rnu" \(did you mean run\?\)/);
    const r = await cli(['run', '--bok-url', 'http://x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown option '--bok-url' \(Did you mean --book-url\?\)/);
  });

  test('an unknown command or flag exits 2 naming it', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /unknown command "frobnicate" \(commands: run, diff, compare, record, validate, merge, drift, mock, help\)/,
    );
    for (const c of ['run', 'diff', 'compare', 'record', 'validate', 'merge', 'drift']) {
      const x = await cli([c, '--no-such-flag']);
      expect(x.code, c).toBe(2);
      expect(x.err, c).toMatch(/no-such-flag/);
    }
  });
});

describe('a report directory that cannot hold the reports (issue 15)', () => {
  test('run, merge and compare refuse it with exit 2 before sending or reading anything', async () => {
    const file = join(tempDir('rd'), 'a-file');
    writeFileSync(file, 'x');
    const started = Date.now();
    const run = await cli(['run', '--report-dir', join(file, 'reports'), '--quiet']);
    expect(run).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^conformance: --report-dir cannot hold the reports: .* which is a file/),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const merge = await cli(['merge', 'nowhere', '--report-dir', file]);
    expect(merge).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--report-dir cannot hold the reports: .*a-file is a file, not a directory/),
    });
    const compare = await cli(['compare', '--config', 'a.json', '--config', 'b.json', '--report-dir', file]);
    expect(compare).toMatchObject({ code: 2, err: expect.stringMatching(/--report-dir cannot hold the reports/) });
  });
});
