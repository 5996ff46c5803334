/**
 * The re-run basis a report keeps of the run's settings (./rerun-basis.ts): what a re-run command
 * needs of them, whether they came from flags, the environment or the config file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { rerunBasis } from './rerun-basis.js';
import { resolveRunSettingsFlags } from './settings.js';

const dir = mkdtempSync(join(tmpdir(), 'rerun-basis-'));
const file = (name: string, json: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(json));
  return p;
};
const target = {
  CONFORMANCE_BOOK_URL: 'http://127.0.0.1:9',
  CONFORMANCE_SEARCH_URL: 'http://127.0.0.1:9',
  CONFORMANCE_USER: 'u',
  CONFORMANCE_PASSWORD: 'p',
};
const resolve = (env: NodeJS.ProcessEnv, flags: Parameters<typeof resolveRunSettingsFlags>[0] = {}) =>
  resolveRunSettingsFlags(flags, env);

describe('rerunBasis: what a re-run command needs of the settings', () => {
  test('the config file, the bookings file and the settings that change what is sent or judged', () => {
    const pools = file('pools.json', { cancel: ['B1'] });
    const config = file('c.json', { checks: ['shape'], expectations: 'exp.json' });
    const s = resolve(
      {
        ...target,
        CONFORMANCE_CONFIG: config,
        CONFORMANCE_BOOKINGS_FILE: pools,
        CONFORMANCE_ALLOW_MUTATIONS: 'true',
        CONFORMANCE_TIMEOUT: '2500',
      },
      { 'no-equivalence': true, 'report-dir': join(dir, 'r') },
    );
    expect(rerunBasis(s)).toEqual({
      config,
      bookings: { file: pools },
      reportDir: join(dir, 'r'),
      flags: [
        '--allow-mutations',
        '--checks',
        'shape',
        '--no-equivalence',
        '--expectations',
        'exp.json',
        '--timeout',
        '2500',
      ],
    });
  });

  test(
    'pools in CONFORMANCE_BOOKINGS are named by the variable; pools inside the config come with it; '
      + 'defaults add nothing',
    () => {
      expect(rerunBasis(resolve({ ...target, CONFORMANCE_BOOKINGS: '{"cancel":["B1"]}' })).bookings).toEqual({
        variable: 'CONFORMANCE_BOOKINGS',
      });
      const inFile = file('with-pools.json', { bookings: { cancel: ['B1'] } });
      const b = rerunBasis(resolve({ ...target, CONFORMANCE_CONFIG: inFile }));
      expect(b).toEqual({ config: inFile, flags: [], reportDir: 'reports' });
      expect(JSON.stringify(b)).not.toContain('B1');
    },
  );
});
