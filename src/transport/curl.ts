/**
 * A curl command that reproduces one request, with the password replaced by the shell variable it
 * came from (CONFORMANCE_PASSWORD, or the config's target.passwordEnv), guarded so that a command
 * pasted without it set stops with "set VAR to the password" instead of sending an empty one:
 * GET/POST parameters go through --data-urlencode (so any password encodes right), SOAP bodies
 * through an unquoted here-document that expands the variable, XML-escaped by the command first
 * where the body held the password escaped (a password with "&" or "<").
 */
import type { HttpRequest } from '../core/types.js';
import { secretForms } from '../core/redact.js';

export const PASSWORD_VARIABLE = 'CONFORMANCE_PASSWORD';

/** `${VAR:?set VAR to the password}`: the variable, or the shell stops the command saying what to set. */
export function guardedVariable(variable: string): string {
  return `\${${variable}:?set ${variable} to the password}`;
}

/**
 * Sets VAR_XML to the password escaped for XML text and attribute values, after the guard and
 * chained with && (unset, nothing is sent): & < > " ' as entities and CR as &#13; (a raw CR would reach the service as LF: XML normalises line ends). Any byte survives:
 * sed works line by line, so LF stays as it is, and a '.' appended then taken off keeps trailing
 * line breaks that $(...) would strip.
 */
function xmlEscape(variable: string): string {
  const xml = `${variable}_XML`;
  return `: "${guardedVariable(variable)}" && ${xml}=$(printf '%s.' "$${variable}" | sed -e 's/&/\\&amp;/g' -e 's/</\\&lt;/g' -e 's/>/\\&gt;/g' -e 's/"/\\&quot;/g' -e "s/'/\\&apos;/g" `
    + `-e "s/$(printf '\\r')/\\&#13;/g") && ${xml}=\${${xml}%.}`;
}

/** Quote for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\-+=/.:,@%]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function pairArg(name: string, value: string, password: string, variable: string): string {
  if (password && value === password) return `"${name}=${guardedVariable(variable)}"`;
  return shellQuote(`${name}=${value}`);
}

/** The command; `password` is the secret to replace (empty: nothing to replace), read from `variable`. */
export function curlCommand(req: HttpRequest, password: string, variable: string = PASSWORD_VARIABLE): string {
  const parts = ['curl', '-sS', '-i'];
  const url = new URL(req.url);
  // The transport never sends URL user-info (undici drops it): neither does the command, so a
  // password written into a base URL cannot reach a report through it.
  url.username = '';
  url.password = '';
  const contentType = req.headers['content-type'] ?? '';
  if (req.method === 'GET') {
    const pairs = [...url.searchParams];
    url.search = '';
    if (pairs.length) parts.push('-G');
    parts.push(shellQuote(url.toString()));
    for (const [k, v] of pairs) parts.push('--data-urlencode', pairArg(k, v, password, variable));
    return parts.join(' ');
  }
  parts.push('-X', 'POST', shellQuote(url.toString()));
  for (const [k, v] of Object.entries(req.headers)) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.body ?? '')) parts.push('--data-urlencode', pairArg(k, v, password, variable));
    return parts.join(' ');
  }
  const hereDoc = (t: string) => t.replace(/[\\$`]/g, (c) => `\\${c}`);
  let body = hereDoc(req.body ?? '');
  let escaped = false;
  if (password) {
    for (const f of secretForms(password)) {
      // An XML-escaped form stands for the password as XML text: the command escapes the variable the same way.
      const xml = f !== password && f.includes('&');
      const next = body.split(hereDoc(f)).join(xml ? `\${${variable}_XML}` : guardedVariable(variable));
      if (xml && next !== body) escaped = true;
      body = next;
    }
  }
  parts.push('--data-binary', '@-', `<<EOF\n${body}\nEOF`);
  return (escaped ? `${xmlEscape(variable)} && ` : '') + parts.join(' ');
}
