/**
 * Global setup of the conformance suites: with no target configured (CONFORMANCE_BOOK_URL,
 * CONFORMANCE_SEARCH_URL, CONFORMANCE_TRANSFERS_URL unset) the embedded mock is started here and
 * its URL provided to the suites.
 */
import type { TestProject } from 'vitest/node';
import { DEFAULT_PASSWORD, DEFAULT_USER } from '../src/cli/config.js';
import { DEFAULT_NAMESPACES } from '../src/contract/catalogue.js';
import { startMock } from '../src/mock/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    conformanceMockUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  if (env.CONFORMANCE_BOOK_URL || env.CONFORMANCE_SEARCH_URL || env.CONFORMANCE_TRANSFERS_URL) {
    project.provide('conformanceMockUrl', '');
    return async () => {};
  }
  const mock = await startMock({
    port: 0,
    user: env.CONFORMANCE_USER ?? DEFAULT_USER,
    password: env.CONFORMANCE_PASSWORD ?? DEFAULT_PASSWORD,
    namespaces: { book: env.CONFORMANCE_BOOK_NS ?? DEFAULT_NAMESPACES.book, search: env.CONFORMANCE_SEARCH_NS ?? DEFAULT_NAMESPACES.search },
  });
  project.provide('conformanceMockUrl', mock.url);
  return () => mock.close();
}
