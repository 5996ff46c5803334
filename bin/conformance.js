#!/usr/bin/env node
// Entry point of `npx conformance`: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

register();
const { cliEntry } = await import('../src/cli/main.ts');
await cliEntry();
