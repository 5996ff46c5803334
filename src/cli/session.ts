/**
 * A target ready to be called, from run settings: the embedded mock started when no URL is given,
 * the Target, a Transport with the settings' limits and a document validator for its namespaces.
 * Shared by run, record and compare.
 */
import type { Target } from '../core/types.js';
import { EnvironmentError } from '../core/errors.js';
import { makeRedactor } from '../core/redact.js';
import type { DocumentValidator } from '../schema/types.js';
import { startMock, type MockOptions, type RunningMock } from '../mock/index.js';
import { Transport } from '../transport/client.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import type { RunSettings } from './config.js';

export interface Session {
  readonly target: Target;
  readonly transport: Transport;
  readonly validator: DocumentValidator;
  /** Where the target is, credentials redacted (for messages). */
  readonly where: string;
  close(): Promise<void>;
}

/** Open a session; `mock` adds options for the embedded mock. */
export async function openSession(s: RunSettings, mock: Partial<MockOptions> = {}): Promise<Session> {
  let running: RunningMock | undefined;
  if (s.embedded) {
    try {
      running = await startMock({ ...mock, port: 0, user: s.user, password: s.password, namespaces: s.namespaces, paths: s.paths });
    } catch (e) {
      throw new EnvironmentError(`cannot start the embedded mock: ${(e as Error).message}`);
    }
  }
  const target: Target = {
    bookUrl: running?.url ?? s.bookUrl ?? '',
    searchUrl: running?.url ?? s.searchUrl ?? '',
    transfersUrl: running?.url ?? s.transfersUrl ?? s.searchUrl ?? '',
    paths: s.paths,
    namespaces: s.namespaces,
    user: s.user,
    password: s.password,
    embedded: s.embedded,
  };
  let transport: Transport | undefined;
  try {
    transport = new Transport({
      concurrency: s.concurrency, timeoutMs: s.timeoutMs, maxBodyBytes: s.maxBodyBytes, maxRps: s.maxRps,
      deadline: s.deadlineMs ? Date.now() + s.deadlineMs : undefined, insecureTls: s.insecureTls,
    });
    const validator = createDocumentValidator(s.namespaces, { maxBytes: s.maxBodyBytes });
    const redact = makeRedactor([s.password]);
    const t = transport;
    return {
      target, transport: t, validator,
      where: s.embedded ? `embedded mock at ${target.bookUrl}` : redact(`book ${target.bookUrl}, search ${target.searchUrl}, transfers ${target.transfersUrl}`),
      async close() {
        await t.close();
        await running?.close();
      },
    };
  } catch (e) {
    await transport?.close();
    await running?.close();
    throw e;
  }
}
