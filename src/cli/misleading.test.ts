/**
 * Issue 31, section 4: the smaller things that misled a new user, each held against what it said on
 * 95fee16: `--list --case nosuch` exited 0 with "0 cases"; `--dry-run` against a URL demanded a
 * password it never sends.
 */
import { describe, expect, test } from 'vitest';
import { cli } from '../../test/support/cli.js';

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
    const url = ['--book-url', 'http://127.0.0.1:9', '--search-url', 'http://127.0.0.1:9', '--user', 'acme', '--operations', 'GetThemes'];
    for (const flag of ['--dry-run', '--list']) {
      const r = await cli(['run', ...url, flag]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^Plan \(nothing sent\)/);
    }
    // A run still needs it.
    expect(await cli(['run', ...url, '--quiet'])).toMatchObject({ code: 2, err: expect.stringMatching(/no password for the target: set CONFORMANCE_PASSWORD/) });
  });
});
