/**
 * The accounts of a run: the first account's password by its precedence (with a warning when two
 * sources disagree), and the second account of issue 33, its user and password. Apart from
 * ./settings.ts, which resolves the rest of the run's settings.
 */
import { ConfigError } from '../core/errors.js';
import type { SettingKey } from '../core/types.js';
import { OTHER_PASSWORD_VARIABLE } from '../transport/curl.js';
import { RUN_SETTINGS } from './run-settings-table.js';
import { bad, type Settings } from './settings-reader.js';
import { VARIABLE, type Sourced } from './sourced.js';

// The embedded mock's accounts: the first, and the second (issue 33), whose bookings are another
// agency's, so the authorization sequences run there by default. The mock's own values, not copies.
import { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER } from '../mock/accounts.js';
export { DEFAULT_OTHER_PASSWORD, DEFAULT_OTHER_USER, DEFAULT_PASSWORD, DEFAULT_USER };
export { OTHER_PASSWORD_VARIABLE };

/** The second account of a run: its password's variable when it came from one (a reproduce command names it). */
export interface OtherAccountSetting {
  readonly user: string;
  readonly password: string;
  readonly passwordVar?: string;
}

/**
 * The order of precedence of the password, most specific first: `--password` (or the library's
 * `target.password`), then the variable the config names in `target.passwordEnv`, then
 * CONFORMANCE_PASSWORD. The config's variable comes before the general one: a file that names its
 * variable says which password this target takes, and a CONFORMANCE_PASSWORD left in a shell (or a
 * CI job) for another target must not override it silently.
 */
export const PASSWORD_PRECEDENCE =
  '--password, then the variable named by target.passwordEnv, then CONFORMANCE_PASSWORD';

/**
 * The password setting by that precedence, and a warning for each other source that gives a
 * different password: the warning names both sources, never a value.
 */
export function passwordOf(
  in_: Settings,
  passwordEnv: Sourced<string> | undefined,
  flagSource: string,
): { given?: Sourced<string>; warnings: string[] } {
  const flag = in_.text('password', { env: false, key: false });
  return accountPassword(
    in_,
    flag && { ...flag, source: flagSource },
    passwordEnv,
    'CONFORMANCE_PASSWORD',
    PASSWORD_PRECEDENCE,
    'passwords',
  );
}

/**
 * An account's password by its precedence: the one given outright (--password, the library's
 * target.password or target.otherPassword), then the variable the config names, then the general
 * variable; with a warning for each other source that gives a different one (sources, never values).
 */
function accountPassword(
  in_: Settings,
  outright: Sourced<string> | undefined,
  passwordEnv: Sourced<string> | undefined,
  generalVar: string,
  precedence: string,
  what: string,
): { given?: Sourced<string>; warnings: string[] } {
  const named = passwordEnv === undefined ? undefined : in_.string(undefined, passwordEnv.value, undefined);
  // "(named by …)" is for the messages only: a reproduce command names the variable (passwordVar).
  const viaConfig =
    named === undefined ? undefined : { ...named, source: `${named.source} (named by ${passwordEnv!.source})` };
  const general = passwordEnv?.value === generalVar ? undefined : in_.string(undefined, generalVar, undefined);
  const sources = [outright, viaConfig, general].filter((x): x is Sourced<string> => x !== undefined);
  const [given, ...others] = sources;
  if (given === undefined) return { warnings: [] };
  const warnings = others
    .filter((o) => o.value !== given.value)
    .map(
      (o) =>
        `two different ${what} are given: the one from ${given.source} is used, the one in ${o.source} `
        + `is not (precedence: ${precedence})`,
    );
  if (given === general && passwordEnv !== undefined) {
    warnings.push(
      `${passwordEnv.source} names the variable ${passwordEnv.value}, which is not set: using the `
        + `password from ${general.source} instead`,
    );
  }
  return { given: given === viaConfig ? named : given, warnings };
}

/** The second account's password order, as PASSWORD_PRECEDENCE is the first's. */
export const OTHER_PASSWORD_PRECEDENCE =
  `the library's target.otherPassword, then the variable named by target.otherPasswordEnv, `
  + `then ${OTHER_PASSWORD_VARIABLE}`;

/** What the caller knows that otherAccountOf needs: the first account, how the run is made, and who is told. */
export interface AccountContext {
  readonly firstUser: string;
  /** Where the first user came from ("the embedded mock's default" when nowhere). */
  readonly firstUserSource: string;
  readonly embedded: boolean;
  /** --list / --dry-run, or a command that calls nothing: no password is needed. */
  readonly sendsNothing: boolean;
  /** The library's settings object: its messages name its keys, as ConfigErrors. */
  readonly library: boolean;
  readonly where: string;
}

/**
 * The second account (issue 33): --other-user, CONFORMANCE_OTHER_USER or target.otherUser; its
 * password from the library's target.otherPassword, the variable target.otherPasswordEnv names, or
 * CONFORMANCE_OTHER_PASSWORD. There is no --other-password flag: a flag shows in process lists and
 * shell histories; --password is kept for the first account only because scripts already pass it.
 * The embedded mock's own second account when none is named there. A password variable set with no
 * account named is a warning, not an error: a variable left in a shell or a CI job must not stop a
 * run, and the run's reports say that authorization across accounts was not tested.
 */
export function otherAccountOf(
  in_: Settings,
  outright: Sourced<string> | undefined,
  c: AccountContext,
): { other?: OtherAccountSetting; warnings: string[]; sources?: Partial<Record<SettingKey, string>> } {
  const envSetting = in_.string(undefined, undefined, 'target.otherPasswordEnv');
  if (envSetting && !VARIABLE.test(envSetting.value))
    bad(envSetting, `must name an environment variable (letters, digits, _; got ${JSON.stringify(envSetting.value)})`);
  const userSetting = in_.text('other-user');
  const { given, warnings } = accountPassword(
    in_,
    outright,
    envSetting,
    OTHER_PASSWORD_VARIABLE,
    OTHER_PASSWORD_PRECEDENCE,
    'passwords of the second account',
  );
  if (userSetting === undefined) {
    const unused = given ?? (envSetting && { source: envSetting.source });
    if (unused) {
      warnings.push(
        `${unused.source} ${given ? "gives a second account's password" : `names ${envSetting!.value} for a second account's password`}, `
          + `but no second account is named (--other-user, ${RUN_SETTINGS['other-user'].env} or `
          + `target.otherUser): it is not used`
          + (c.embedded
            ? `; the embedded mock's own second account (${DEFAULT_OTHER_USER}) is`
            : ', and authorization across accounts is not tested'),
      );
    }
    if (!c.embedded) return { warnings };
    // The embedded mock's own account, whatever variable is set: the mock knows that password.
    sameAccount(
      DEFAULT_OTHER_USER,
      { value: DEFAULT_OTHER_USER, source: "the embedded mock's second account", fromFile: false },
      c,
    );
    const builtIn = "the embedded mock's built-in second account";
    return {
      other: { user: DEFAULT_OTHER_USER, password: DEFAULT_OTHER_PASSWORD },
      warnings,
      sources: { otherUser: builtIn, otherPassword: builtIn },
    };
  }
  const user = userSetting.value;
  sameAccount(user, userSetting, c);
  const password = given?.value ?? (c.embedded ? DEFAULT_OTHER_PASSWORD : c.sendsNothing ? '' : undefined);
  if (password === undefined) {
    const looked = envSetting
      ? `${envSetting.value} (named by ${envSetting.source}) nor ${OTHER_PASSWORD_VARIABLE} is set`
      : `${OTHER_PASSWORD_VARIABLE} is not set`;
    if (c.library) {
      throw new ConfigError(
        `${c.where}: ${userSetting.source.replace(`${c.where}: `, '')} is given but no password for it: `
          + `give target.otherPassword, or target.otherPasswordEnv naming a variable of options.env, `
          + `or ${OTHER_PASSWORD_VARIABLE} in `
          + `options.env${envSetting ? ` (${envSetting.value} is not set there)` : ''}`,
      );
    }
    bad(
      userSetting,
      `is given but ${envSetting ? 'neither ' : ''}${looked} (or it is empty): set it to the second `
        + `account's password (there is no --other-password: a flag shows in process lists)`,
    );
  }
  const passwordVar = given?.source.startsWith('environment variable ')
    ? given.source.slice('environment variable '.length)
    : undefined;
  // Where the password came from, in a message's words: the variable and, when the config named it, the key that did.
  const passwordSource =
    given === undefined
      ? "the embedded mock's built-in second account"
      : envSetting && passwordVar === envSetting.value
        ? `${given.source} (named by ${envSetting.source})`
        : given.source;
  return {
    other: { user, password, ...(passwordVar ? { passwordVar } : {}) },
    warnings,
    sources: { otherUser: userSetting.source, otherPassword: passwordSource },
  };
}

/**
 * A second account that is the first tests nothing: an error naming both sources (user names compared without case, as
 * many services do).
 */
function sameAccount(user: string, s: Sourced<string>, c: AccountContext): void {
  if (user.toLowerCase() === c.firstUser.toLowerCase())
    bad(
      s,
      `names the same account as the first user (${JSON.stringify(c.firstUser)}, `
        + `from ${c.firstUserSource}): the second account must be another agency's, or authorization across `
        + `accounts tests nothing`,
    );
}
