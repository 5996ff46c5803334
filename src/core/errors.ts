/**
 * Harness errors: a class per kind with a stable code (undici's lib/core/errors.js is the model).
 * They are about the harness's own input or environment, never about the target; findings are.
 */

export class HarnessError extends Error {
  readonly code: string = 'HARNESS_ERROR';
  /** Process exit code when this error ends a command. */
  readonly exitCode: number = 2;
}

/** Bad flags, a bad config file, an unknown operation or binding name. Exit 2. */
export class UsageError extends HarnessError {
  override readonly code = 'USAGE';
  override name = 'UsageError';
}

/** A config file that cannot be read or does not have the expected shape. Exit 2. */
export class ConfigError extends HarnessError {
  override readonly code = 'CONFIG';
  override name = 'ConfigError';
}

/** The embedded mock or another local resource could not be started. Exit 2. */
export class EnvironmentError extends HarnessError {
  override readonly code = 'ENVIRONMENT';
  override name = 'EnvironmentError';
}
