/**
 * The settings of the commands other than `run` (whose own are src/engine/run-settings-table.ts), one
 * declaration each (src/core/setting.ts): a data table. The commands take their parser's options from
 * here and their help from ./help.ts, which derives it from here: the help never imports a command
 * (before, help.ts and the six commands imported each other).
 */
import { optionsOf, type SettingDeclaration } from '../core/setting.js';
import { NETWORK_SETTINGS, RUN_SETTINGS } from '../engine/run-settings-table.js';

/** --help, -h: every command's. */
export const HELP_SETTING = {
  type: 'boolean',
  short: 'h',
  check: { kind: 'switch' },
  help: 'show this help',
  rerun: 'no',
} as const satisfies SettingDeclaration;

/** The settings of `conformance diff OLD NEW`. */
export const DIFF_SETTINGS = {
  format: {
    type: 'string',
    check: { kind: 'checked', by: 'diffCommand', schemaType: 'string' },
    value: 'text|markdown|json',
    help: 'output format',
    default: 'text',
    rerun: 'no',
  },
  'allow-lost-coverage': {
    type: 'boolean',
    check: { kind: 'switch' },
    help: 'exit 0 although NEW tested less than OLD (the lost coverage is still listed)',
    default: 'off: lost coverage exits 1',
    rerun: 'no',
  },
  help: HELP_SETTING,
} as const satisfies Record<string, SettingDeclaration>;

/** The settings of `conformance compare`: two run configs, reached through the network both targets share. */
export const COMPARE_SETTINGS = {
  config: {
    type: 'string',
    multiple: true,
    check: { kind: 'string' },
    value: 'FILE',
    help: 'a run config file; given twice, A then B (no target URL: the embedded mock)',
    default: 'none: required twice',
    rerun: 'no',
  },
  'report-dir': {
    type: 'string',
    check: { kind: 'string' },
    value: 'DIR',
    help: 'where compare.json and compare.md go',
    default: 'reports',
    rerun: 'no',
  },
  'ignore-values': {
    type: 'boolean',
    check: { kind: 'switch' },
    help: 'compare only which elements and attributes occur',
    default: 'off',
    rerun: 'no',
  },
  quiet: { type: 'boolean', check: { kind: 'switch' }, help: 'no progress', default: 'off', rerun: 'no' },
  help: HELP_SETTING,
  // The network both targets are reached through, as run's flags give it.
  ...NETWORK_SETTINGS,
} as const satisfies Record<string, SettingDeclaration>;

/** The settings of `conformance merge`. */
export const MERGE_SETTINGS = {
  'report-dir': {
    type: 'string',
    check: { kind: 'string' },
    value: 'OUT',
    help: 'where the merged reports go',
    default: 'reports',
    rerun: 'no',
  },
  expectations: {
    type: 'string',
    check: { kind: 'string' },
    value: 'FILE',
    help: 'apply the known deviations again to the merged rows',
    default: 'none',
    rerun: 'no',
  },
  quiet: { type: 'boolean', check: { kind: 'switch' }, help: 'no finding details', default: 'off', rerun: 'no' },
  help: HELP_SETTING,
} as const satisfies Record<string, SettingDeclaration>;

/** The settings of `conformance validate FILE...`. */
export const VALIDATE_SETTINGS = {
  type: {
    type: 'string',
    check: { kind: 'string' },
    value: 'NAME',
    help: 'walk the root element as this model type',
    default: 'none',
    rerun: 'no',
  },
  operation: {
    type: 'string',
    check: { kind: 'string' },
    value: 'OP',
    help: 'the operation whose result the document is',
    default: 'read from the document',
    rerun: 'no',
  },
  binding: {
    type: 'string',
    check: { kind: 'string' },
    value: 'soap11|soap12|get|post',
    help: 'the binding that carried it',
    default: 'read from the document',
    rerun: 'no',
  },
  'book-ns': { ...RUN_SETTINGS['book-ns'], help: 'the booking namespace' },
  'search-ns': { ...RUN_SETTINGS['search-ns'], help: 'the search namespace' },
  config: {
    type: 'string',
    check: { kind: 'string' },
    value: 'FILE',
    help: 'a run config file: its target.bookNs and target.searchNs',
    default: 'none',
    rerun: 'no',
  },
  help: HELP_SETTING,
} as const satisfies Record<string, SettingDeclaration>;

/** The settings of `conformance drift`: the run's target and network, and where the WSDLs come from. */
export const DRIFT_SETTINGS = {
  config: RUN_SETTINGS.config,
  'book-url': RUN_SETTINGS['book-url'],
  'search-url': RUN_SETTINGS['search-url'],
  'transfers-url': RUN_SETTINGS['transfers-url'],
  'book-path': RUN_SETTINGS['book-path'],
  'book-http-path': RUN_SETTINGS['book-http-path'],
  'search-path': RUN_SETTINGS['search-path'],
  'search-http-path': RUN_SETTINGS['search-http-path'],
  'transfers-path': RUN_SETTINGS['transfers-path'],
  'transfers-http-path': RUN_SETTINGS['transfers-http-path'],
  'book-ns': RUN_SETTINGS['book-ns'],
  'search-ns': RUN_SETTINGS['search-ns'],
  operations: { ...RUN_SETTINGS.operations, help: 'compare the services of these operations only', default: 'all 14' },
  'max-body-bytes': RUN_SETTINGS['max-body-bytes'],
  // The network the run goes through (--proxy, --ca-file, --client-cert, --header, --timeout...): a WSDL is fetched the
  // same way.
  ...NETWORK_SETTINGS,
  'wsdl-url': {
    type: 'string',
    multiple: true,
    check: { kind: 'checked', by: 'driftCommand', schemaType: 'string' },
    value: '[SERVICE=]URL',
    help: "fetch a service's WSDL here, not at <service URL>?WSDL (repeatable; SERVICE: Booking, NonStaticXMLAPI)",
    default: '<service URL>?WSDL',
    rerun: 'no',
  },
  wsdl: {
    type: 'string',
    check: { kind: 'string' },
    value: 'FILE',
    help: 'compare this saved WSDL instead of fetching one',
    default: 'none',
    rerun: 'no',
  },
  against: {
    type: 'string',
    check: { kind: 'string' },
    value: 'FILE',
    help: "with --wsdl: compare with this WSDL instead of the contract's",
    default: "the contract's WSDL",
    rerun: 'no',
  },
  'report-dir': {
    type: 'string',
    check: { kind: 'string' },
    value: 'DIR',
    help: 'write drift.json and drift.md here',
    default: 'none written',
    rerun: 'no',
  },
  github: {
    ...RUN_SETTINGS.github,
    help:
      'GitHub Actions: ::error per breaking difference, ::warning per compatible one, drift.md appended '
      + 'to $GITHUB_STEP_SUMMARY',
  },
  quiet: {
    type: 'boolean',
    check: { kind: 'switch' },
    help: "only the services' counts and the verdict",
    default: 'off',
    rerun: 'no',
  },
  help: HELP_SETTING,
} as const satisfies Record<string, SettingDeclaration>;

/** The settings of `conformance record`: the run's, and where the recording goes. */
export const RECORD_SETTINGS = {
  ...RUN_SETTINGS,
  out: {
    type: 'string',
    check: { kind: 'string' },
    value: 'DIR',
    help: 'where the recording goes',
    default: 'fixtures/recorded',
    rerun: 'no',
  },
} as const satisfies Record<string, SettingDeclaration>;

export const DIFF_OPTIONS = optionsOf(DIFF_SETTINGS);
export const COMPARE_OPTIONS = optionsOf(COMPARE_SETTINGS);
export const MERGE_OPTIONS = optionsOf(MERGE_SETTINGS);
export const VALIDATE_OPTIONS = optionsOf(VALIDATE_SETTINGS);
export const DRIFT_OPTIONS = optionsOf(DRIFT_SETTINGS);
export const RECORD_OPTIONS = optionsOf(RECORD_SETTINGS);
