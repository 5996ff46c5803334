/**
 * The mock's command-line settings (`npm run mock`, src/mock/main.ts), one declaration each
 * (src/core/setting.ts, as every command's): its parser's options and its --help derive from this
 * table. A table of data, apart from the command that reads it.
 */
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { helpOf, optionsOf, type SettingDeclaration } from '../core/setting.js';
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from './accounts.js';

/** The environment variable the mock reads its password from when --password is not given. */
export const MOCK_PASSWORD_VARIABLE = 'CONFORMANCE_MOCK_PASSWORD';
/** The environment variable the mock reads its second account's password from when --other-password is not given. */
export const MOCK_OTHER_PASSWORD_VARIABLE = 'CONFORMANCE_MOCK_OTHER_PASSWORD';

/**
 * The mock's settings, one declaration each (src/core/setting.ts, as every command's): its parser's
 * options and its --help derive from this table. None is carried by a re-run (the mock is not re-run).
 */
export const MOCK_SETTINGS = {
  port: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: 'port to listen on (0: a free one)',
    default: '8080',
  },
  user: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'U',
    help: 'the accepted user name',
    default: DEFAULT_USER,
  },
  password: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'S',
    help: 'the accepted password (never printed; prefer the variable: a command line shows in logs and process lists)',
    default: DEFAULT_PASSWORD,
    env: MOCK_PASSWORD_VARIABLE,
  },
  'book-ns': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'URI',
    help: 'the booking namespace',
    default: DEFAULT_NAMESPACES.book,
  },
  'search-ns': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'URI',
    help: 'the search namespace',
    default: DEFAULT_NAMESPACES.search,
  },
  fault: {
    type: 'string',
    multiple: true,
    check: { kind: 'string' },
    rerun: 'no',
    value: 'NAME[,NAME]',
    help: 'commit these faults (repeatable; --list-faults names them)',
    default: 'none',
  },
  vary: {
    type: 'boolean',
    check: { kind: 'switch' },
    rerun: 'no',
    help: 'variation mode: every binding answers in other legitimate forms',
    default: 'off',
  },
  'real-service': {
    type: 'boolean',
    check: { kind: 'switch' },
    rerun: 'no',
    help: 'answer as the real service does',
    default: 'off',
  },
  stateless: {
    type: 'boolean',
    check: { kind: 'switch' },
    rerun: 'no',
    help: 'keep no state: writes are not stored, a booking cancels any number of times',
    default: 'off (state per mock)',
  },
  bookings: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'FILE',
    help:
      'only these bookings exist (the pools file of conformance run --bookings, and the example '
      + 'bookings of fixtures/cases): any other id is answered "not found", as the real service does',
    default: 'any id is a booking',
  },
  'every-id': {
    type: 'boolean',
    check: { kind: 'switch' },
    rerun: 'no',
    help:
      'every id names a booking, made on first touch, blank included, as an independent service may '
      + 'behave; a transfer booking belongs to the email of its first touch',
    default: 'any non-blank id is a booking',
  },
  'list-faults': {
    type: 'boolean',
    check: { kind: 'switch' },
    rerun: 'no',
    help: 'print the fault catalogue and exit',
  },
  'book-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: 'service path of the booking SOAP bindings',
    default: '/1/SOAP/Booking.asmx',
  },
  'book-http-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: 'service path of the booking HTTP GET/POST bindings',
    default: 'the book path',
  },
  'search-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: 'service path of the reference-data SOAP bindings',
    default: '/1/SOAP/NonStaticXMLAPI.asmx',
  },
  'search-http-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: 'service path of the reference-data HTTP GET/POST bindings',
    default: 'the search path',
  },
  'transfers-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: "service path of SearchTransfers' SOAP bindings",
    default: 'the search path',
  },
  'transfers-http-path': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'P',
    help: "service path of SearchTransfers' HTTP GET/POST bindings",
    default: 'the transfers path',
  },
  replay: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'DIR',
    help: 'serve a recording (conformance record --out DIR) first',
    default: 'none',
  },
  help: { type: 'boolean', short: 'h', check: { kind: 'switch' }, rerun: 'no', help: 'show this help' },
  transient: {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'RATE',
    help:
      'transient-fault mode: this share (0 to 1) of requests meets, before any processing, a 503 or 502 '
      + 'gateway page, a dropped connection or a pause',
    default: '0 (off)',
  },
  'transient-seed': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'N',
    help: "seed of the transient faults' draw",
    default: '1',
  },
  'transient-pause': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'MIN-MAX',
    help: 'length of a transient pause, in milliseconds',
    default: '1000-3000',
  },
  'drop-writes': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'RATE',
    help: 'this share (0 to 1) of state-changing calls is processed, then its connection dropped without an answer',
    default: '0 (off)',
  },
  'other-user': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'U',
    help:
      "a second account (another agency's): it reads the reference data, owns no booking, and every "
      + 'booking it names is answered "not found"',
    default: DEFAULT_OTHER_USER,
  },
  'other-password': {
    type: 'string',
    check: { kind: 'string' },
    rerun: 'no',
    value: 'S',
    help: "the second account's password (never printed; prefer the variable)",
    default: DEFAULT_OTHER_PASSWORD,
    env: MOCK_OTHER_PASSWORD_VARIABLE,
  },
} as const satisfies Record<string, SettingDeclaration>;

/** The mock's flags (src/core/flags.ts parses them, as every command's). */
export const MOCK_OPTIONS = optionsOf(MOCK_SETTINGS);

/** What --help says of each flag. */
export const MOCK_HELP = helpOf(MOCK_SETTINGS);
