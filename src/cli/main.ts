/**
 * `conformance <command>`: run | diff | compare | record | validate | merge | drift | mock | help. Exit codes: 0
 * conforming, 1 the target broke the contract, 2 bad usage or configuration (with a message naming what was wrong), 3
 * an internal error or the environment, 4 the target answered not a single request (run), 5 the target answered but no
 * valid call reached the data path: not tested (run, merge), 130/143 interrupted by SIGINT/SIGTERM (run: partial
 * reports written).
 */
import { HarnessError, UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import { TOOL_VERSION } from '../core/version.js';
import { runCommand, type CommandIO } from './run.js';

const USAGE = `usage: conformance <command> [options]

commands:
  run        test a target on every operation and binding (the embedded mock when no URL is given)
  diff       compare two conformance.json: new failures, fixed, still failing, coverage lost (exit 1 on either)
  compare    send the same cases to two targets (--config A --config B) and report where results differ
  record     capture a target's responses to the request cases into a directory, credentials redacted
  validate   check one captured XML document against the schemas and the type model
  merge      join the reports of several runs (the shards of run --shard i/n) into one set of reports
  drift      compare the target's WSDLs with the contract's: breaking and compatible differences (exit 1 on a breaking one)
  mock       start the reference mock (same flags as npm run mock; --replay DIR serves a recording)
  help       this text; help <command> shows a command's options

conformance <command> --help shows a command's options; conformance --version the version.`;

export const COMMANDS = ['run', 'diff', 'compare', 'record', 'validate', 'merge', 'drift', 'mock', 'help'] as const;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'run':
        return await runCommand(rest, io);
      case 'diff':
        return await (await import('./diff.js')).diffCommand(rest, io);
      case 'compare':
        return await (await import('./compare.js')).compareCommand(rest, io);
      case 'record':
        return await (await import('./record.js')).recordCommand(rest, io);
      case 'validate':
        return await (await import('./validate.js')).validateCommand(rest, io);
      case 'merge':
        return await (await import('./merge.js')).mergeCommand(rest, io);
      case 'drift':
        return await (await import('./drift.js')).driftCommand(rest, io);
      case 'mock': {
        const { mockMain } = await import('../mock/main.js');
        return await mockMain(rest);
      }
      case '--version':
      case '-V':
        io.out(TOOL_VERSION);
        return 0;
      case 'help':
        // `conformance help run` is `conformance run --help`.
        if (rest[0] !== undefined) {
          if (!(COMMANDS as readonly string[]).includes(rest[0]) || rest[0] === 'help') {
            throw new UsageError(
              `help: unknown command "${rest[0]}"${didYouMean(rest[0], COMMANDS)} (commands: ${COMMANDS.join(', ')})`,
            );
          }
          return await main([rest[0], '--help'], io);
        }
        io.out(USAGE);
        return 0;
      case '--help':
      case '-h':
      case undefined:
        io.out(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${cmd}"${didYouMean(cmd, COMMANDS)} (commands: ${COMMANDS.join(', ')})`);
    }
  } catch (e) {
    if (e instanceof HarnessError) {
      io.err(`conformance: ${e.message}`);
      return e.exitCode;
    }
    io.err(`conformance: internal error: ${(e as Error).stack ?? String(e)}`);
    return 3;
  }
}

/** Run the command line of this process and set its exit code. */
export async function cliEntry(): Promise<void> {
  const io: CommandIO = {
    out: (s) => console.log(s),
    err: (s) => console.error(s),
    env: process.env,
    isTTY: !!process.stderr.isTTY,
    signals: true,
    // --deadline is the command's wall time, as its user measures it: loading the harness included.
    startedAt: performance.timeOrigin,
  };
  process.exitCode = await main(process.argv.slice(2), io);
}
