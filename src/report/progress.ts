/** A progress line on stderr: rewritten in place on a terminal, a line per 10% elsewhere (CI logs). */
export function progressLine(write: (s: string) => void, tty: boolean): (done: number, total: number, unit: string) => void {
  let lastDecile = -1;
  return (done, total, unit) => {
    const pct = Math.floor((done / total) * 100);
    if (tty) {
      process.stderr.write(`\r\x1b[K[${done}/${total}] ${pct}% ${unit}${done === total ? '\n' : ''}`);
      return;
    }
    const decile = Math.floor(pct / 10);
    if (decile !== lastDecile || done === total) {
      lastDecile = decile;
      write(`progress: ${done}/${total} cases (${pct}%)`);
    }
  };
}
