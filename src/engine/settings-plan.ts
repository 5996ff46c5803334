/**
 * The Target and the RunPlan of a run's settings: built here once, for the run (./session.ts, with the
 * running mock's URL, the languages it found and the listener of the external-entity probe) and for
 * --list (./plan-list.ts, which sends nothing), so the plan listed is the plan run.
 */
import type { Check } from '../checks/types.js';
import type { Target } from '../core/types.js';
import type { Callback } from './callback.js';
import type { RunPlan } from './plan.js';
import type { RunSettings } from './settings.js';

/** The target of run settings; `mockUrl`: the running embedded mock's URL, for all three services. */
export function targetOf(s: RunSettings, mockUrl?: string): Target {
  return {
    bookUrl: mockUrl ?? s.bookUrl ?? '',
    searchUrl: mockUrl ?? s.searchUrl ?? '',
    transfersUrl: mockUrl ?? s.transfersUrl ?? s.searchUrl ?? '',
    paths: s.paths,
    namespaces: s.namespaces,
    user: s.user,
    password: s.password,
    ...(s.passwordVar ? { passwordVariable: s.passwordVar } : {}),
    ...(s.other
      ? {
          other: {
            user: s.other.user,
            password: s.other.password,
            ...(s.other.passwordVar ? { passwordVariable: s.other.passwordVar } : {}),
          },
        }
      : {}),
    ...(s.sources ? { sources: s.sources } : {}),
    embedded: s.embedded,
    ...(s.network ? { network: s.network } : {}),
  };
}

/** The values of `language` the generated cases take, and where they came from. */
export interface PlanLanguages {
  readonly languages: readonly string[];
  readonly from: string;
}

/**
 * What a plan needs beyond the settings: its checks, the languages of its generated cases (none: no generation), the
 * listener.
 */
export interface PlanParts {
  readonly checks: readonly Check[];
  readonly languages?: PlanLanguages;
  readonly callback?: Callback;
}

/** The plan of a run with these settings against `target`. */
export function planOf(s: RunSettings, target: Target, p: PlanParts): RunPlan {
  return {
    target,
    bindings: s.bindings,
    operations: s.operations,
    cases: s.cases,
    allowMutations: s.allowMutations,
    checks: p.checks,
    negative: s.negative,
    equivalence: s.equivalence,
    operationsNamed: s.operationsNamed,
    ...(s.families ? { families: s.families } : {}),
    ...(s.bookings ? { bookings: s.bookings } : {}),
    ...(s.maxFailures !== undefined ? { maxFailures: s.maxFailures } : {}),
    ...(s.maxFailedLogins !== undefined ? { maxFailedLogins: s.maxFailedLogins } : {}),
    maxTransient: s.maxTransient,
    ...(p.languages
      ? {
          generation: {
            seed: s.seed,
            examples: s.examples,
            languages: p.languages.languages,
            languagesFrom: p.languages.from,
          },
        }
      : {}),
    ...(s.caseFilter ? { caseFilter: s.caseFilter } : {}),
    ...(s.latency ? { latency: s.latency } : {}),
    ...(s.failOnDrift ? { failOnDrift: true } : {}),
    ...(s.minCoverage ? { minCoverage: s.minCoverage } : {}),
    ...(p.callback ? { callback: p.callback } : {}),
  };
}
