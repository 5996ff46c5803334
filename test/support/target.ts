/**
 * A target for tests that never reach it over the network (MockAgent, a held transport): one host for every service.
 */
import { DEFAULT_NAMESPACES, DEFAULT_PATHS } from '../../src/contract/catalogue.js';
import type { Target } from '../../src/core/types.js';

export const testTarget = (over: Partial<Target> = {}): Target => ({
  bookUrl: 'http://target.test',
  searchUrl: 'http://target.test',
  transfersUrl: 'http://target.test',
  paths: DEFAULT_PATHS,
  namespaces: DEFAULT_NAMESPACES,
  user: 'u',
  password: 'p',
  embedded: false,
  ...over,
});
