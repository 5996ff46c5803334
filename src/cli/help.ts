/**
 * What `conformance <command> --help` says of each flag: meaning, default and environment variable.
 * One table per command, beside (not inside) the option tables, which stay the parsers' input
 * (src/cli/config.ts RUN_OPTIONS, ...). The types ask for an entry for every flag of a table, so a
 * flag added there without a line here does not compile; the tables of docs/cli.md say the same (a test
 * keeps them in step, suites/docs.test.ts).
 */
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from '../engine/generate.js';
import type { FlagHelp } from '../core/flags.js';
import type { COMPARE_OPTIONS } from './compare.js';
import type { NETWORK_OPTIONS } from '../engine/network-settings.js';
import { RUN_ENV, RUN_OPTIONS } from '../engine/settings.js';
import type { DIFF_OPTIONS } from './diff.js';
import type { DRIFT_OPTIONS } from './drift.js';
import type { MERGE_OPTIONS } from './merge.js';
import type { VALIDATE_OPTIONS } from './validate.js';

const HELP_FLAG = { description: 'show this help' };

/** Each run flag's help with its environment variable (src/engine/settings.ts RUN_ENV); a switch's says the value it takes. */
function withEnv(help: FlagHelp<typeof RUN_OPTIONS>): FlagHelp<typeof RUN_OPTIONS> {
  return Object.fromEntries(Object.entries(help).map(([flag, doc]) => {
    const env = (RUN_ENV as Record<string, string | undefined>)[flag];
    if (env === undefined || doc.env !== undefined) return [flag, doc];
    const boolean = RUN_OPTIONS[flag as keyof typeof RUN_OPTIONS].type === 'boolean';
    return [flag, { ...doc, env: boolean ? `${env}=${flag.startsWith('no-') ? 'false' : 'true'}` : env }];
  })) as FlagHelp<typeof RUN_OPTIONS>;
}

/**
 * The network flags' help (src/engine/network-settings.ts NETWORK_OPTIONS): one text for every command
 * that reaches a target (run, record, drift, compare), each naming its variable.
 */
export const NETWORK_HELP: FlagHelp<typeof NETWORK_OPTIONS> = {
  timeout: { value: 'MS', description: 'one exchange (a request, a WSDL fetch), first byte to last', default: '10000', env: 'CONFORMANCE_TIMEOUT' },
  'insecure-tls': { description: 'accept self-signed certificates (explicit opt-in)', default: 'off', env: 'CONFORMANCE_INSECURE_TLS=true' },
  proxy: { value: 'URL', description: 'HTTP proxy for every target URL (http:// forwarded, https:// tunnelled with CONNECT); overrides HTTPS_PROXY/HTTP_PROXY; NO_PROXY still applies; credentials in it are redacted; a URL naming a user and no password takes it from CONFORMANCE_PROXY_PASSWORD (or the variable target.proxyPasswordEnv names)', default: 'https_proxy/HTTPS_PROXY, http_proxy/HTTP_PROXY', env: 'CONFORMANCE_PROXY' },
  'ca-file': { value: 'PEM', description: 'trust the CA(s) in this PEM file, besides the system\'s', default: 'system CAs', env: 'CONFORMANCE_CA_FILE' },
  'client-cert': { value: 'PEM', description: 'client certificate (PEM) for targets that demand one; with --client-key', default: 'none', env: 'CONFORMANCE_CLIENT_CERT' },
  'client-key': { value: 'PEM', description: 'the client certificate\'s private key (PEM, not encrypted)', default: 'none', env: 'CONFORMANCE_CLIENT_KEY' },
  'client-pfx': { value: 'FILE', description: 'client certificate and key as PKCS#12; its passphrase from the variable (never a flag)', default: 'none', env: 'CONFORMANCE_CLIENT_PFX_PASSPHRASE' },
  header: { value: '"N: V"', description: 'add a header to every request (repeatable); "N: env:VAR" takes the value from the variable VAR, a secret: redacted, named in curl commands; Content-Type and SOAPAction are refused', default: 'none', env: 'CONFORMANCE_HEADERS' },
};

export const RUN_HELP: FlagHelp<typeof RUN_OPTIONS> = withEnv({
  ...NETWORK_HELP,
  config: { value: 'FILE', description: 'JSON config file (schemas/config.schema.json)', default: 'none' },
  'book-url': { value: 'URL', description: 'base URL of the booking operations; no URL at all: the embedded mock', default: 'embedded mock', env: 'CONFORMANCE_BOOK_URL' },
  'search-url': { value: 'URL', description: 'base URL of the reference-data operations', default: 'embedded mock', env: 'CONFORMANCE_SEARCH_URL' },
  'transfers-url': { value: 'URL', description: 'base URL of SearchTransfers', default: 'the search URL', env: 'CONFORMANCE_TRANSFERS_URL' },
  'book-path': { value: 'P', description: 'service path of the booking SOAP bindings', default: '/1/SOAP/Booking.asmx', env: 'CONFORMANCE_BOOK_PATH' },
  'book-http-path': { value: 'P', description: 'service path of the booking HTTP GET/POST bindings', default: 'the book path', env: 'CONFORMANCE_BOOK_HTTP_PATH' },
  'search-path': { value: 'P', description: 'service path of the reference-data SOAP bindings', default: '/1/SOAP/NonStaticXMLAPI.asmx', env: 'CONFORMANCE_SEARCH_PATH' },
  'search-http-path': { value: 'P', description: 'service path of the reference-data HTTP GET/POST bindings', default: 'the search path', env: 'CONFORMANCE_SEARCH_HTTP_PATH' },
  'transfers-path': { value: 'P', description: 'service path of SearchTransfers\' SOAP bindings', default: 'the search path', env: 'CONFORMANCE_TRANSFERS_PATH' },
  'transfers-http-path': { value: 'P', description: 'service path of SearchTransfers\' HTTP GET/POST bindings', default: 'the transfers path', env: 'CONFORMANCE_TRANSFERS_HTTP_PATH' },
  'book-ns': { value: 'URI', description: 'the target\'s booking namespace ({book_ns})', default: 'the mock\'s', env: 'CONFORMANCE_BOOK_NS' },
  'search-ns': { value: 'URI', description: 'the target\'s search namespace ({search_ns})', default: 'the mock\'s', env: 'CONFORMANCE_SEARCH_NS' },
  user: { value: 'NAME', description: 'user name', default: 'the mock\'s', env: 'CONFORMANCE_USER' },
  password: { value: 'SECRET', description: 'password (prefer the variable: flags show in process lists)', default: 'the mock\'s', env: 'CONFORMANCE_PASSWORD' },
  bindings: { value: 'LIST', description: 'bindings to test, of soap11,soap12,get,post', default: 'all four' },
  operations: { value: 'LIST', description: 'operations to test (case-sensitive); a state-changing one needs --allow-mutations on a target other than the embedded mock (refused otherwise, exit 2)', default: 'all 14' },
  'allow-mutations': { description: 'allow state-changing operations on a real target', default: 'off' },
  concurrency: { value: 'N', description: 'requests in flight', default: '16 mock, 4 remote' },
  deadline: { value: 'MS', description: 'the whole run, from the command\'s start', default: 'none' },
  'max-rps': { value: 'N', description: 'request rate bound', default: 'none mock, 20 remote' },
  'max-body-bytes': { value: 'N', description: 'response size cap, enforced while reading', default: '33554432' },
  seed: { value: 'N', description: 'seed of the generated request cases: the same seed sends the same cases under the same ids', default: String(DEFAULT_SEED) },
  examples: { value: 'N', description: 'generated request cases per operation (0: none)', default: String(DEFAULT_EXAMPLES) },
  languages: { value: 'LIST', description: 'the values of language for generated cases, instead of asking the target\'s GetLanguages (a re-run command carries its run\'s)', default: 'the target\'s GetLanguages' },
  bookings: { value: 'FILE', description: 'the booking pools state-changing calls consume, each booking once (JSON: cancel, amend, specialRequest, transfers); CONFORMANCE_BOOKINGS holds the JSON itself', default: 'generated for the mock, none remote', env: 'CONFORMANCE_BOOKINGS_FILE' },
  'max-failures': { value: 'N', description: 'stop sending after N failed rows; the reports say the run is incomplete', default: 'none' },
  'max-failed-logins': { value: 'N', description: 'send at most N login variants (a service may lock an account after failed logins), spread so each variant and each binding is still tried; --dry-run says how many failed logins a run sends', default: 'all' },
  'give-up-after': { value: 'N', description: 'stop sending to a service after N time-outs or connection failures in a row; a target whose first N answers are transient is down: the run stops (0: never)', default: '5' },
  'report-dir': { value: 'DIR', description: 'where reports go', default: 'reports' },
  checks: { value: 'LIST', description: 'checks to run, by name', default: 'all' },
  'skip-checks': { value: 'LIST', description: 'checks to leave out, by name, or a group of them (hostile_requests)', default: 'none' },
  families: { value: 'LIST', description: 'families of sequences to plan, by name (docs/sequences.md)', default: 'all' },
  'skip-families': { value: 'LIST', description: 'families of sequences to leave out, by name', default: 'none' },
  'no-negative': { description: 'leave out the wrong-credentials and bad-request cases', default: 'they run' },
  'no-equivalence': { description: 'leave out the binding comparison', default: 'it runs' },
  quiet: { description: 'no progress, no finding details', default: 'off' },
  expectations: { value: 'FILE', description: 'known deviations of the target: matching failures are known, not failed', default: 'none' },
  'update-expectations': { description: 'rewrite FILE from this run\'s failures first (reasons kept; one new entry per defect, "TODO: explain", which accepts nothing until explained)', default: 'off' },
  shard: { value: 'i/n', description: 'run the i-th of n parts of the matrix; join them with conformance merge', default: 'whole matrix' },
  case: { value: 'ID', description: 'run only the cases with this id (repeatable; * and ? match any characters / one)', default: 'every case' },
  list: { description: 'print the plan (operation × binding × case, parameters, checks) and send nothing', default: 'off' },
  'dry-run': { description: 'the same as --list', default: 'off' },
  'list-format': { value: 'text|json', description: 'the format of --list', default: 'text' },
  github: { description: 'GitHub Actions: an ::error annotation per defect (most severe first, the count in a notice), the Markdown summary appended to $GITHUB_STEP_SUMMARY', default: 'on when GITHUB_ACTIONS=true', env: 'GITHUB_ACTIONS' },
  'fail-on-drift': { description: 'a breaking difference of the target\'s WSDL from the contract\'s (the preflight\'s drift) fails the run; a WSDL that could not be compared leaves it UNTESTED (exit 5)', default: 'off: drift is reported only' },
  help: HELP_FLAG,
  'skip-operations': { value: 'LIST', description: 'operations to leave out (case-sensitive): the run tests the others', default: 'none', env: 'CONFORMANCE_SKIP_OPERATIONS' },
  'max-p95': { value: 'MS', description: 'latency gate: an operation × binding whose p95 answer time is above MS fails (latency_p95_exceeded); fewer than 5 answers: too few samples; per operation: the config\'s latency.perOperation', default: 'none' },
  'max-transient': { value: 'PCT', description: 'a target with more than PCT% of its exchanges transient (gateway pages, dropped connections, time-outs) is unhealthy: exit 4, no verdict', default: '20', env: 'CONFORMANCE_MAX_TRANSIENT' },
  'min-coverage': { value: 'PCT', description: 'a run whose coverage figure (answer paths held and kinds of parameter value sent, docs/coverage.md) is below PCT percent is INCOMPLETE (exit 6)', default: 'none', env: 'CONFORMANCE_MIN_COVERAGE' },
  'other-user': { value: 'NAME', description: 'a second account of the same service, its password in CONFORMANCE_OTHER_PASSWORD (no flag: flags show in process lists): the first account\'s bookings are called with it and must be refused (authorization across accounts; docs/real-service.md)', default: 'the mock\'s mock-other; none remote: not tested', env: 'CONFORMANCE_OTHER_USER' },
  'callback-url': { value: 'URL', description: 'the URL at which the target reaches this machine\'s listener for the external-entity probe (a DOCTYPE a SOAP endpoint must refuse; docs/checks.md): needed when the target is not on this machine', default: 'none: a remote target\'s fetch is not observable (a note)', env: 'CONFORMANCE_CALLBACK_URL' },
  'callback-listen': { value: 'HOST:PORT', description: 'where that listener listens', default: 'every interface at the --callback-url port; 127.0.0.1 at a free port for a target on this machine', env: 'CONFORMANCE_CALLBACK_LISTEN' },
});

export const DIFF_HELP: FlagHelp<typeof DIFF_OPTIONS> = {
  format: { value: 'text|markdown|json', description: 'output format', default: 'text' },
  'allow-lost-coverage': { description: 'exit 0 although NEW tested less than OLD (the lost coverage is still listed)', default: 'off: lost coverage exits 1' },
  help: HELP_FLAG,
};

export const COMPARE_HELP: FlagHelp<typeof COMPARE_OPTIONS> = {
  config: { value: 'FILE', description: 'a run config file; given twice, A then B (no target URL: the embedded mock)', default: 'none: required twice' },
  'report-dir': { value: 'DIR', description: 'where compare.json and compare.md go', default: 'reports' },
  'ignore-values': { description: 'compare only which elements and attributes occur', default: 'off' },
  quiet: { description: 'no progress', default: 'off' },
  help: HELP_FLAG,
  ...NETWORK_HELP,
};

export const RECORD_HELP = {
  ...RUN_HELP,
  out: { value: 'DIR', description: 'where the recording goes', default: 'fixtures/recorded' },
} as const;

export const VALIDATE_HELP: FlagHelp<typeof VALIDATE_OPTIONS> = {
  type: { value: 'NAME', description: 'walk the root element as this model type', default: 'none' },
  operation: { value: 'OP', description: 'the operation whose result the document is', default: 'read from the document' },
  binding: { value: 'soap11|soap12|get|post', description: 'the binding that carried it', default: 'read from the document' },
  'book-ns': { value: 'URI', description: 'the booking namespace', default: 'the mock\'s', env: 'CONFORMANCE_BOOK_NS' },
  'search-ns': { value: 'URI', description: 'the search namespace', default: 'the mock\'s', env: 'CONFORMANCE_SEARCH_NS' },
  config: { value: 'FILE', description: 'a run config file: its target.bookNs and target.searchNs', default: 'none' },
  help: HELP_FLAG,
};

export const MERGE_HELP: FlagHelp<typeof MERGE_OPTIONS> = {
  'report-dir': { value: 'OUT', description: 'where the merged reports go', default: 'reports' },
  expectations: { value: 'FILE', description: 'apply the known deviations again to the merged rows', default: 'none' },
  quiet: { description: 'no finding details', default: 'off' },
  help: HELP_FLAG,
};

export const DRIFT_HELP: FlagHelp<typeof DRIFT_OPTIONS> = {
  config: RUN_HELP.config,
  'book-url': RUN_HELP['book-url'],
  'search-url': RUN_HELP['search-url'],
  'transfers-url': RUN_HELP['transfers-url'],
  'book-path': RUN_HELP['book-path'],
  'book-http-path': RUN_HELP['book-http-path'],
  'search-path': RUN_HELP['search-path'],
  'search-http-path': RUN_HELP['search-http-path'],
  'transfers-path': RUN_HELP['transfers-path'],
  'transfers-http-path': RUN_HELP['transfers-http-path'],
  'book-ns': RUN_HELP['book-ns'],
  'search-ns': RUN_HELP['search-ns'],
  operations: { value: 'LIST', description: 'compare the services of these operations only', default: 'all 14' },
  'max-body-bytes': RUN_HELP['max-body-bytes'],
  ...NETWORK_HELP,
  'wsdl-url': { value: '[SERVICE=]URL', description: 'fetch a service\'s WSDL here, not at <service URL>?WSDL (repeatable; SERVICE: Booking, NonStaticXMLAPI)', default: '<service URL>?WSDL' },
  wsdl: { value: 'FILE', description: 'compare this saved WSDL instead of fetching one', default: 'none' },
  against: { value: 'FILE', description: 'with --wsdl: compare with this WSDL instead of the contract\'s', default: 'the contract\'s WSDL' },
  'report-dir': { value: 'DIR', description: 'write drift.json and drift.md here', default: 'none written' },
  github: { description: 'GitHub Actions: ::error per breaking difference, ::warning per compatible one, drift.md appended to $GITHUB_STEP_SUMMARY', default: 'on when GITHUB_ACTIONS=true', env: 'GITHUB_ACTIONS' },
  quiet: { description: 'only the services\' counts and the verdict', default: 'off' },
  help: HELP_FLAG,
};
