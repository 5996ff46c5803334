/**
 * `conformance run`'s flags: parsed here, resolved beneath the CLI (src/engine/run-settings-table.ts
 * declares each setting, src/engine/settings.ts resolves them from flags, variables and the config file).
 */
import { parseFlags } from '../core/flags.js';
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from '../engine/generate.js';
import { resolveRunSettingsFlags, RUN_OPTIONS, type RunSettings } from '../engine/settings.js';
import { synopsis } from '../core/setting.js';
import { RUN_SETTINGS } from '../engine/run-settings-table.js';

// One parser for every command (src/core/flags.ts); re-exported for the commands beside this file.
export { parseFlags, helpText, type FlagSpec, type FlagValues, type FlagHelp } from '../core/flags.js';
export {
  CONFIG_SCHEMA_URL,
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  resolveRunSettingsObject,
  RUN_OPTIONS,
  type RunSettings,
} from '../engine/settings.js';

/**
 * `conformance run --help`'s text before its options: the synopsis, every flag of the declarations
 * (src/engine/run-settings-table.ts), then what the flags do together.
 */
export const RUN_USAGE = `${synopsis('usage: conformance run', RUN_SETTINGS)}

With no target URL the embedded mock is started and tested. Service paths default to section 4's
(/1/SOAP/Booking.asmx, /1/SOAP/NonStaticXMLAPI.asmx); --X-http-path is where HTTP GET/POST are
served when not at the SOAP path (default: the --X-path). The password may come from the
environment variable CONFORMANCE_PASSWORD instead of --password (preferred: flags show in process lists).
--other-user NAME names a second account (its password in CONFORMANCE_OTHER_PASSWORD, never a flag):
authorization across accounts is tested with it (docs/real-service.md); the embedded mock has one built in.
--expectations FILE reports the failures it lists as known (exit 0 when only those fail) and fails on
entries that no longer fail or have expired; --update-expectations rewrites FILE from this run (one
entry per defect; an entry still "TODO: explain" accepts nothing).
--shard i/n runs the i-th of n parts of the matrix; join the parts with conformance merge.
--examples N generated request cases per operation (default ${DEFAULT_EXAMPLES}; 0: none), drawn with
--seed N (default ${DEFAULT_SEED}): the same seed gives the same cases.
Proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, or --proxy), a private CA (--ca-file), client certificates
(--client-cert PEM with --client-key PEM, or --client-pfx FILE alone) and extra headers (--header 'X-Api-Key: env:ACME_KEY' reads the variable): docs/real-service.md.
--max-p95 MS fails an operation × binding whose p95 answer time is above MS (per operation: the config's
latency.perOperation); one with fewer than 5 answers is "too few samples".
--min-coverage PCT makes a run whose coverage figure is below PCT percent INCOMPLETE (exit 6): docs/coverage.md.
--callback-url URL is where a target not on this machine reaches the listener of the external-entity
probe (a DOCTYPE every SOAP endpoint must refuse; --callback-listen HOST:PORT where it listens): docs/checks.md.`;

/** Resolve run settings from the command line. `env` is process.env in production. */
export function resolveRunSettings(argv: string[], env: NodeJS.ProcessEnv = process.env): RunSettings {
  return resolveRunSettingsFlags(parseFlags(argv, RUN_OPTIONS).values, env);
}
