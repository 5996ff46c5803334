/** Reading a JSON file the harness was pointed at, with errors that name the file and the problem. */
import { readFileSync } from 'node:fs';

/**
 * The parsed content of a JSON file. `what` names the file in messages ("config file x.json");
 * `fail` makes the error to throw (its class decides the exit code); `hint` follows a read error.
 */
export function readJsonFile(path: string, what: string, fail: (message: string) => Error, hint = ''): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw fail(`cannot read ${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}${hint}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail(`${what} is not valid JSON: ${(e as Error).message}`);
  }
}
