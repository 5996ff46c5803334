// Preloaded into `conformance run` by the bench (node --import): at exit, writes the process's CPU
// time and peak RSS to $BENCH_USAGE_FILE, so the full-run figure can be read next to its wall time.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
        maxRssKB: u.maxRSS,
        uptimeMs: process.uptime() * 1000,
      }),
    );
  });
}
