/**
 * Everything a check may read about one exchange, computed lazily and once: decoded text, the
 * namespace-resolved tree, the libxml2 parse and XSD validation, the located result element.
 */
import type { BindingId, Namespaces, Operation } from '../contract/catalogue.js';
import type { Binding, Located } from '../bindings/types.js';
import { binding as bindingModule } from '../bindings/index.js';
import type { Exchange } from '../core/types.js';
import { readTree, type ParsedXml } from '../xml/tree.js';
import { parseContentType } from '../bindings/media-type.js';
import { MEMO_MAX_CHARS, TextMemo } from '../xml/memo.js';
import type { DocumentValidator, LibxmlOutcome, ValidateOptions } from '../schema/types.js';
import type { SecretWatch } from '../core/secret-watch.js';

export type { DocumentValidator, LibxmlOutcome, ValidateOptions, XsdError } from '../schema/types.js';

/** What kind of request a case sends, which decides the outcome the checks expect. */
export type CaseKind =
  | 'valid' // a valid call: 200 and a conforming result
  | 'wrong-credentials' // a valid call with a wrong password: no data in any binding
  | 'missing-param' // a required typed parameter left out
  | 'bad-param' // an int or dateTime parameter that does not parse
  | 'unknown-operation' // an operation the service does not have
  | 'wrong-soapaction' // SOAP 1.1 with a SOAPAction naming another operation
  | 'doctype' // a SOAP request with a DOCTYPE (issue 42): refused, its entity never expanded nor fetched
  | 'login-variant' // a credential variant a careless login check lets in (src/engine/plan.ts LOGIN_VARIANTS): refused as the wrong password is
  | 'generated'; // a generated parameter set (src/engine/generate.ts): may be accepted or rejected

/** Case kinds whose request is bad: the target must reject it cleanly (no data, no crash). */
export const BAD_REQUEST_KINDS: readonly CaseKind[] = [
  'missing-param',
  'bad-param',
  'unknown-operation',
  'wrong-soapaction',
];

export interface DecodedBody {
  readonly text?: string;
  /** Why the bytes could not be decoded in the declared charset. */
  readonly error?: string;
  /** The charset used: from Content-Type, else the XML declaration, else utf-8. */
  readonly charset: string;
}

export interface CheckContextInit {
  readonly op: Operation;
  readonly binding: BindingId;
  readonly caseId: string;
  readonly caseKind: CaseKind;
  readonly namespaces: Namespaces;
  readonly exchange: Exchange;
  readonly validator: DocumentValidator;
  /**
   * How the run's reference requests of this operation and binding were refused (the wrong password,
   * the bad requests): what login_rejected compares a login variant's answer with. Absent: not sent
   * in this run (--case, a shard).
   */
  readonly refusals?: readonly string[];
  /** The run's secrets, as secret_echoed looks for them (core/secret-watch.ts); absent: none to look for. */
  readonly secrets?: SecretWatch;
}

/** What a memo of trees may hold, in characters of text: a tree costs a few times its text (TREE_COST). */
const TREE_MEMO_BUDGET = 4 * 1024 * 1024;
const TREE_COST = 4;
const trees = new WeakMap<DocumentValidator, TextMemo<{ parsed?: ParsedXml; error?: string }>>();

/** The trees of the run a validator serves (one validator per run): bounded, see TextMemo. */
function treesOf(validator: DocumentValidator): TextMemo<{ parsed?: ParsedXml; error?: string }> {
  let m = trees.get(validator);
  if (!m)
    trees.set(validator, (m = new TextMemo(MEMO_MAX_CHARS, TREE_MEMO_BUDGET, (_v, text) => TREE_COST * text.length)));
  return m;
}

/** Whether a charset label names UTF-8 (per label: a decoder is not made for every exchange). */
const UTF8_LABELS = new Map<string, boolean>();
function isUtf8Label(label: string): boolean {
  let is = UTF8_LABELS.get(label);
  if (is === undefined) {
    is = new TextDecoder(label).encoding === 'utf-8';
    if (UTF8_LABELS.size < 64) UTF8_LABELS.set(label, is);
  }
  return is;
}

export class CheckContext {
  readonly op: Operation;
  readonly bindingId: BindingId;
  readonly binding: Binding;
  readonly caseId: string;
  readonly caseKind: CaseKind;
  readonly namespaces: Namespaces;
  /** The group namespace of the operation. */
  readonly ns: string;
  readonly exchange: Exchange;
  readonly validator: DocumentValidator;
  readonly refusals?: readonly string[];
  readonly secrets?: SecretWatch;

  #decoded?: DecodedBody;
  #xml?: { parsed?: ParsedXml; error?: string };
  #libxml?: LibxmlOutcome;
  #located?: Located;
  /** Work of the checks on the tree, by check: what it was computed of, its value, its milliseconds. */
  readonly #beside = new Map<string, { of: object; value: unknown; ms: number }>();

  constructor(init: CheckContextInit) {
    this.op = init.op;
    this.bindingId = init.binding;
    this.binding = bindingModule(init.binding);
    this.caseId = init.caseId;
    this.caseKind = init.caseKind;
    this.namespaces = init.namespaces;
    this.ns = init.namespaces[init.op.ns];
    this.exchange = init.exchange;
    this.validator = init.validator;
    if (init.refusals) this.refusals = init.refusals;
    if (init.secrets) this.secrets = init.secrets;
  }

  get response() {
    return this.exchange.response;
  }

  /** The response header, by lower-case name. */
  header(name: string): string | undefined {
    return this.exchange.response?.headers[name.toLowerCase()];
  }

  /** The body decoded with its charset (fatal on invalid bytes). */
  decoded(): DecodedBody {
    if (this.#decoded) return this.#decoded;
    const body = this.exchange.response?.body;
    if (!body) return (this.#decoded = { charset: 'utf-8', error: 'no response body' });
    const fromHeader = parseContentType(this.header('content-type'))?.params.charset;
    const head = body.subarray(0, 200).toString('latin1');
    const fromDecl = /^\uFEFF?<\?xml[^?]*encoding\s*=\s*["']([^"']+)["']/.exec(head.replace(/^\xEF\xBB\xBF/, ''))?.[1];
    const charset = (fromHeader ?? fromDecl ?? 'utf-8').toLowerCase();
    try {
      const text = new TextDecoder(charset, { fatal: true, ignoreBOM: false }).decode(body);
      this.#decoded = { text, charset };
    } catch (e) {
      this.#decoded = {
        charset,
        error:
          e instanceof RangeError
            ? `unknown charset "${charset}"`
            : `the body is not valid ${charset}: ${(e as Error).message}`,
      };
    }
    return this.#decoded;
  }

  /** The namespace-resolved tree of the body, or why there is none. */
  xml(): { parsed?: ParsedXml; error?: string } {
    if (this.#xml) return this.#xml;
    const d = this.decoded();
    if (d.text === undefined) return (this.#xml = { error: d.error ?? 'no body' });
    // A document libxml2 did not read (a limit, its budget) is not read here either.
    if (this.#libxml?.notParsed !== undefined) return (this.#xml = { error: this.#libxml.notParsed });
    const text = d.text;
    const limits = this.validator.limits;
    // The tree is a function of the text (and the validator's limits): one tree per distinct text of
    // a run, shared by every exchange that received it (trees are never changed).
    this.#xml = treesOf(this.validator).get(text, () => readTree(text, limits));
    return this.#xml;
  }

  /** libxml2's parse and XSD validation of the body (once per exchange). */
  libxml(): LibxmlOutcome {
    if (this.#libxml) return this.#libxml;
    const d = this.decoded();
    this.#libxml =
      d.text === undefined ? { wellFormedError: d.error ?? 'no body', xsdErrors: [] } : this.validator.validate(d.text);
    return this.#libxml;
  }

  /**
   * Run libxml2 ahead of the checks without blocking the event loop (a large document is read in
   * a process of its own, within `options`' budget and signal); libxml() then returns its outcome.
   * While a validator process reads the document, this process builds the tree (`overlap`, the
   * default) and then does `beside` (work on the tree that needs no libxml2 outcome, such as the
   * comparison's digests): the readings run in parallel instead of one after the other. A document
   * libxml2 did not read (a limit, its budget, the deadline) gets no tree, as when read in turn.
   * Resolves to whether `beside` ran on the tree that stands (false: do that work again).
   */
  async prepare(options: ValidateOptions = {}, overlap = true, beside?: () => void | Promise<void>): Promise<boolean> {
    // Only a 200's document is read by libxml2 (the checks of other answers do not ask for it).
    if (this.#libxml || !this.validator.validateAsync || this.exchange.response?.status !== 200) return false;
    const d = this.decoded();
    if (d.text === undefined) return false;
    let handedOver: (() => void) | undefined;
    const away = overlap ? new Promise<'away'>((resolve) => (handedOver = () => resolve('away'))) : undefined;
    const body = this.exchange.response.body;
    const utf8 = isUtf8Label(d.charset) ? { utf8: body } : {};
    const outcome = this.validator.validateAsync(d.text, {
      ...options,
      ...utf8,
      ...(handedOver ? { handedOver } : {}),
    });
    let besideRan = false;
    if (away && (await Promise.race([away, outcome.then(() => 'done' as const)])) === 'away') {
      if (this.xml().parsed && beside) {
        await beside();
        besideRan = true;
      }
    }
    this.#libxml = await outcome;
    if (this.#libxml.notParsed !== undefined && this.#xml?.parsed) {
      this.#xml = { error: this.#libxml.notParsed };
      this.#located = undefined;
      this.#beside.clear();
      return false;
    }
    return besideRan;
  }

  /**
   * A check's work on `of` (a part of the tree), computed once per context: by Check.beside while
   * libxml2 reads, then taken by the check's run; computed there if it was not (a small document,
   * or another part of the tree).
   */
  beside<T>(check: string, of: object, compute: () => T): T {
    const kept = this.#beside.get(check);
    if (kept?.of === of) return kept.value as T;
    const t0 = performance.now();
    const value = compute();
    this.#beside.set(check, { of, value, ms: performance.now() - t0 });
    return value;
  }

  /** Milliseconds a check's work kept by beside() took (0 if none): part of the check's time. */
  besideMs(check: string): number {
    return this.#beside.get(check)?.ms ?? 0;
  }

  /** Bytes of the response body (for messages about the cost of reading it). */
  get bodyBytes(): number {
    return this.exchange.response?.body.length ?? 0;
  }

  /** Forget the parsed forms (tree, libxml2 outcome, decoded text): what is left is the exchange. */
  release(): void {
    this.#decoded = undefined;
    this.#xml = undefined;
    this.#libxml = undefined;
    this.#located = undefined;
    this.#beside.clear();
  }

  /** Where the result element is: inside Envelope/Body/<Op>Response for SOAP, the root for GET/POST. */
  located(): Located {
    if (this.#located) return this.#located;
    const root = this.xml().parsed?.root;
    if (!root) return (this.#located = { path: '/' });
    return (this.#located = this.binding.locate(root, this.op, this.ns));
  }
}
