/**
 * Bench section 12 (issue 43, "keep the target busy"): the default full run with pools and
 * mutations, against the reference mock in a process of its own answering at once, as a remote
 * target (4 connections, the rate bound lifted: --concurrency 4 --max-rps 100000), in this process
 * through the one entry point `conformance run` calls (engine/execute.ts executeRun). A fresh mock
 * per run: each booking is used once. Prints, per run, the engine time (the report's durationMs),
 * the sum of the durations of every exchange the run made (each from when it went to when its
 * answer was read whole, the transport's own clock: engine/run.ts and the sequences' runner alike),
 * and how many exchanges. The engine time against (that sum ÷ the connections) is how much of the
 * run waited on itself, not on the target.
 *
 *   busy.ts RUNS
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mockBookings } from '../../src/engine/bookings.js';
import {
  DEFAULT_OTHER_PASSWORD,
  DEFAULT_OTHER_USER,
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  resolveRunSettingsFlags,
} from '../../src/engine/settings.js';
import { executeRun } from '../../src/engine/execute.js';
import { Transport } from '../../src/transport/client.js';
import { rowKind } from '../../src/core/rows.js';
import { startMockProcess } from './common.js';

export const BUSY_CONNECTIONS = 4;

// Every exchange's duration, as the transport timed it: the sum the engine time is held to. Wrapped
// here, in the bench's own process, so the engine carries no counter for it.
let exchangeMs = 0;
let exchanges = 0;
const send = Transport.prototype.send;
Transport.prototype.send = async function (this: Transport, ...args: Parameters<Transport['send']>) {
  const ex = await send.apply(this, args);
  const t = this.timing(ex);
  if (t) exchangeMs += t.doneAt - t.sentAt;
  else if (ex.response) exchangeMs += ex.response.elapsedMs;
  exchanges++;
  return ex;
};

const runs = Number(process.argv[2] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'conformance-busy-'));
const pools = join(dir, 'bookings.json');
writeFileSync(pools, JSON.stringify(mockBookings()));
const out: { engineMs: number; exchangeMs: number; exchanges: number; rows: number; failed: number }[] = [];
try {
  for (let i = 0; i < runs; i++) {
    const mock = await startMockProcess();
    try {
      exchangeMs = 0;
      exchanges = 0;
      const s = resolveRunSettingsFlags(
        {
          'book-url': mock.url,
          'search-url': mock.url,
          user: DEFAULT_USER,
          'allow-mutations': true,
          bookings: pools,
          'other-user': DEFAULT_OTHER_USER,
          concurrency: String(BUSY_CONNECTIONS),
          'max-rps': '100000',
          quiet: true,
        },
        { CONFORMANCE_PASSWORD: DEFAULT_PASSWORD, CONFORMANCE_OTHER_PASSWORD: DEFAULT_OTHER_PASSWORD },
      );
      const { report } = await executeRun(s, { err: () => undefined }, false);
      out.push({
        engineMs: report.durationMs,
        exchangeMs,
        exchanges,
        rows: report.results.filter((r) => rowKind(r) === 'exchange').length,
        failed: report.summary.failed,
      });
    } finally {
      await mock.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ connections: BUSY_CONNECTIONS, runs: out })}\n`);
