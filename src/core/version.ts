/**
 * The tool's name and version, read from its package.json (the one place the version is written):
 * the nearest package.json above this module that names this package, so it is found from src/
 * under tsx and from an installed package's dist/ alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOOL_NAME = 'accommodation-conformance';

function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === TOOL_NAME && pkg.version) return pkg.version;
    }
    const up = dirname(dir);
    if (up === dir)
      throw new Error(`cannot find the package.json of ${TOOL_NAME} above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

export const TOOL_VERSION = readVersion();
export const TOOL = { name: TOOL_NAME, version: TOOL_VERSION } as const;
