/**
 * Every error the harness throws: one base class, one class per kind, each with a stable code
 * prefixed CONF_ERR_ (undici's lib/core/errors.js is the model: a class per error, one base, one
 * file). They are about the harness's own input, environment or data, never about the target:
 * what the target does wrong is a finding.
 */

export class HarnessError extends Error {
  readonly code: string = 'CONF_ERR_HARNESS';
  /** Process exit code when this error ends a command (2: bad usage or configuration; 3: the harness's own fault). */
  readonly exitCode: number = 2;
}

/** Bad flags, a bad config file, an unknown operation or binding name. Exit 2. */
export class UsageError extends HarnessError {
  override readonly code = 'CONF_ERR_USAGE';
  override name = 'UsageError';
}

/** A config file that cannot be read or does not have the expected shape. Exit 2. */
export class ConfigError extends HarnessError {
  override readonly code = 'CONF_ERR_CONFIG';
  override name = 'ConfigError';
}

/** The embedded mock or another local resource could not be started. Exit 2. */
export class EnvironmentError extends HarnessError {
  override readonly code = 'CONF_ERR_ENVIRONMENT';
  override name = 'EnvironmentError';
}

/** A recording the mock cannot serve (missing, unreadable, not the format). Exit 2. */
export class ReplayError extends HarnessError {
  override readonly code = 'CONF_ERR_REPLAY';
  override name = 'ReplayError';
}

/** A fault name the mock's catalogue does not have; the message says how to list them. Exit 2. */
export class UnknownFaultError extends HarnessError {
  override readonly code = 'CONF_ERR_UNKNOWN_FAULT';
  override name = 'UnknownFaultError';
}

/**
 * Data that do not fit the type model (a fixture or generator bug of the mock): names the path and the problem. Exit 3.
 */
export class SerializeError extends HarnessError {
  override readonly code = 'CONF_ERR_SERIALIZE';
  override readonly exitCode = 3;
  override name = 'SerializeError';
}

/**
 * A document that is not well-formed or not namespace-well-formed; `message` says where. Caught where documents are
 * read.
 */
export class XmlError extends HarnessError {
  override readonly code = 'CONF_ERR_XML';
  override name = 'XmlError';
}

/** A response body over the size cap: reading stopped (the transport turns it into an exchange error). */
export class SizeCapError extends HarnessError {
  override readonly code = 'CONF_ERR_RESPONSE_TOO_LARGE';
  override name = 'SizeCapError';
}
