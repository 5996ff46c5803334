/**
 * `conformance <command>`: run | mock | help. Exit codes: 0 conforming, 1 the target broke the
 * contract, 2 bad usage or configuration (with a message naming what was wrong), 3 an internal error.
 */
import { HarnessError, UsageError } from '../core/errors.js';
import { runCommand, type CommandIO } from './run.js';

const USAGE = `usage: conformance <command> [options]

commands:
  run        test a target on every operation and binding (the embedded mock when no URL is given)
  mock       start the reference mock (same flags as npm run mock)
  help       this text

conformance run --help shows the run options.`;

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'run': return await runCommand(rest, io);
      case 'mock': {
        const { mockMain } = await import('../mock/main.js');
        return await mockMain(rest);
      }
      case 'help': case '--help': case '-h': case undefined:
        io.out(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${cmd}" (commands: run, mock, help)`);
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
  const io: CommandIO = { out: (s) => console.log(s), err: (s) => console.error(s), env: process.env, isTTY: !!process.stderr.isTTY };
  process.exitCode = await main(process.argv.slice(2), io);
}
