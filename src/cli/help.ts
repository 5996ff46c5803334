/**
 * What `conformance <command> --help` says of each flag: meaning, default and environment variable,
 * derived from the commands' declarations (src/engine/run-settings-table.ts for `run` and the
 * network, ./command-settings.ts for the others; src/core/setting.ts helpOf). A flag's help is said
 * once, in its declaration; the tables of docs/cli.md are held to the same declarations
 * (src/engine/run-settings-table.test.ts, src/cli/docs.test.ts). The commands import this file; it
 * imports none of them.
 */
import { helpOf } from '../core/setting.js';
import { NETWORK_SETTINGS, RUN_SETTINGS } from '../engine/run-settings-table.js';
import {
  COMPARE_SETTINGS,
  DIFF_SETTINGS,
  DRIFT_SETTINGS,
  MERGE_SETTINGS,
  RECORD_SETTINGS,
  VALIDATE_SETTINGS,
} from './command-settings.js';

/**
 * The network flags' help: one text for every command that reaches a target (run, record, drift, compare), each naming
 * its variable.
 */
export const NETWORK_HELP = helpOf(NETWORK_SETTINGS);
export const RUN_HELP = helpOf(RUN_SETTINGS);
export const DIFF_HELP = helpOf(DIFF_SETTINGS);
export const COMPARE_HELP = helpOf(COMPARE_SETTINGS);
export const RECORD_HELP = helpOf(RECORD_SETTINGS);
export const VALIDATE_HELP = helpOf(VALIDATE_SETTINGS);
export const MERGE_HELP = helpOf(MERGE_SETTINGS);
export const DRIFT_HELP = helpOf(DRIFT_SETTINGS);
