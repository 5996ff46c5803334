/**
 * The reference mock in a process of its own for the benchmark: prints {"url": ...} on stdout once
 * it listens; answers each "usage" line on stdin with {"cpuMs": ...} (its CPU time so far); closes
 * and exits when its stdin ends (the parent closed it or died).
 */
import { createInterface } from 'node:readline';
import { startMock } from '../../src/mock/index.js';

const mock = await startMock({ port: 0 });
process.stdout.write(`${JSON.stringify({ url: mock.url, pid: process.pid })}\n`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'usage') return;
  const u = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (u.user + u.system) / 1000 })}\n`);
});
lines.on('close', () => {
  void mock.close().then(() => process.exit(0));
});
