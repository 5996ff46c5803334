/**
 * `conformance drift`: the WSDLs the target serves against the contract's, by meaning (src/engine/drift.ts,
 * src/schema/wsdl-compare.ts). The target is given as to `run` (flags, environment, --config; the run's settings
 * resolution), and reached as the run reaches it: the same network flags, variables and config keys (proxy, NO_PROXY,
 * CA file, client certificate, headers, time-out; engine/network-settings.ts), the same transport options
 * (engine/session.ts networkTransportOptions). Each service's WSDL fetched at `<service URL>?WSDL` or where
 * `--wsdl-url [SERVICE=]URL` says. Offline, `--wsdl FILE` compares a saved WSDL with the contract's, or with
 * `--against FILE` (the WSDL clients were written against). Exit 0 no difference or only compatible ones, 1 a breaking
 * one, 4 the target unreachable, 5 a WSDL not had from an answering target, 2 bad usage.
 */
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVICES, operationsOf, type Operation } from '../contract/catalogue.js';
import { UsageError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import type { DriftReport } from '../core/types.js';
import { compareService, driftExitCode, driftReportOf, driftSources, fetchDrift } from '../engine/drift.js';
import { networkTransportOptions } from '../engine/session.js';
import { resolveRunSettingsFlags } from '../engine/settings.js';
import {
  DRIFT_JSON,
  DRIFT_MD,
  driftAnnotations,
  formatDrift,
  renderDriftJson,
  renderDriftMarkdown,
} from '../report/drift.js';
import { readWsdl } from '../schema/wsdl-read.js';
import { serviceWsdl } from '../schema/wsdl.js';
import { Transport } from '../transport/client.js';
import { networkSecrets } from '../transport/proxy.js';
import { makeRedactor } from '../core/redact.js';
import { EXIT_UNREACHABLE } from '../core/verdict.js';
import { stopDiagnosis } from '../engine/stop-diagnosis.js';
import { helpText, parseFlags } from './config.js';
import { DRIFT_HELP } from './help.js';
import { DRIFT_OPTIONS } from './command-settings.js';
import type { CommandIO } from './run.js';

export { DRIFT_OPTIONS };

export const DRIFT_USAGE = `usage: conformance drift [--config FILE] [--book-url URL] [--search-url URL] [--transfers-url URL]
    [--book-path PATH] ... [--book-ns URI] [--search-ns URI] [--operations A,B]
    [--wsdl-url [SERVICE=]URL]... [--report-dir DIR] [--github]
    [--proxy URL] [--ca-file PEM] [--client-cert PEM --client-key PEM | --client-pfx FILE] [--header "N: V"]...
       conformance drift --wsdl FILE [--against FILE] [--book-ns URI] [--search-ns URI] [--report-dir DIR]

Compares the WSDL each service of the target serves (<service URL>?WSDL, as ASMX does) with the
contract's WSDL (the one the mock serves), by meaning: prefixes, order of declarations, annotations
and whitespace do not count. Each difference is classified breaking or compatible for a client
written against the contract (docs/drift.md). --wsdl-url SERVICE=URL fetches a service's WSDL
elsewhere (SERVICE: Booking, NonStaticXMLAPI; the name may be left out when one service is compared).
--wsdl FILE compares a saved WSDL with the contract's; with --against FILE, with that WSDL instead
(a pull request changing a WSDL: --against the old one, --wsdl the new one).
The network is run's: --proxy (else HTTPS_PROXY/HTTP_PROXY, NO_PROXY), --ca-file, a client
certificate, --header, their CONFORMANCE_* variables and the config file's target keys.
Exit codes: 0 no difference or only compatible ones, 1 a breaking difference, 4 the target did not
answer, 5 a WSDL could not be had from an answering target, 2 bad usage.`;

/** `--wsdl-url` values by service name: `SERVICE=URL`, or a bare URL where one service is compared. */
function wsdlUrls(given: readonly string[] | undefined, services: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of given ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(v);
    const name = m ? m[1]! : services.length === 1 ? services[0]! : undefined;
    const url = m ? m[2]! : v;
    if (name === undefined)
      throw new UsageError(
        `--wsdl-url ${JSON.stringify(v)}: name the service (SERVICE=URL): this target `
          + `has ${services.length} services (${services.join(', ')})`,
      );
    if (!services.includes(name))
      throw new UsageError(
        `--wsdl-url ${JSON.stringify(v)}: no service ${name} is compared${didYouMean(name, services)} `
          + `(services: ${services.join(', ') || 'none'})`,
      );
    if (!/^https?:\/\/\S+$/.test(url))
      throw new UsageError(`--wsdl-url ${JSON.stringify(v)}: not an http or https URL`);
    if (out.has(name)) throw new UsageError(`--wsdl-url names the service ${name} twice`);
    out.set(name, url);
  }
  return out;
}

function readFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `${flag} ${path}: cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
}

/** The contract's service a saved WSDL stands for: by its service name, else by the operations it shares. */
function contractServiceOf(text: string, file: string): (typeof SERVICES)[number] {
  let names: string[] = [];
  let ops = new Set<string>();
  try {
    const m = readWsdl(text);
    names = m.services.map((s) => s.name);
    ops = new Set([...m.portTypes.values()].flatMap((p) => [...p.keys()]));
  } catch (e) {
    throw new UsageError(`--wsdl ${file}: not a WSDL: ${(e as Error).message}`);
  }
  const byName = SERVICES.find((s) => names.includes(s));
  if (byName) return byName;
  const shared = (s: (typeof SERVICES)[number]) => operationsOf(s).filter((o: Operation) => ops.has(o.name)).length;
  const best = [...SERVICES].sort((a, b) => shared(b) - shared(a))[0]!;
  if (shared(best) === 0)
    throw new UsageError(
      `--wsdl ${file}: declares no service and no operation of the contract `
        + `(services: ${names.join(', ') || 'none'}); compare it --against another WSDL`,
    );
  return best;
}

/** Run `conformance drift`; returns the exit code. */
export async function driftCommand(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(helpText(DRIFT_USAGE, DRIFT_OPTIONS, DRIFT_HELP));
    return 0;
  }
  const { values: f } = parseFlags(argv, DRIFT_OPTIONS);
  const { 'wsdl-url': wsdlUrlFlags, wsdl, against, 'report-dir': reportDir, github, quiet, ...target } = f;
  if (against !== undefined && wsdl === undefined)
    throw new UsageError('--against FILE needs --wsdl FILE (the WSDL compared with it)');
  const urlFlag = (['book-url', 'search-url', 'transfers-url'] as const).find((k) => target[k] !== undefined);
  if (wsdl !== undefined && urlFlag)
    throw new UsageError(`--wsdl FILE compares a saved WSDL: it takes no target URL (--${urlFlag})`);
  const s = resolveRunSettingsFlags(
    { ...target, ...(reportDir !== undefined ? { 'report-dir': reportDir } : {}) },
    io.env,
    false,
  );
  let report: DriftReport;
  /** Why the network stopped drift, when it did (exit 4, said first). */
  let stopped: string | undefined;
  if (wsdl !== undefined) {
    if (wsdlUrlFlags?.length) throw new UsageError('--wsdl FILE compares a saved WSDL: it takes no --wsdl-url');
    if (!s.embedded)
      throw new UsageError(
        '--wsdl FILE compares a saved WSDL: it takes no target URL (--book-url, --search-url, --transfers-url)',
      );
    const text = readFile(wsdl, '--wsdl');
    if (against !== undefined) {
      const base = readFile(against, '--against');
      try {
        readWsdl(base);
      } catch (e) {
        throw new UsageError(`--against ${against}: not a WSDL: ${(e as Error).message}`);
      }
      report = driftReportOf([compareService(readWsdl(base).services[0]?.name ?? against, wsdl, against, base, text)]);
    } else {
      const service = contractServiceOf(text, wsdl);
      const contract = serviceWsdl(service, 'http://contract.invalid', s.namespaces, s.paths);
      report = driftReportOf([compareService(service, wsdl, 'the contract', contract, text)]);
    }
  } else {
    if (s.embedded && !wsdlUrlFlags?.length)
      throw new UsageError(
        'drift needs a target (--book-url, --search-url or --transfers-url, their variables or the '
          + "config file's target), --wsdl-url SERVICE=URL, or a saved WSDL (--wsdl FILE)",
      );
    // No target URL: each --wsdl-url names a service of the catalogue, compared with its contract WSDL.
    const sources = s.embedded
      ? [...wsdlUrls(wsdlUrlFlags, [...SERVICES])].map(([service, url]) => ({
          service,
          url,
          wsdlUrl: url,
          contract: serviceWsdl(service as (typeof SERVICES)[number], 'http://contract.invalid', s.namespaces, s.paths),
        }))
      : driftSources(
          s,
          s.operations,
          wsdlUrls(
            wsdlUrlFlags,
            driftSources(s, s.operations).map((x) => x.service),
          ),
        );
    if (sources.length === 0)
      throw new UsageError(
        `no base URL for the operations compared (${s.operations.map((o) => o.name).join(', ')}): pass `
          + `--book-url, --search-url or --transfers-url, or narrow --operations`,
      );
    // A network that refuses us (a proxy's 407, a certificate not trusted or missing, a name that does
    // not resolve, a gateway's page) is judged as `run` judges it (transport/watch.ts): drift stops at
    // it, its cause and the setting that fixes it first, and exits 4 as for an unreachable WSDL.
    const transport = new Transport({
      ...networkTransportOptions(s),
      concurrency: 2,
      giveUpAfter: s.giveUpAfter,
      judgeTarget: sources.map((x) => x.url),
    });
    try {
      report = await fetchDrift(sources, transport);
      // Drift sends a WSDL request per service only: where none was answered, what the refusals point
      // to names the cause though they came fewer times than a run's judge waits for.
      const judged =
        transport.judgement
        ?? (report.verdict === 'unreachable' || report.verdict === 'not_fetched'
          ? transport.pendingJudgement
          : undefined);
      if (judged) {
        const target = {
          bookUrl: s.bookUrl ?? '',
          searchUrl: s.searchUrl ?? '',
          transfersUrl: s.transfersUrl ?? '',
          ...(s.sources ? { sources: s.sources } : {}),
          ...(s.network ? { network: s.network } : {}),
        };
        stopped = makeRedactor(networkSecrets(s.network))(stopDiagnosis(judged, target).message);
      }
    } finally {
      await transport.close();
    }
    // The cause first, before the report's lines.
    if (stopped !== undefined) io.out(`Diagnosis:\n  ${stopped}`);
  }
  io.out(quiet ? formatDrift(report, 0) : formatDrift(report));
  const markdown = renderDriftMarkdown(report);
  if (reportDir !== undefined) {
    await mkdir(reportDir, { recursive: true });
    await writeFile(join(reportDir, DRIFT_JSON), renderDriftJson(report), 'utf8');
    await writeFile(join(reportDir, DRIFT_MD), markdown, 'utf8');
    io.err(`conformance: wrote ${join(reportDir, DRIFT_JSON)} and ${join(reportDir, DRIFT_MD)}`);
  }
  if (github || io.env.GITHUB_ACTIONS === 'true') {
    for (const l of driftAnnotations(report)) io.out(l);
    if (io.env.GITHUB_STEP_SUMMARY) await appendFile(io.env.GITHUB_STEP_SUMMARY, markdown, 'utf8');
    else
      io.err('warning: --github: GITHUB_STEP_SUMMARY is not set, so no job summary was written (the annotations were)');
  }
  return stopped !== undefined ? EXIT_UNREACHABLE : driftExitCode(report);
}
