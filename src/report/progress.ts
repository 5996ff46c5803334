/**
 * Progress a person can follow. On a terminal: one live line, rewritten in place, with the unit just
 * done, done/total, the failures so far and an estimate of the time left. Elsewhere (CI logs): a
 * line per 10% with the failures so far.
 */
export function progressLine(
  write: (s: string) => void,
  tty: boolean,
  live: (s: string) => void = (s) => {
    process.stderr.write(s);
  },
  now: () => number = Date.now,
): (done: number, total: number, unit: string, failed?: number) => void {
  let lastDecile = -1;
  const started = now();
  return (done, total, unit, failed = 0) => {
    const pct = Math.floor((done / total) * 100);
    const failures = `${failed} failed`;
    if (tty) {
      const elapsed = now() - started;
      const left = done > 0 && done < total ? Math.round(((elapsed / done) * (total - done)) / 1000) : 0;
      const eta =
        done < total
          ? ` · ETA ${left >= 60 ? `${Math.floor(left / 60)}m${String(left % 60).padStart(2, '0')}s` : `${left}s`}`
          : '';
      live(`\r\x1b[K[${done}/${total}] ${pct}% ${unit} · ${failures}${eta}${done === total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(pct / 10);
    if (decile !== lastDecile || done === total) {
      lastDecile = decile;
      write(`progress: ${done}/${total} cases (${pct}%), ${failures} so far`);
    }
  };
}
