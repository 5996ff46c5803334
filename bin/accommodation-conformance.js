#!/usr/bin/env node
// `npx accommodation-conformance`: the package's command, compiled JavaScript from dist/ (no tsx).
import { existsSync } from 'node:fs';
import { lowerBackgroundThreads } from './background-threads.js';

// First, before the command starts a thread of its own: see ./background-threads.js.
lowerBackgroundThreads();

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(compiled)) {
  console.error(
    'accommodation-conformance: dist/ is missing: run `npm run build` first (in a clone, `npx '
      + 'conformance` runs the sources)',
  );
  process.exitCode = 3;
} else {
  const { cliEntry } = await import(compiled.href);
  await cliEntry();
}
