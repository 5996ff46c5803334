/** `conformance help` lists every command; every command answers --help with exit 0 and a usage line. */
import { describe, expect, test } from 'vitest';
import { COMMANDS } from './main.js';
import { cli } from './test-support.js';

describe('conformance help', () => {
  test('lists every command the dispatcher knows', async () => {
    const r = await cli(['help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.out).toMatch(new RegExp(`^  ${c}\\s{2,}\\S`, 'm'));
    expect((await cli([])).code).toBe(2);
  });

  test.for(['run', 'diff', 'compare', 'record', 'validate', 'merge'])('%s --help: its usage, exit 0', async (c) => {
    const r = await cli([c, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^usage: conformance ${c} `));
  });

  test('an unknown command or flag exits 2 naming it', async () => {
    const r = await cli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command "frobnicate" \(commands: run, diff, compare, record, validate, merge, mock, help\)/);
    for (const c of ['run', 'diff', 'compare', 'record', 'validate', 'merge']) {
      const x = await cli([c, '--no-such-flag']);
      expect(x.code, c).toBe(2);
      expect(x.err, c).toMatch(/no-such-flag/);
    }
  });
});
