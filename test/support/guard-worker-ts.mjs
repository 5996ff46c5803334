// The secret guard's search worker (src/report/guard-worker.ts) from its TypeScript source, for the
// tests: a worker thread does not take a parent's tsx hooks, so this shim registers them first.
import { register } from 'tsx/esm/api';

register();
await import('../../src/report/guard-worker.ts');
