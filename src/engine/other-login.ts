/**
 * The second account's login, proven before any verdict rests on it (issue 40, section 2). The
 * foreign-account families (src/sequences/foreign-*.ts) judge a refusal of the second account's
 * call as an authorization refusal: with a wrong password every such call is refused too, as a
 * wrong login, and a service that lets any account read any booking would pass. So before the first
 * call of such a family, once a run, GetLanguages is called with the second account's credentials
 * on every binding.
 *
 * Why GetLanguages: it has no side effect and no parameter, and any account of the service may call
 * it (the embedded mock's second account reads the reference data as the first does). A call on a
 * booking (AmendmentPriceRequest, GetSpecialRequest) could not prove the login: another agency's
 * account must be refused there, as for a booking that does not exist, so its refusal would say
 * nothing of the password. GetLanguages answered with data proves the login on that binding; refused
 * the way the run reads a wrong login of its own account (./diagnose.ts aboutCredentials: a fault,
 * an in-band Error or a page about the credentials, or HTTP 401/403) it is refused; any other answer
 * leaves it unknown. The families send the second account's calls only on bindings where it is proven.
 *
 * Its exchanges are rows of the report, of the preflight's case (a check of the run's settings before
 * the matrix, as the preflight's: not re-run by --case, shared by shards): one per binding, passed
 * where the login is proven, skipped with the answer's excerpts where it is not, each with the curl
 * command that sends it again (the password as its variable). A refused login is also said first in
 * the diagnosis, naming where the user name and the password came from, and core/verdict.ts makes
 * the run UNTESTED (exit 5) unless something else failed.
 */
import { requestFor, serviceUrlOf } from '../bindings/endpoint.js';
import { findOperation, type BindingId, type Operation } from '../contract/catalogue.js';
import { CheckContext } from '../checks/context.js';
import { describeFault, findFault } from '../checks/soap-fault.js';
import { inBandError } from '../checks/support.js';
import { OTHER_LOGIN_REFUSED, OTHER_LOGIN_UNPROVEN, PREFLIGHT_CASE } from '../core/rows.js';
import type { Diagnosis, Exchange, ResultRow, Target } from '../core/types.js';
import { acceptance } from '../equivalence/acceptance.js';
import type { OtherLogin } from '../sequences/types.js';
import { curlCommand, OTHER_PASSWORD_VARIABLE } from '../transport/curl.js';
import type { EngineDeps } from './deps.js';
import { aboutCredentials } from './diagnose.js';
import { retriesFor, type RunPlan } from './plan.js';
import type { RowMaker } from './rows.js';

/** The operation that proves a login: no side effect, no parameter, open to every account. */
export const LOGIN_OPERATION = 'GetLanguages';
/** The check name of the login proof's rows. */
export const OTHER_LOGIN_CHECK = 'account_login';

type State = OtherLogin['bindings'][BindingId] & {};

/** Where the second account's user name and password came from, in a message's words. */
export function otherAccountSources(target: Pick<Target, 'other' | 'sources'>): { user: string; password: string } {
  const variable = target.other?.passwordVariable;
  return {
    user: target.sources?.otherUser ?? '--other-user',
    password: target.sources?.otherPassword ?? `environment variable ${variable ?? OTHER_PASSWORD_VARIABLE}`,
  };
}

/** Text cut to `max` characters, its white space folded. */
function cut(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** What one answer to the login call says: proven, refused as a wrong login, or unknown (with words). */
export function loginState(
  plan: Pick<RunPlan, 'target'>,
  deps: Pick<EngineDeps, 'validator'>,
  op: Operation,
  binding: BindingId,
  ex: Exchange,
): State {
  if (!ex.response)
    return {
      state: 'unknown',
      how: `no response (${ex.error?.code ?? 'unknown'}${ex.error?.message ? `: ${cut(ex.error.message, 160)}` : ''})`,
    };
  const ctx = new CheckContext({
    op,
    binding,
    caseId: PREFLIGHT_CASE,
    caseKind: 'valid',
    namespaces: plan.target.namespaces,
    exchange: ex,
    validator: deps.validator,
  });
  const acc = acceptance(ctx);
  if (acc.kind === 'accepted') return { state: 'proven', how: 'answered with data' };
  if (acc.kind === 'unknown') return { state: 'unknown', how: acc.why };
  const status = ex.response.status;
  const fault = findFault(ctx.xml().parsed?.root);
  const result = ctx.located().result;
  const error = result ? inBandError(result, op.resultType, ctx.ns) : undefined;
  const said = error
    ? `${error.type} ${error.message}`
    : fault
      ? describeFault(fault)
      : (ctx.decoded().text ?? '').slice(0, 4096).replace(/<[^>]*>/g, ' ');
  const how = `${acc.how}${said.trim() ? `: ${cut(said, 160)}` : ''}`;
  const wrongLogin =
    status === 401
    || status === 403
    || aboutCredentials({ type: error?.type ?? '', message: error ? error.message : said });
  return wrongLogin ? { state: 'refused', how: `refused as a wrong login (${how})` } : { state: 'unknown', how };
}

/**
 * The second account's login of one run: sent once, when the first family asks (prove), on every
 * binding of the plan; its rows and diagnosis once the run is over (report).
 */
export class OtherLoginProof {
  readonly #plan: RunPlan;
  readonly #deps: EngineDeps;
  #sent?: Promise<{ login: OtherLogin; exchanges: Map<BindingId, Exchange> }>;

  constructor(plan: RunPlan, deps: EngineDeps) {
    this.#plan = plan;
    this.#deps = deps;
  }

  /** The proof, its calls sent the first time it is asked. */
  prove(): Promise<OtherLogin> {
    this.#sent ??= this.#send();
    return this.#sent.then((s) => s.login);
  }

  async #send(): Promise<{ login: OtherLogin; exchanges: Map<BindingId, Exchange> }> {
    const plan = this.#plan;
    const other = plan.target.other;
    const op = findOperation(LOGIN_OPERATION)!;
    const exchanges = new Map<BindingId, Exchange>();
    const bindings: Partial<Record<BindingId, State>> = {};
    await Promise.all(
      plan.bindings.map(async (b) => {
        if (!other) {
          bindings[b] = { state: 'unknown', how: 'no second account is given' };
          return;
        }
        const params = { userName: other.user, password: other.password };
        const ex = await this.#deps.transport.send(
          requestFor(plan.target, op, b, params),
          retriesFor(op),
          serviceUrlOf(plan.target, op, plan.bindings[0]!),
        );
        this.#deps.tally?.note(op.name, b, ex, false);
        exchanges.set(b, ex);
        bindings[b] =
          ex.error?.code === 'not_sent'
            ? { state: 'unknown', how: `not sent: ${ex.error.message}` }
            : loginState(plan, this.#deps, op, b, ex);
      }),
    );
    const user = other?.user ?? '(none)';
    const unproven = (b: BindingId): string | undefined => {
      const s = bindings[b];
      if (s?.state === 'proven') return undefined;
      return s?.state === 'refused'
        ? `the second account's login (${user}) was refused through ${b}: ${LOGIN_OPERATION} with its `
            + `credentials was ${s.how}, so a refusal of its calls there proves nothing about authorization`
        : `the second account's login (${user}) could not be shown through ${b}: ${LOGIN_OPERATION} with `
            + `its credentials got ${s?.how ?? 'no answer'}, so a refusal of its calls there proves nothing `
            + `about authorization`;
    };
    return { login: { bindings, unproven }, exchanges };
  }

  /** The proof's rows (one per binding) and what the diagnosis says of it; nothing when no family asked. */
  async report(rows: RowMaker): Promise<{ rows: ResultRow[]; diagnosis: Diagnosis[] }> {
    if (!this.#sent) return { rows: [], diagnosis: [] };
    const { login, exchanges } = await this.#sent;
    const { target, bindings } = this.#plan;
    const other = target.other!;
    const op = findOperation(LOGIN_OPERATION)!;
    const out: ResultRow[] = [];
    for (const b of bindings) {
      const ex = exchanges.get(b);
      const reproduce = ex
        ? curlCommand(ex.request, other.password, other.passwordVariable ?? OTHER_PASSWORD_VARIABLE, target.network)
        : '';
      const base = { op, binding: b, caseId: PREFLIGHT_CASE, reproduce, ...(ex ? { exchange: ex } : {}) };
      const why = login.unproven(b);
      if (why === undefined) {
        out.push(
          rows.row(base, OTHER_LOGIN_CHECK, {
            note:
              `the second account (${other.user}) logged in through ${b}: ${LOGIN_OPERATION} with its `
              + `credentials answered with data, so a refusal of its calls there is about authorization`,
          }),
        );
        continue;
      }
      const row = rows.row(base, OTHER_LOGIN_CHECK, { skipped: `not tested: ${why}` });
      out.push(ex?.response ? { ...row, ...rows.excerpts(ex) } : row);
    }
    return { rows: out, diagnosis: loginDiagnosis(target, bindings, login) };
  }
}

/**
 * What the diagnosis says of the login: refused as a wrong login on some binding (an error, first),
 * or shown on none (an error too); nothing when it was proven everywhere or refused nowhere and shown somewhere.
 */
export function loginDiagnosis(
  target: Pick<Target, 'other' | 'sources'>,
  bindings: readonly BindingId[],
  login: Pick<OtherLogin, 'bindings'>,
): Diagnosis[] {
  const states = bindings.map((b) => ({ b, s: login.bindings[b] }));
  const refused = states.filter((x) => x.s?.state === 'refused');
  const src = otherAccountSources(target);
  const user = target.other?.user ?? '(none)';
  const what =
    'authorization across accounts was not tested (the rows of the sequences that use the second account are skipped)';
  if (refused.length > 0) {
    return [
      {
        level: 'error',
        code: OTHER_LOGIN_REFUSED,
        message:
          `the second account's login was refused: ${LOGIN_OPERATION} with the credentials of ${user} `
          + `was ${refused[0]!.s!.how} through ${refused.map((x) => x.b).join(', ')}: `
          + `${what}; check its password (from ${src.password}) and its user name (from ${src.user})`,
      },
    ];
  }
  if (states.every((x) => x.s?.state !== 'proven')) {
    return [
      {
        level: 'error',
        code: OTHER_LOGIN_UNPROVEN,
        message:
          `the second account's login could not be shown: ${LOGIN_OPERATION} with the credentials `
          + `of ${user} got ${states[0]?.s?.how ?? 'no answer'} through ${bindings.join(', ')}: `
          + `${what}; check its password (from ${src.password}) and its user name (from ${src.user})`,
      },
    ];
  }
  return [];
}
