/**
 * The settings of `conformance run` and of every command that reaches a target, declared once each
 * (src/core/setting.ts): flag, variable, config key, check, help line, default, re-run and secrecy.
 * A declaration table is data: the parser's options (RUN_OPTIONS, NETWORK_OPTIONS), the variables
 * (RUN_ENV, NETWORK_ENV) and the help (src/cli/help.ts) are derived from it, and the config schema,
 * the usage text, docs/cli.md, the library's settings type and the re-run basis are held to it by
 * ./run-settings-table.test.ts. Adding a run setting: one entry here, plus its use in the resolution
 * (./settings.ts resolveSettings); docs/architecture.md, "Adding a setting".
 */
import {
  envOf,
  optionsOf,
  type ConfigKeyDeclaration,
  type SettingCheck,
  type SettingDeclaration,
} from '../core/setting.js';
import { DEFAULT_EXAMPLES, DEFAULT_SEED } from './generate.js';

const SERVICE_PATH: SettingCheck = { kind: 'checked', by: 'servicePath', schemaType: 'string' };
const NAMESPACE: SettingCheck = { kind: 'checked', by: 'namespace', schemaType: 'string' };
/** A config key naming an environment variable (for a secret the file must not hold). */
const VARIABLE_NAME: SettingCheck = { kind: 'checked', by: "a variable's name", schemaType: 'string' };

/**
 * The network settings: one group for every command that reaches a target (`run`, `record`, `drift`,
 * `compare`; suites/cli/network-commands.test.ts holds that each takes all of them, with the same help),
 * so that a company's proxy, CA, client certificate, headers and time-out are given to each the same
 * way, and resolved the same way (./network-settings.ts networkOf). The variable of --header holds one
 * "Name: value" per line, as --header takes them.
 */
export const NETWORK_SETTINGS = {
  proxy: {
    type: 'string',
    env: 'CONFORMANCE_PROXY',
    key: 'target.proxy',
    check: { kind: 'checked', by: 'proxyUrl (network-settings.ts)', schemaType: 'string' },
    value: 'URL',
    help:
      'HTTP proxy for every target URL (http:// forwarded, https:// tunnelled with CONNECT); overrides '
      + 'HTTPS_PROXY/HTTP_PROXY; NO_PROXY still applies; credentials in it are redacted; a URL naming a user '
      + 'and no password takes it from CONFORMANCE_PROXY_PASSWORD (or the variable target.proxyPasswordEnv '
      + 'names)',
    default: 'https_proxy/HTTPS_PROXY, http_proxy/HTTP_PROXY',
    rerun: 'report',
    example: 'http://proxy.example.com:3128',
  },
  'ca-file': {
    type: 'string',
    env: 'CONFORMANCE_CA_FILE',
    key: 'target.caFile',
    check: { kind: 'checked', by: 'tlsOf (network-settings.ts)', schemaType: 'string' },
    value: 'PEM',
    help: "trust the CA(s) in this PEM file, besides the system's",
    default: 'system CAs',
    rerun: 'report',
  },
  'client-cert': {
    type: 'string',
    env: 'CONFORMANCE_CLIENT_CERT',
    key: 'target.clientCert',
    check: { kind: 'checked', by: 'tlsOf (network-settings.ts)', schemaType: 'string' },
    value: 'PEM',
    help: 'client certificate (PEM) for targets that demand one; with --client-key',
    default: 'none',
    rerun: 'report',
  },
  'client-key': {
    type: 'string',
    env: 'CONFORMANCE_CLIENT_KEY',
    key: 'target.clientKey',
    check: { kind: 'checked', by: 'tlsOf (network-settings.ts)', schemaType: 'string' },
    value: 'PEM',
    help: "the client certificate's private key (PEM, not encrypted)",
    default: 'none',
    rerun: 'report',
  },
  'client-pfx': {
    type: 'string',
    env: 'CONFORMANCE_CLIENT_PFX',
    helpEnv: 'CONFORMANCE_CLIENT_PFX_PASSPHRASE',
    key: 'target.clientPfx',
    check: { kind: 'checked', by: 'tlsOf (network-settings.ts)', schemaType: 'string' },
    value: 'FILE',
    help: 'client certificate and key as PKCS#12; its passphrase from the variable (never a flag)',
    default: 'none',
    rerun: 'report',
  },
  header: {
    type: 'string',
    multiple: true,
    env: 'CONFORMANCE_HEADERS',
    key: 'target.headers',
    check: { kind: 'checked', by: 'headersOf (network-settings.ts)', schemaType: 'object' },
    value: '"N: V"',
    help:
      'add a header to every request (repeatable); "N: env:VAR" takes the value from the variable VAR, a '
      + 'secret: redacted, named in curl commands; Content-Type and SOAPAction are refused',
    default: 'none',
    rerun: 'report',
    example: 'X-Api-Key: k',
  },
  'insecure-tls': {
    type: 'boolean',
    env: 'CONFORMANCE_INSECURE_TLS',
    key: 'insecureTls',
    check: { kind: 'switch' },
    help: 'accept self-signed certificates (explicit opt-in)',
    default: 'off',
    rerun: 'basis',
  },
  timeout: {
    type: 'string',
    env: 'CONFORMANCE_TIMEOUT',
    key: 'timeoutMs',
    check: { kind: 'int', min: 1, max: 3_600_000 },
    value: 'MS',
    help: 'one exchange (a request, a WSDL fetch), first byte to last',
    default: '10000',
    rerun: 'basis',
    example: '2000',
  },
} as const satisfies Record<string, SettingDeclaration>;

/**
 * Every setting of `run`. A setting of the target or of how it is judged has a variable (flags >
 * environment > config file), so that what has no flag (the vitest suites, a CI job's environment)
 * can set all of them; a boolean's variable takes true or false (`--no-negative` is
 * CONFORMANCE_NEGATIVE=false). The command's own switches (--quiet, --list, --case, --shard,
 * --update-expectations, --help) have none: they are about one invocation, not about the target or
 * how it is judged. No --other-password: the second account's password comes from a variable only
 * (./accounts.ts otherAccountOf).
 */
export const RUN_SETTINGS = {
  config: {
    type: 'string',
    env: 'CONFORMANCE_CONFIG',
    check: { kind: 'string' },
    value: 'FILE',
    help: 'JSON config file (schemas/config.schema.json)',
    default: 'none',
    rerun: 'basis',
    example: 'examples/run-embedded.json',
  },
  'book-url': {
    type: 'string',
    env: 'CONFORMANCE_BOOK_URL',
    key: 'target.bookUrl',
    check: { kind: 'checked', by: 'url', schemaType: 'string' },
    value: 'URL',
    help: 'base URL of the booking operations; no URL at all: the embedded mock',
    default: 'embedded mock',
    rerun: 'report',
  },
  'search-url': {
    type: 'string',
    env: 'CONFORMANCE_SEARCH_URL',
    key: 'target.searchUrl',
    check: { kind: 'checked', by: 'url', schemaType: 'string' },
    value: 'URL',
    help: 'base URL of the reference-data operations',
    default: 'embedded mock',
    rerun: 'report',
  },
  'transfers-url': {
    type: 'string',
    env: 'CONFORMANCE_TRANSFERS_URL',
    key: 'target.transfersUrl',
    check: { kind: 'checked', by: 'url', schemaType: 'string' },
    value: 'URL',
    help: 'base URL of SearchTransfers',
    default: 'the search URL',
    rerun: 'report',
  },
  'book-path': {
    type: 'string',
    env: 'CONFORMANCE_BOOK_PATH',
    key: 'target.bookPath',
    check: SERVICE_PATH,
    value: 'P',
    help: 'service path of the booking SOAP bindings',
    default: '/1/SOAP/Booking.asmx',
    rerun: 'report',
    example: '/x/Booking.asmx',
  },
  'book-http-path': {
    type: 'string',
    env: 'CONFORMANCE_BOOK_HTTP_PATH',
    key: 'target.bookHttpPath',
    check: SERVICE_PATH,
    value: 'P',
    help: 'service path of the booking HTTP GET/POST bindings',
    default: 'the book path',
    rerun: 'report',
    example: '/x/Booking.asmx',
  },
  'search-path': {
    type: 'string',
    env: 'CONFORMANCE_SEARCH_PATH',
    key: 'target.searchPath',
    check: SERVICE_PATH,
    value: 'P',
    help: 'service path of the reference-data SOAP bindings',
    default: '/1/SOAP/NonStaticXMLAPI.asmx',
    rerun: 'report',
    example: '/x/Search.asmx',
  },
  'search-http-path': {
    type: 'string',
    env: 'CONFORMANCE_SEARCH_HTTP_PATH',
    key: 'target.searchHttpPath',
    check: SERVICE_PATH,
    value: 'P',
    help: 'service path of the reference-data HTTP GET/POST bindings',
    default: 'the search path',
    rerun: 'report',
    example: '/x/Search.asmx',
  },
  'transfers-path': {
    type: 'string',
    env: 'CONFORMANCE_TRANSFERS_PATH',
    key: 'target.transfersPath',
    check: SERVICE_PATH,
    value: 'P',
    help: "service path of SearchTransfers' SOAP bindings",
    default: 'the search path',
    rerun: 'report',
    example: '/x/Transfers.asmx',
  },
  'transfers-http-path': {
    type: 'string',
    env: 'CONFORMANCE_TRANSFERS_HTTP_PATH',
    key: 'target.transfersHttpPath',
    check: SERVICE_PATH,
    value: 'P',
    help: "service path of SearchTransfers' HTTP GET/POST bindings",
    default: 'the transfers path',
    rerun: 'report',
    example: '/x/Transfers.asmx',
  },
  'book-ns': {
    type: 'string',
    env: 'CONFORMANCE_BOOK_NS',
    key: 'target.bookNs',
    check: NAMESPACE,
    value: 'URI',
    help: "the target's booking namespace ({book_ns})",
    default: "the mock's",
    rerun: 'report',
    example: 'urn:example:book',
  },
  'search-ns': {
    type: 'string',
    env: 'CONFORMANCE_SEARCH_NS',
    key: 'target.searchNs',
    check: NAMESPACE,
    value: 'URI',
    help: "the target's search namespace ({search_ns})",
    default: "the mock's",
    rerun: 'report',
    example: 'urn:example:search',
  },
  user: {
    type: 'string',
    env: 'CONFORMANCE_USER',
    key: 'target.user',
    check: { kind: 'string' },
    value: 'NAME',
    help: 'user name',
    default: "the mock's",
    rerun: 'report',
    example: 'someone',
  },
  password: {
    type: 'string',
    env: 'CONFORMANCE_PASSWORD',
    key: 'target.password',
    check: { kind: 'checked', by: 'passwordOf (accounts.ts)', schemaType: 'string' },
    value: 'SECRET',
    help: 'password (prefer the variable: flags show in process lists)',
    default: "the mock's",
    rerun: 'report',
    example: 'not-the-mock-password',
    secret: true,
    libraryOnly: true,
  },
  bindings: {
    type: 'string',
    env: 'CONFORMANCE_BINDINGS',
    key: 'bindings',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'bindings to test, of soap11,soap12,get,post',
    default: 'all four',
    rerun: 'own',
    example: 'soap11',
  },
  operations: {
    type: 'string',
    env: 'CONFORMANCE_OPERATIONS',
    key: 'operations',
    check: { kind: 'list' },
    value: 'LIST',
    help:
      'operations to test (case-sensitive); a state-changing one needs --allow-mutations on a target '
      + 'other than the embedded mock (refused otherwise, exit 2)',
    default: 'all 14',
    rerun: 'own',
    example: 'GetMeals',
  },
  'allow-mutations': {
    type: 'boolean',
    env: 'CONFORMANCE_ALLOW_MUTATIONS',
    key: 'allowMutations',
    check: { kind: 'switch' },
    help: 'allow state-changing operations on a real target',
    default: 'off',
    rerun: 'basis',
  },
  concurrency: {
    type: 'string',
    env: 'CONFORMANCE_CONCURRENCY',
    key: 'concurrency',
    check: { kind: 'int', min: 1, max: 256 },
    value: 'N',
    help: 'requests in flight',
    default: '16 mock, 4 remote',
    rerun: 'no',
    example: '3',
  },
  deadline: {
    type: 'string',
    env: 'CONFORMANCE_DEADLINE',
    key: 'deadlineMs',
    check: { kind: 'int', min: 1, max: 86_400_000 },
    value: 'MS',
    help: "the whole run, from the command's start",
    default: 'none',
    rerun: 'no',
    example: '600000',
  },
  'max-rps': {
    type: 'string',
    env: 'CONFORMANCE_MAX_RPS',
    key: 'maxRps',
    check: { kind: 'int', min: 1, max: 100_000 },
    value: 'N',
    help: 'request rate bound',
    default: 'none mock, 20 remote',
    rerun: 'basis',
    example: '7',
  },
  'max-body-bytes': {
    type: 'string',
    env: 'CONFORMANCE_MAX_BODY_BYTES',
    key: 'maxBodyBytes',
    check: { kind: 'int', min: 1024, max: 2 ** 31 },
    value: 'N',
    help: 'response size cap, enforced while reading',
    default: '33554432',
    rerun: 'basis',
    example: '4096',
  },
  'max-failures': {
    type: 'string',
    env: 'CONFORMANCE_MAX_FAILURES',
    key: 'maxFailures',
    check: { kind: 'int', min: 1, max: 1_000_000 },
    value: 'N',
    help: 'stop sending after N failed rows; the reports say the run is incomplete',
    default: 'none',
    rerun: 'no',
    example: '3',
  },
  'max-failed-logins': {
    type: 'string',
    env: 'CONFORMANCE_MAX_FAILED_LOGINS',
    key: 'maxFailedLogins',
    check: { kind: 'int', min: 0, max: 1_000_000 },
    value: 'N',
    help:
      'send at most N login variants (a service may lock an account after failed logins), spread so each '
      + 'variant and each binding is still tried; --dry-run says how many failed logins a run sends',
    default: 'all',
    rerun: 'basis',
    example: '5',
  },
  'give-up-after': {
    type: 'string',
    env: 'CONFORMANCE_GIVE_UP_AFTER',
    key: 'giveUpAfter',
    check: { kind: 'int', min: 0, max: 1_000_000 },
    value: 'N',
    help:
      'stop sending to a service after N time-outs or connection failures in a row; a target whose first '
      + 'N answers are transient is down: the run stops (0: never)',
    default: '5',
    rerun: 'no',
    example: '2',
  },
  'report-dir': {
    type: 'string',
    env: 'CONFORMANCE_REPORT_DIR',
    key: 'reportDir',
    check: { kind: 'checked', by: 'reportDir', schemaType: 'string' },
    value: 'DIR',
    help: 'where reports go',
    default: 'reports',
    rerun: 'basis',
    example: 'reports/elsewhere',
  },
  checks: {
    type: 'string',
    env: 'CONFORMANCE_CHECKS',
    key: 'checks',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'checks to run, by name',
    default: 'all',
    rerun: 'basis',
    example: 'xsd_valid',
  },
  'skip-checks': {
    type: 'string',
    env: 'CONFORMANCE_SKIP_CHECKS',
    key: 'skipChecks',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'checks to leave out, by name, or a group of them (hostile_requests)',
    default: 'none',
    rerun: 'basis',
    example: 'xsd_valid',
  },
  families: {
    type: 'string',
    env: 'CONFORMANCE_FAMILIES',
    key: 'families',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'families of sequences to plan, by name (docs/architecture.md)',
    default: 'all',
    rerun: 'basis',
    example: 'cancel',
  },
  'skip-families': {
    type: 'string',
    env: 'CONFORMANCE_SKIP_FAMILIES',
    key: 'skipFamilies',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'families of sequences to leave out, by name',
    default: 'none',
    rerun: 'basis',
    example: 'cancel',
  },
  'no-negative': {
    type: 'boolean',
    env: 'CONFORMANCE_NEGATIVE',
    key: 'negative',
    check: { kind: 'switch' },
    help: 'leave out the wrong-credentials and bad-request cases',
    default: 'they run',
    rerun: 'basis',
  },
  'no-equivalence': {
    type: 'boolean',
    env: 'CONFORMANCE_EQUIVALENCE',
    key: 'equivalence',
    check: { kind: 'switch' },
    help: 'leave out the binding comparison',
    default: 'it runs',
    rerun: 'basis',
  },
  quiet: {
    type: 'boolean',
    check: { kind: 'switch' },
    help: 'no progress, no finding details',
    default: 'off',
    rerun: 'no',
  },
  expectations: {
    type: 'string',
    env: 'CONFORMANCE_EXPECTATIONS',
    key: 'expectations',
    check: { kind: 'string' },
    value: 'FILE',
    help: 'known deviations of the target: matching failures are known, not failed',
    default: 'none',
    rerun: 'basis',
    example: 'examples/expectations.json',
  },
  'update-expectations': {
    type: 'boolean',
    check: { kind: 'switch' },
    help:
      'rewrite FILE from this run\'s failures first (reasons kept; one new entry per defect, "TODO: '
      + 'explain", which accepts nothing until explained)',
    default: 'off',
    rerun: 'no',
  },
  shard: {
    type: 'string',
    check: { kind: 'checked', by: 'parseShard (shard.ts)', schemaType: 'string' },
    value: 'i/n',
    help: 'run the i-th of n parts of the matrix; join them with conformance merge',
    default: 'whole matrix',
    rerun: 'no',
    example: '1/2',
  },
  seed: {
    type: 'string',
    env: 'CONFORMANCE_SEED',
    key: 'seed',
    check: { kind: 'int', min: 0, max: 2 ** 31 - 1 },
    value: 'N',
    help: 'seed of the generated request cases: the same seed sends the same cases under the same ids',
    default: String(DEFAULT_SEED),
    rerun: 'report',
    example: '5',
  },
  examples: {
    type: 'string',
    env: 'CONFORMANCE_EXAMPLES',
    key: 'examples',
    check: { kind: 'int', min: 0, max: 1000 },
    value: 'N',
    help: 'generated request cases per operation (0: none)',
    default: String(DEFAULT_EXAMPLES),
    rerun: 'report',
    example: '2',
  },
  languages: {
    type: 'string',
    env: 'CONFORMANCE_LANGUAGES',
    key: 'languages',
    check: { kind: 'checked', by: 'languagesOf', schemaType: 'mixed' },
    value: 'LIST',
    help:
      "the values of language for generated cases, instead of asking the target's GetLanguages (a re-run "
      + "command carries its run's)",
    default: "the target's GetLanguages",
    rerun: 'report',
    example: 'en,de',
  },
  bookings: {
    type: 'string',
    env: 'CONFORMANCE_BOOKINGS_FILE',
    key: 'bookings',
    check: { kind: 'checked', by: 'bookingsSetting', schemaType: 'mixed' },
    value: 'FILE',
    help:
      'the booking pools state-changing calls consume, each booking once (JSON: cancel, amend, '
      + 'specialRequest, transfers); CONFORMANCE_BOOKINGS holds the JSON itself',
    default: 'generated for the mock, none remote',
    rerun: 'basis',
    example: 'examples/mock-bookings.json',
  },
  case: {
    type: 'string',
    multiple: true,
    check: { kind: 'checked', by: 'caseFilterOf', schemaType: 'array' },
    value: 'ID',
    help: 'run only the cases with this id (repeatable; * and ? match any characters / one)',
    default: 'every case',
    rerun: 'own',
    example: 'default',
  },
  list: {
    type: 'boolean',
    check: { kind: 'switch' },
    help: 'print the plan (operation × binding × case, parameters, checks) and send nothing',
    default: 'off',
    rerun: 'no',
  },
  'dry-run': { type: 'boolean', check: { kind: 'switch' }, help: 'the same as --list', default: 'off', rerun: 'no' },
  'list-format': {
    type: 'string',
    check: { kind: 'checked', by: 'listOf', schemaType: 'string' },
    value: 'text|json',
    help: 'the format of --list',
    default: 'text',
    rerun: 'no',
  },
  github: {
    type: 'boolean',
    env: 'GITHUB_ACTIONS',
    helpEnv: 'GITHUB_ACTIONS',
    check: { kind: 'switch' },
    help:
      'GitHub Actions: an ::error annotation per defect (most severe first, the count in a notice), the '
      + 'Markdown summary appended to $GITHUB_STEP_SUMMARY',
    default: 'on when GITHUB_ACTIONS=true',
    rerun: 'no',
  },
  // --proxy, --ca-file, --client-cert, --client-key, --client-pfx, --header, --insecure-tls and --timeout: every
  // command that reaches a target takes them.
  ...NETWORK_SETTINGS,
  'fail-on-drift': {
    type: 'boolean',
    env: 'CONFORMANCE_FAIL_ON_DRIFT',
    key: 'failOnDrift',
    check: { kind: 'switch' },
    help:
      "a breaking difference of the target's WSDL from the contract's (the preflight's drift) fails the "
      + 'run; a WSDL that could not be compared leaves it UNTESTED (exit 5)',
    default: 'off: drift is reported only',
    rerun: 'no',
  },
  help: { type: 'boolean', short: 'h', check: { kind: 'switch' }, help: 'show this help', rerun: 'no' },
  'skip-operations': {
    type: 'string',
    env: 'CONFORMANCE_SKIP_OPERATIONS',
    key: 'skipOperations',
    check: { kind: 'list' },
    value: 'LIST',
    help: 'operations to leave out (case-sensitive): the run tests the others',
    default: 'none',
    rerun: 'own',
    example: 'GetMeals',
  },
  'max-p95': {
    type: 'string',
    env: 'CONFORMANCE_MAX_P95',
    key: 'latency.maxP95',
    check: { kind: 'checked', by: 'latencyOf', schemaType: 'integer' },
    value: 'MS',
    help:
      'latency gate: an operation × binding whose p95 answer time is above MS fails '
      + "(latency_p95_exceeded); fewer than 5 answers: too few samples; per operation: the config's "
      + 'latency.perOperation',
    default: 'none',
    rerun: 'no',
    example: '800',
  },
  'max-transient': {
    type: 'string',
    env: 'CONFORMANCE_MAX_TRANSIENT',
    key: 'maxTransient',
    check: { kind: 'percent' },
    value: 'PCT',
    help:
      'a target with more than PCT% of its exchanges transient (gateway pages, dropped connections, '
      + 'time-outs) is unhealthy: exit 4, no verdict',
    default: '20',
    rerun: 'no',
    example: '30',
  },
  'min-coverage': {
    type: 'string',
    env: 'CONFORMANCE_MIN_COVERAGE',
    key: 'minCoverage',
    check: { kind: 'checked', by: 'minCoverageOf', schemaType: 'number' },
    value: 'PCT',
    help:
      'a run whose coverage figure (answer paths held and kinds of parameter value sent, '
      + 'docs/coverage.md) is below PCT percent is INCOMPLETE (exit 6)',
    default: 'none',
    rerun: 'no',
    example: '50',
  },
  'other-user': {
    type: 'string',
    env: 'CONFORMANCE_OTHER_USER',
    key: 'target.otherUser',
    check: { kind: 'string' },
    value: 'NAME',
    help:
      'a second account of the same service, its password in CONFORMANCE_OTHER_PASSWORD (no flag: flags '
      + "show in process lists): the first account's bookings are called with it and must be refused "
      + '(authorization across accounts; docs/real-service.md)',
    default: "the mock's mock-other; none remote: not tested",
    rerun: 'report',
    example: 'someone-else',
  },
  'callback-url': {
    type: 'string',
    env: 'CONFORMANCE_CALLBACK_URL',
    key: 'callbackUrl',
    check: { kind: 'checked', by: 'callbackOf', schemaType: 'string' },
    value: 'URL',
    help:
      "the URL at which the target reaches this machine's listener for the external-entity probe (a "
      + 'DOCTYPE a SOAP endpoint must refuse; docs/checks.md): needed when the target is not on this machine',
    default: "none: a remote target's fetch is not observable (a note)",
    rerun: 'basis',
    example: 'http://10.0.0.5:8765',
  },
  'callback-listen': {
    type: 'string',
    env: 'CONFORMANCE_CALLBACK_LISTEN',
    key: 'callbackListen',
    check: { kind: 'checked', by: 'callbackOf', schemaType: 'string' },
    value: 'HOST:PORT',
    help: 'where that listener listens',
    default: 'every interface at the --callback-url port; 127.0.0.1 at a free port for a target on this machine',
    rerun: 'basis',
    example: '127.0.0.1:0',
  },
} as const satisfies Record<string, SettingDeclaration>;

/**
 * The config keys (and the library's) that have no flag: a secret's variable, what only a file or a
 * program can give (the request cases, per-operation latency limits), and the passwords only the
 * library may hold (a file gets committed, a flag shows in process lists).
 */
export const CONFIG_KEY_SETTINGS: readonly ConfigKeyDeclaration[] = [
  {
    key: '$schema',
    check: { kind: 'string' },
    help: 'the schema an editor checks the file with (schemas/config.schema.json)',
    rerun: 'no',
  },
  {
    key: 'target.passwordEnv',
    check: VARIABLE_NAME,
    help: 'the variable holding the password (before CONFORMANCE_PASSWORD)',
    rerun: 'report',
  },
  {
    key: 'target.otherPassword',
    check: { kind: 'string' },
    help: "the second account's password itself",
    rerun: 'report',
    secret: true,
    libraryOnly: true,
  },
  {
    key: 'target.otherPasswordEnv',
    check: VARIABLE_NAME,
    help: "the variable holding the second account's password (before CONFORMANCE_OTHER_PASSWORD)",
    rerun: 'report',
  },
  {
    key: 'target.proxyPassword',
    check: { kind: 'string' },
    help: 'the password of the user the proxy URL names',
    rerun: 'report',
    secret: true,
    libraryOnly: true,
  },
  {
    key: 'target.proxyPasswordEnv',
    check: VARIABLE_NAME,
    help: "the variable holding the proxy's password (before CONFORMANCE_PROXY_PASSWORD)",
    rerun: 'report',
  },
  {
    key: 'target.noProxy',
    check: { kind: 'checked', by: 'proxiesOf (network-settings.ts)', schemaType: 'string' },
    help: 'hosts that bypass the proxy (else no_proxy / NO_PROXY)',
    rerun: 'report',
  },
  {
    key: 'target.clientPfxPassphraseEnv',
    check: VARIABLE_NAME,
    help: 'the variable holding the PKCS#12 passphrase (before CONFORMANCE_CLIENT_PFX_PASSPHRASE)',
    rerun: 'report',
  },
  {
    key: 'cases',
    check: { kind: 'checked', by: 'mergeCases (cases.ts)', schemaType: 'object' },
    help: 'request cases per operation',
    rerun: 'basis',
  },
  {
    key: 'casesMode',
    check: { kind: 'checked', by: 'resolveSettings', schemaType: 'mixed' },
    help: 'extend the fixture cases or replace them',
    rerun: 'basis',
  },
  {
    key: 'latency.perOperation',
    check: { kind: 'checked', by: 'latencyOf', schemaType: 'object' },
    help: 'p95 limits per operation, in milliseconds',
    rerun: 'no',
  },
];

/** The network flags among a command's options (the parser's input). */
export const NETWORK_OPTIONS = optionsOf(NETWORK_SETTINGS);
/** The environment variable of each network flag. */
export const NETWORK_ENV = envOf(NETWORK_SETTINGS);
/** The run's settings as flags (parsed by the CLI; named here because a message about a bad value names its flag). */
export const RUN_OPTIONS = optionsOf(RUN_SETTINGS);
/** The environment variable of each run flag that has one. */
export const RUN_ENV = envOf(RUN_SETTINGS);
