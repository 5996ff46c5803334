/**
 * A password short enough, or common enough, that redacting it will also mask ordinary text (the
 * reports redact every occurrence of the password and of its encodings in what was sent and what
 * came back). Not an error: the run goes on, but the user is told why a report may show *** where
 * no secret was.
 */
import { OPERATIONS } from '../contract/catalogue.js';
import { allTypes, effective } from '../contract/model.js';

/** Shorter than this, a password is a word of ordinary text often enough to matter. */
const MIN_LENGTH = 8;

const COMMON = [
  'password',
  'passw0rd',
  'secret',
  'admin',
  'test',
  'testing',
  'welcome',
  'letmein',
  'qwerty',
  'changeme',
  'default',
  'booking',
  'hotel',
  'user',
  'guest',
  'demo',
  'mock',
];

let vocabulary: string | undefined;
/** Words the harness and the service write themselves: operations, element and attribute names of the model. */
function harnessVocabulary(): string {
  if (vocabulary !== undefined) return vocabulary;
  const words = new Set<string>(OPERATIONS.flatMap((o) => [o.name, o.resultElement, ...o.params.map((p) => p.name)]));
  for (const t of allTypes()) {
    words.add(t.name);
    if (t.kind !== 'complex') continue;
    const e = effective(t.name);
    for (const f of e.fields) if (f.kind === 'element') words.add(f.name);
    for (const a of e.attributes) words.add(a.name);
  }
  return (vocabulary = [...words].join(' ').toLowerCase());
}

/** Why redacting this password will also mask ordinary text, or undefined when it will not. */
export function weakPasswordWarning(password: string): string | undefined {
  if (password === '') return undefined;
  const lower = password.toLowerCase();
  const why =
    password.length < MIN_LENGTH
      ? `is ${password.length} character${password.length === 1 ? '' : 's'} long`
      : COMMON.includes(lower)
        ? 'is a common word'
        : harnessVocabulary().includes(lower)
          ? 'is a word the service and the reports use'
          : undefined;
  if (why === undefined) return undefined;
  return (
    `the password ${why}: its redaction (every occurrence is replaced by ***) will also mask ordinary `
    + `text in the reports`
  );
}
