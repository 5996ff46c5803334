/**
 * Shared pieces of the sequences' tests (src/sequences/*.test.ts): a plan of some state-changing
 * operations against a mock at a URL, with mutations allowed, and a run of it against a mock started
 * for it (its own state), closed afterwards.
 */
import {
  BINDINGS,
  DEFAULT_NAMESPACES,
  DEFAULT_PATHS,
  resolvePaths,
  type Operation,
} from '../../src/contract/catalogue.js';
import { selectChecks } from '../../src/checks/registry.js';
import type { RunReport, Target } from '../../src/core/types.js';
import { loadFixtureCases } from '../../src/engine/cases.js';
import type { RunPlan } from '../../src/engine/plan.js';
import { mockBookings } from '../../src/engine/bookings.js';
import { runPlan } from '../../src/engine/run.js';
import { startMock, type MockOptions } from '../../src/mock/index.js';
import { createDocumentValidator } from '../../src/schema/xsd-validator.js';
import { Transport } from '../../src/transport/client.js';

/**
 * A plan of `operations` against `url` (the mock's account; `over` changes the target), mutations allowed, no negative
 * cases.
 */
export function sequencePlan(url: string, operations: readonly Operation[], over: Partial<Target> = {}): RunPlan {
  const target: Target = {
    bookUrl: url,
    searchUrl: url,
    transfersUrl: url,
    paths: DEFAULT_PATHS,
    namespaces: DEFAULT_NAMESPACES,
    user: 'mock-user',
    password: 'mock-password',
    embedded: true,
    ...over,
  };
  return {
    target,
    bindings: BINDINGS,
    operations,
    cases: loadFixtureCases(),
    allowMutations: true,
    checks: selectChecks(),
    negative: false,
    equivalence: true,
  };
}

/** The run of that plan against a mock started with `options` (its paths given to the target too). */
export async function runAgainstMock(
  options: Partial<MockOptions>,
  operations: readonly Operation[],
  over: Partial<Target> = {},
): Promise<RunReport> {
  const m = await startMock({ port: 0, ...options });
  try {
    return await runPlan(
      sequencePlan(m.url, operations, { ...(options.paths ? { paths: options.paths } : {}), ...over }),
      { transport: new Transport({ concurrency: 8 }), validator: createDocumentValidator(DEFAULT_NAMESPACES) },
    );
  } finally {
    await m.close();
  }
}

/** The real service's PostGet layout (HTTP GET and POST under /1/PostGet/, SOAP under /1/SOAP/). */
export const POSTGET_PATHS = resolvePaths({
  booking: { soap: '/1/SOAP/Booking.asmx', http: '/1/PostGet/Booking.asmx' },
  reference: { soap: '/1/SOAP/NonStaticXMLAPI.asmx', http: '/1/PostGet/NonStaticXMLAPI.asmx' },
});

/** Every style a correct mock answers in, each of which a sequence must pass: [label, mock options]. */
export const MOCK_STYLES: readonly (readonly [string, Partial<MockOptions>])[] = [
  ['plain', {}],
  ['variation', { vary: true }],
  ['real-service style', { realService: true }],
  ['real-service style, PostGet layout', { realService: true, paths: POSTGET_PATHS }],
];

/**
 * The mock's other two modes of which bookings exist (issue 40), beside the default (any non-blank
 * id, MOCK_STYLES): only the run's pools (as the real service, where only real bookings exist), and
 * every id, blank included. A small extra set: the run of every family (sequences.test.ts) and the
 * id probes' own tests go through them, not every style of every file.
 */
export const BOOKING_MODES: readonly (readonly [string, Partial<MockOptions>])[] = [
  ["only the pools' bookings", { bookings: mockBookings() }],
  ['every id, blank included', { everyId: true }],
];
