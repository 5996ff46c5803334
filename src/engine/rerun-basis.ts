/**
 * What a report keeps of a run's settings so that each row's re-run command (src/report/rerun.ts)
 * runs that row as the run did: the config file, where the bookings came from (a file or the
 * variable holding them, never the ids), and every other setting that changes what a row sends or
 * how it is judged, as flags; and the variables the run's network needs (a proxy with credentials,
 * the environment's proxies and NO_PROXY, a passphrase, a header's value: networkVariables). The
 * target (URLs, paths, namespaces, user) is the report's own, and a password or a proxy's
 * credentials only ever the name of their variable.
 */
import type { RerunBasis } from '../core/types.js';
import { DEFAULT_TRANSPORT } from '../transport/client.js';
import { networkVariables } from '../transport/curl.js';
import type { RunSettings } from './settings.js';

/** The remote rate bound a flag is left out at (src/engine/settings.ts). */
const DEFAULT_REMOTE_MAX_RPS = 20;

/** The re-run basis of a run's settings. */
export function rerunBasis(s: RunSettings): RerunBasis {
  const flags: string[] = [];
  if (s.allowMutations) flags.push('--allow-mutations');
  if (s.checks) flags.push('--checks', s.checks.join(','));
  if (s.skipChecks.length) flags.push('--skip-checks', s.skipChecks.join(','));
  if (s.families) flags.push('--families', s.families.join(','));
  if (!s.negative) flags.push('--no-negative');
  // The same bound spreads the login variants the same way: a re-run sends the same variant on the same binding.
  if (s.maxFailedLogins !== undefined) flags.push('--max-failed-logins', String(s.maxFailedLogins));
  if (!s.equivalence) flags.push('--no-equivalence');
  if (s.expectations) flags.push('--expectations', s.expectations);
  if (s.timeoutMs !== DEFAULT_TRANSPORT.timeoutMs) flags.push('--timeout', String(s.timeoutMs));
  if (s.maxBodyBytes !== DEFAULT_TRANSPORT.maxBodyBytes) flags.push('--max-body-bytes', String(s.maxBodyBytes));
  if (s.insecureTls) flags.push('--insecure-tls');
  // The rate bound the target's owner asked for holds for a re-run too.
  if (s.maxRps !== undefined && !(s.maxRps === DEFAULT_REMOTE_MAX_RPS && !s.embedded))
    flags.push('--max-rps', String(s.maxRps));
  // Where the target reaches the listener of the external-entity probe: a re-run of that row needs it again.
  if (s.callbackUrl) flags.push('--callback-url', s.callbackUrl);
  if (s.callbackListen)
    flags.push(
      '--callback-listen',
      `${s.callbackListen.host.includes(':') ? `[${s.callbackListen.host}]` : s.callbackListen.host}:${s.callbackListen.port}`,
    );
  const from = s.bookingsFrom;
  // Pools inside the config file come with --config; the library's settings object has no file to name.
  const bookings = from === undefined || 'config' in from ? undefined : from;
  // The network's variables (a proxy with credentials by its variable, never its value); its flags are the target's
  // (RunReport.target.network).
  const variables = networkVariables(s.network);
  return {
    ...(s.configFile ? { config: s.configFile } : {}),
    ...(bookings ? { bookings } : {}),
    flags,
    reportDir: s.reportDir,
    ...(variables.length ? { variables } : {}),
  };
}
