/**
 * The keys of the library's settings (src/index.ts ConformanceSettings), written out once: the compiler
 * holds each record to the type (a key missing or extra does not compile), and the tests hold the type
 * to the config schema (suites/e2e/library.test.ts) and to the settings' declarations
 * (src/engine/run-settings-table.test.ts).
 */
import type { ConformanceSettings } from '../../src/index.js';

export const LIBRARY_TOP_KEYS: Record<keyof ConformanceSettings, true> = {
  target: true,
  bindings: true,
  operations: true,
  allowMutations: true,
  concurrency: true,
  timeoutMs: true,
  deadlineMs: true,
  maxRps: true,
  maxBodyBytes: true,
  seed: true,
  examples: true,
  languages: true,
  maxFailures: true,
  maxFailedLogins: true,
  giveUpAfter: true,
  insecureTls: true,
  reportDir: true,
  checks: true,
  skipChecks: true,
  families: true,
  skipFamilies: true,
  skipOperations: true,
  negative: true,
  equivalence: true,
  cases: true,
  casesMode: true,
  expectations: true,
  bookings: true,
  latency: true,
  failOnDrift: true,
  maxTransient: true,
  minCoverage: true,
  callbackUrl: true,
  callbackListen: true,
};

export const LIBRARY_TARGET_KEYS: Record<keyof NonNullable<ConformanceSettings['target']>, true> = {
  bookUrl: true,
  searchUrl: true,
  transfersUrl: true,
  bookPath: true,
  bookHttpPath: true,
  searchPath: true,
  searchHttpPath: true,
  transfersPath: true,
  transfersHttpPath: true,
  bookNs: true,
  searchNs: true,
  user: true,
  password: true,
  passwordEnv: true,
  otherUser: true,
  otherPassword: true,
  otherPasswordEnv: true,
  proxy: true,
  proxyPassword: true,
  proxyPasswordEnv: true,
  noProxy: true,
  caFile: true,
  clientCert: true,
  clientKey: true,
  clientPfx: true,
  clientPfxPassphraseEnv: true,
  headers: true,
};

/** Every key, a target's as `target.name`. */
export const LIBRARY_KEYS: readonly string[] = [
  ...Object.keys(LIBRARY_TOP_KEYS).filter((k) => k !== 'target'),
  ...Object.keys(LIBRARY_TARGET_KEYS).map((k) => `target.${k}`),
];
