#!/usr/bin/env node
// `npx conformance` in a clone: the in-repo alias of `accommodation-conformance`. It runs what is
// checked out, with no build step: the sources compiled once per version of them into
// .source-cache/ (bin/source-cache.js: keyed by a hash of every source file, checked at every
// start, so never stale), or through tsx (a devDependency) when that cannot be had. Where there
// are no sources (an installed package) it runs the compiled dist/.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  const { compiledMain } = await import('./source-cache.js');
  const compiled = await compiledMain();
  if (compiled) {
    const { cliEntry } = await import(compiled);
    await cliEntry();
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    const { cliEntry } = await import(source.href);
    await cliEntry();
  }
} else {
  const { cliEntry } = await import('../dist/cli/main.js');
  await cliEntry();
}
