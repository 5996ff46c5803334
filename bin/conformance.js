#!/usr/bin/env node
// `npx conformance` in a clone: the in-repo alias of `accommodation-conformance`. It runs the
// TypeScript sources through tsx (a devDependency), so a clone needs no build step and always runs
// what is checked out. Where there are no sources (an installed package) it runs the compiled dist/.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  const { cliEntry } = await import(source.href);
  await cliEntry();
} else {
  const { cliEntry } = await import('../dist/cli/main.js');
  await cliEntry();
}
