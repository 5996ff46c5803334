/**
 * A target ready to be called, from run settings: the embedded mock started when no URL is given,
 * the Target, the run's plan (engine/plan.ts), and what the engine needs to send and check: a
 * Transport with the settings' limits (deadline, TLS), a document validator for its namespaces, and
 * the redactor of every secret the run holds (gathered once, engine/plan.ts secretsOf). Shared by
 * run, record, compare and the conformance suites, so all of them send the same way.
 */
import { CHECK_GROUPS, expandCheckNames, selectChecks } from '../checks/registry.js';
import type { Check } from '../checks/types.js';
import { EnvironmentError, UsageError } from '../core/errors.js';
import { makeRedactor, redactUserInfo, type Redactor } from '../core/redact.js';
import type { Target } from '../core/types.js';
import { DOCTYPE_CHECK, secretsOf, type RunPlan } from './plan.js';
import { planOf, targetOf } from './settings-plan.js';
import { openCallback, type Callback } from './callback.js';
import { binding as bindingModule } from '../bindings/index.js';
import { discoverLanguages, pinnedLanguages } from './languages.js';
import type { EngineDeps } from './run.js';
import type { MockOptions, RunningMock } from '../mock/index.js';
import { startMockInWorker } from '../mock/in-worker.js';
import type { DocumentValidator } from '../schema/types.js';
import { createDocumentValidator } from '../schema/xsd-validator.js';
import { Transport, type TransportOptions } from '../transport/client.js';
import type { RunSettings } from './settings.js';

export interface Session {
  readonly target: Target;
  readonly plan: RunPlan;
  readonly transport: Transport;
  readonly validator: DocumentValidator;
  /** Every secret of the run: the password and any password in a target URL's user-info. */
  readonly secrets: readonly string[];
  /** The redactor of those secrets, built once. */
  readonly redact: Redactor;
  /** Where the target is, credentials redacted (for messages). */
  readonly where: string;
  /** The engine's dependencies (progress added by the caller). */
  deps(onProgress?: EngineDeps['onProgress']): EngineDeps;
  close(): Promise<void>;
}

/** ", through proxy …" when one is set (its credentials hidden by the caller), and which hosts bypass it. */
function viaProxy(net: RunSettings['network']): string {
  const proxies = [...new Set([net?.httpsProxy?.url, net?.httpProxy?.url].filter((u): u is string => u !== undefined))];
  if (proxies.length === 0) return '';
  return `, through proxy ${proxies.join(' / ')}${net?.noProxy ? ` (not for ${net.noProxy})` : ''}`;
}

/**
 * What a transport needs of the network settings (./network-settings.ts): the time-out, the size cap,
 * TLS verification and the proxies, TLS files and headers. Every command that reaches a target builds
 * its transport with these (the run's here, drift's WSDL fetches in src/cli/drift.ts), so none of
 * them goes another way than the run.
 */
export function networkTransportOptions(
  s: Pick<RunSettings, 'timeoutMs' | 'maxBodyBytes' | 'insecureTls' | 'network'>,
): Pick<TransportOptions, 'timeoutMs' | 'maxBodyBytes' | 'insecureTls' | 'network'> {
  return {
    timeoutMs: s.timeoutMs,
    maxBodyBytes: s.maxBodyBytes,
    insecureTls: s.insecureTls,
    ...(s.network ? { network: s.network } : {}),
  };
}

/** Checks named by --checks / --skip-checks, resolved against the registry. */
export function checksOf(s: Pick<RunSettings, 'checks' | 'skipChecks'>): Check[] {
  let checks;
  try {
    checks = selectChecks(s.checks);
    // A group's name (hostile_requests) stands for its checks.
    const skipped = expandCheckNames(s.skipChecks);
    const unknown = skipped.filter((n) => !selectChecks().some((c) => c.name === n));
    if (unknown.length)
      throw new Error(
        `unknown check name(s) in --skip-checks: ${unknown.join(', ')} `
          + `(groups: ${Object.keys(CHECK_GROUPS).join(', ')})`,
      );
    return checks.filter((c) => !skipped.includes(c.name));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The embedded mock for the settings, or an EnvironmentError saying why it cannot start. */
async function startEmbedded(s: RunSettings, mock: Partial<MockOptions>): Promise<RunningMock> {
  try {
    // Stateful, as the real service is: each state-changing call has a booking of its own (engine/bookings.ts).
    // In a worker thread of its own where it can be (the second core answers while this one checks);
    // the mock module (and msw) is loaded in this thread only when it cannot.
    const options = {
      ...mock,
      port: 0,
      user: s.user,
      password: s.password,
      namespaces: s.namespaces,
      paths: s.paths,
      // The second account the run calls with (its default is the mock's own).
      ...(s.other ? { otherUser: s.other.user, otherPassword: s.other.password } : {}),
    };
    return (await startMockInWorker(options)) ?? (await (await import('../mock/server.js')).startMock(options));
  } catch (e) {
    throw new EnvironmentError(`cannot start the embedded mock: ${(e as Error).message}`);
  }
}

/** Open a session; `mock` adds options for the embedded mock; `onTransport` gets the transport as soon as it exists. */
export async function openSession(
  s: RunSettings,
  mock: Partial<MockOptions> = {},
  onTransport?: (t: Transport) => void,
  startedAt = Date.now(),
): Promise<Session> {
  const checks = checksOf(s);
  // The embedded mock starts first (in a worker thread where it can: its modules load on the other
  // core), and the validator is made while it boots.
  const starting = s.embedded ? startEmbedded(s, mock) : undefined;
  starting?.catch(() => undefined); // awaited below
  let validator: DocumentValidator;
  try {
    validator = createDocumentValidator(s.namespaces, { maxBytes: s.maxBodyBytes });
  } catch (e) {
    await starting?.then(
      (r) => r.close(),
      () => undefined,
    );
    throw e;
  }
  const running: RunningMock | undefined = starting && (await starting);
  const target = targetOf(s, running?.url);

  let transport: Transport | undefined;
  let callback: Callback | undefined;
  try {
    // The listener of the external-entity probe (./callback.ts), when the run sends that probe: open until the session
    // closes.
    if (
      s.negative
      && checks.some((c) => c.name === DOCTYPE_CHECK)
      && s.bindings.some((b) => bindingModule(b).doctypeRequest !== undefined)
    ) {
      try {
        callback = await openCallback({
          targets: [target.bookUrl, target.searchUrl, target.transfersUrl].filter((u) => u !== ''),
          embedded: s.embedded,
          answer: s.user,
          ...(s.callbackUrl ? { callbackUrl: s.callbackUrl } : {}),
          ...(s.callbackListen ? { listen: s.callbackListen } : {}),
        });
      } catch (e) {
        const at = s.callbackListen
          ? `${s.callbackListen.host}:${s.callbackListen.port} (--callback-listen)`
          : s.callbackUrl
            ? `the port of ${s.callbackUrl} (--callback-url)`
            : '127.0.0.1';
        throw new EnvironmentError(
          `cannot start the listener of the external-entity probe at ${at}: ${(e as Error).message}`,
        );
      }
    }
    transport = new Transport({
      ...networkTransportOptions(s),
      concurrency: s.concurrency,
      maxRps: s.maxRps,
      deadline: s.deadlineMs ? Math.min(startedAt, Date.now()) + s.deadlineMs : undefined,
      giveUpAfter: s.giveUpAfter,
      // A target that refuses us, or is down from its first answers, stops the run at once (transport/watch.ts).
      judgeTarget: [target.bookUrl, target.searchUrl, target.transfersUrl],
    });
    // The caller may stop it from now on (an interrupt during the language discovery below).
    onTransport?.(transport);
    // Generated cases take `language` from the target's GetLanguages (engine/languages.ts).
    // With --case (a re-run of one case from a report) GetLanguages is asked even when it is not among
    // the operations: the full run that made the report asked it, and the generated cases must be its.
    const asked = s.caseFilter ? [...s.operations, { name: 'GetLanguages' }] : s.operations;
    // Languages given with --languages (a re-run command carries its run's) are used as given: nothing is asked.
    const langs =
      s.examples <= 0
        ? undefined
        : s.languages
          ? pinnedLanguages(s.languages.values, s.languages.source)
          : await discoverLanguages(target, s.bindings, asked, transport, s.shard !== undefined);
    const plan = planOf(s, target, {
      checks,
      ...(langs ? { languages: langs } : {}),
      ...(callback ? { callback } : {}),
    });

    const secrets = secretsOf(target);
    const redact = makeRedactor(secrets);
    const t = transport;
    return {
      target,
      plan,
      transport: t,
      validator,
      secrets,
      redact,
      where: s.embedded
        ? `embedded mock at ${target.bookUrl}`
        : redactUserInfo(
            `book ${target.bookUrl}, search ${target.searchUrl}, `
              + `transfers ${target.transfersUrl}${viaProxy(s.network)}`,
          ),
      deps: (onProgress) => ({ transport: t, validator, redact, ...(onProgress ? { onProgress } : {}) }),
      async close() {
        await t.close();
        await callback?.listener?.close();
        await running?.close();
      },
    };
  } catch (e) {
    await transport?.close();
    await callback?.listener?.close();
    await running?.close();
    throw e;
  }
}
