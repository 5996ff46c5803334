/**
 * One network, every command (issue 41, item 2): every command that reaches a target (run, record,
 * drift, compare) takes the same network flags with the same help, and resolves them with their
 * variables and config keys in one place (engine/network-settings.ts). Proved on loopback: the mock
 * behind a gateway demanding an API-key header, behind a TLS server with the test CA that demands a
 * client certificate, reached through a proxy that demands credentials; `drift` judges it exactly as
 * it judges the mock on localhost, given the network by flags or by variables and a config file.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DriftReport } from '../../src/core/types.js';
import { NETWORK_OPTIONS } from '../../src/engine/network-settings.js';
import { RUN_OPTIONS } from '../../src/engine/settings.js';
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from '../../src/mock/handlers.js';
import { findSecret } from '../../test/support/processes.js';
import { startMock, type RunningMock } from '../../src/mock/server.js';
import { cli, tempDir } from '../../test/support/cli.js';
import {
  startHeaderGate,
  startProxy,
  startTlsFront,
  TLS_FILES,
  type TestProxy,
  type TlsFront,
} from '../../test/support/network.js';
import { COMPARE_OPTIONS } from '../../src/cli/compare.js';
import { DRIFT_OPTIONS } from '../../src/cli/drift.js';
import { COMPARE_HELP, DRIFT_HELP, NETWORK_HELP, RECORD_HELP, RUN_HELP } from '../../src/cli/help.js';
import { COMMANDS } from '../../src/cli/main.js';
import { RECORD_OPTIONS } from '../../src/cli/record.js';

/** The commands that send requests to a target, with their option and help tables. */
const TARGET_COMMANDS = {
  run: [RUN_OPTIONS, RUN_HELP],
  record: [RECORD_OPTIONS, RECORD_HELP],
  drift: [DRIFT_OPTIONS, DRIFT_HELP],
  compare: [COMPARE_OPTIONS, COMPARE_HELP],
} as const;
/** The commands that reach no target: they read files, or serve (mock). */
const OFFLINE = ['diff', 'validate', 'merge', 'mock', 'help'];

describe('the same network options for every command that reaches a target', () => {
  test('every command is one or the other: a new command must say which', () => {
    expect([...COMMANDS].sort()).toEqual([...Object.keys(TARGET_COMMANDS), ...OFFLINE].sort());
  });

  test.for(Object.keys(TARGET_COMMANDS))(
    '%s takes every network flag, as the network table declares it, with the same help',
    (cmd) => {
      const [options, help] = TARGET_COMMANDS[cmd as keyof typeof TARGET_COMMANDS];
      for (const [flag, spec] of Object.entries(NETWORK_OPTIONS)) {
        expect((options as Record<string, unknown>)[flag], `${cmd} --${flag}`).toEqual(spec);
        expect((help as Record<string, unknown>)[flag], `${cmd} --${flag} help`).toEqual(
          NETWORK_HELP[flag as keyof typeof NETWORK_HELP],
        );
      }
    },
  );

  test.for(Object.keys(TARGET_COMMANDS))(
    '%s --help lists every network flag with its text and variable',
    async (cmd) => {
      const { out } = await cli([cmd, '--help']);
      // Wrapped at other widths per command: compared with the whitespace collapsed.
      const text = out.replace(/\s+/g, ' ');
      for (const [flag, h] of Object.entries(NETWORK_HELP)) {
        expect(text, `${cmd} --${flag}`).toContain(`--${flag} `);
        expect(text, `${cmd} --${flag}`).toContain(h.description.replace(/\s+/g, ' '));
        if ('env' in h) expect(text, `${cmd} --${flag}`).toContain(`(env: ${h.env})`);
      }
    },
  );
});

describe('through a company network: gateway header, TLS with a client certificate, authenticating proxy', () => {
  const KEY = 'gate-key-7f3a';
  const PROXY_PASSWORD = 'proxy-s3cret';
  let mock: RunningMock;
  let gate: Awaited<ReturnType<typeof startHeaderGate>>;
  let front: TlsFront;
  let proxy: TestProxy;
  let work: string;
  const ENV = { CONFORMANCE_PROXY_PASSWORD: PROXY_PASSWORD, GATE_KEY: KEY, CONFORMANCE_PASSWORD: DEFAULT_PASSWORD };
  const flags = () => [
    '--proxy',
    proxy.url.replace('//', '//alice@'),
    '--ca-file',
    TLS_FILES.ca,
    '--client-cert',
    TLS_FILES.clientCert,
    '--client-key',
    TLS_FILES.clientKey,
    '--header',
    'X-Api-Key: env:GATE_KEY',
  ];

  beforeAll(async () => {
    mock = await startMock({ port: 0 });
    gate = await startHeaderGate(mock.url, 'X-Api-Key', KEY);
    front = await startTlsFront(gate.url);
    proxy = await startProxy(`alice:${PROXY_PASSWORD}`);
    work = tempDir('network-commands');
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), front?.close(), gate?.close(), mock?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** `drift` on the target at `url` with more flags: its exit code, drift.json and its output. */
  async function drift(name: string, url: string, more: string[], env: NodeJS.ProcessEnv = {}) {
    const dir = join(work, name);
    const r = await cli(['drift', '--book-url', url, '--search-url', url, '--report-dir', dir, ...more], env);
    const report =
      r.code === 0 || r.code === 1
        ? (JSON.parse(readFileSync(join(dir, 'drift.json'), 'utf8')) as DriftReport)
        : undefined;
    return { ...r, report };
  }
  /** What drift judged, without where it fetched from. */
  const judged = (r: DriftReport | undefined) =>
    r && {
      verdict: r.verdict,
      breaking: r.breaking,
      compatible: r.compatible,
      services: r.services.map((s) => ({ service: s.service, differences: s.differences })),
    };

  test(
    'drift with the network flags judges the target as on localhost, every fetch through the proxy, the '
      + 'TLS server and the gateway',
    async () => {
      const local = await drift('local', mock.url, []);
      expect(local.code, local.err).toBe(0);
      const before = { tunnels: proxy.counts.tunnels, accepted: front.counts.accepted, passed: gate.counts.passed };
      const far = await drift('flags', front.url, flags(), ENV);
      expect(far.code, far.err).toBe(local.code);
      expect(judged(far.report)).toEqual(judged(local.report));
      expect(proxy.counts.tunnels).toBeGreaterThan(before.tunnels);
      expect(front.counts.accepted).toBeGreaterThan(before.accepted);
      expect(gate.counts.passed - before.passed).toBe(2);
      expect(`${far.out}\n${far.err}`).not.toContain(PROXY_PASSWORD);
      expect(`${far.out}\n${far.err}`).not.toContain(KEY);
    },
  );

  test(
    "drift with the network from HTTPS_PROXY, the CONFORMANCE_* variables and the config file's keys: the " + 'same',
    async () => {
      const local = await drift('local-2', mock.url, []);
      const config = join(work, 'drift-config.json');
      writeFileSync(
        config,
        JSON.stringify({ target: { caFile: TLS_FILES.ca, headers: { 'X-Api-Key': { env: 'GATE_KEY' } } } }),
      );
      const far = await drift('env', front.url, ['--config', config], {
        ...ENV,
        HTTPS_PROXY: proxy.url.replace('//', `//alice:${PROXY_PASSWORD}@`),
        CONFORMANCE_CLIENT_CERT: TLS_FILES.clientCert,
        CONFORMANCE_CLIENT_KEY: TLS_FILES.clientKey,
      });
      expect(far.code, far.err).toBe(local.code);
      expect(judged(far.report)).toEqual(judged(local.report));
    },
  );

  test('without the network settings drift cannot reach it (what the settings are for): exit 4', async () => {
    const direct = await drift('direct', front.url, []);
    expect(direct.code, direct.err).toBe(4);
  });

  test('compare: the network flags reach both targets', async () => {
    const side = (name: string) => {
      const p = join(work, `${name}.json`);
      writeFileSync(
        p,
        JSON.stringify({
          target: { bookUrl: front.url, searchUrl: front.url, user: DEFAULT_USER },
          operations: ['GetLanguages', 'GetMeals'],
          bindings: ['soap11', 'get'],
        }),
      );
      return p;
    };
    const before = gate.counts.passed;
    const r = await cli(
      ['compare', '--config', side('a'), '--config', side('b'), '--report-dir', join(work, 'compare'), ...flags()],
      ENV,
    );
    expect(r.code, `${r.out}\n${r.err}`).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'compare', 'compare.json'), 'utf8')) as {
      summary: { same: number; total: number };
    };
    expect(report.summary.same).toBe(report.summary.total);
    expect(report.summary.total).toBeGreaterThan(0);
    expect(gate.counts.passed - before).toBe(2 * report.summary.total);
  });

  test("run: the reports' headers name the network path and the second account, never a secret", async () => {
    const dir = join(work, 'run');
    const r = await cli(
      [
        'run',
        '--book-url',
        front.url,
        '--search-url',
        front.url,
        '--user',
        DEFAULT_USER,
        '--operations',
        'GetLanguages,GetMeals',
        '--bindings',
        'soap11,get',
        '--examples',
        '0',
        '--no-negative',
        '--other-user',
        DEFAULT_OTHER_USER,
        '--report-dir',
        dir,
        ...flags(),
      ],
      { ...ENV, CONFORMANCE_OTHER_PASSWORD: DEFAULT_OTHER_PASSWORD },
    );
    expect(r.code, r.err).toBe(0);
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    const html = readFileSync(join(dir, 'conformance.html'), 'utf8');
    for (const page of [md, html]) {
      expect(page).toContain(proxy.url);
      expect(page).toContain('CN=conformance test client');
      expect(page).toContain('X-Api-Key');
      expect(page).toContain(DEFAULT_OTHER_USER);
    }
    const files = ['conformance.md', 'conformance.html', 'conformance.json'].map((f) => ({
      name: f,
      bytes: readFileSync(join(dir, f)),
    }));
    for (const secret of [PROXY_PASSWORD, KEY, DEFAULT_OTHER_PASSWORD])
      expect(findSecret(secret, files), secret).toEqual([]);
  });

  test("record: the network flags (as run's)", async () => {
    const out = join(work, 'recorded');
    const before = gate.counts.passed;
    const r = await cli(
      [
        'record',
        '--book-url',
        front.url,
        '--search-url',
        front.url,
        '--user',
        DEFAULT_USER,
        '--operations',
        'GetLanguages',
        '--bindings',
        'soap11',
        '--examples',
        '0',
        '--out',
        out,
        ...flags(),
      ],
      ENV,
    );
    expect(r.code, r.err).toBe(0);
    expect(gate.counts.passed).toBeGreaterThan(before);
    expect(readFileSync(join(out, 'index.json'), 'utf8')).not.toContain(PROXY_PASSWORD);
  });
});
