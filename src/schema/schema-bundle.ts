/**
 * The schemas a response document is validated against, for one namespace set: the project's
 * schemas in schemas/ with the target's namespaces substituted, written where libxml2 can import
 * them, and the bundle schema that imports them all (./xsd-validator.ts validates with it).
 *
 * How: the schema texts (namespaces substituted) are written to a private cache directory under
 * os.tmpdir(), keyed by a hash of the namespaces and the schema texts, next to a small "bundle"
 * schema that xs:imports the SOAP 1.1 and 1.2 envelope schemas and the two group schemas by
 * absolute file path (libxml2 needs a schemaLocation to import). The bundle document is parsed once
 * per namespace set. libxmljs2 0.35 compiles the schema again inside every validate() call, reading
 * the imported files again, and has no API to keep a compiled schema; the cost grows with the
 * schema (whole bundle: about 1 ms per small document). So each document is validated against the
 * smallest bundle that gives the same outcome: the schemas of the namespaces it uses, and of the
 * group schemas only what it names (SchemaBundle.docFor; about 0.1–0.3 ms). A test compares the
 * outcomes with the whole bundle's on every document of the self-test and on crafted ones.
 * Nothing is fetched over the network: every import is a local file.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import libxml, { type Document } from 'libxmljs2';
import { DEFAULT_NAMESPACES, OPERATIONS, type Namespaces, type NsKey, type Operation } from '../contract/catalogue.js';
import { SCHEMA_FILES, generateCombinedXsd, generateXsdSubset, operationElementNames } from './xsd.js';
import { allTypes } from '../contract/model.js';
import { escapeAttr } from '../core/escape.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS, XML_NS } from '../xml/tree.js';

/** The project's schema directory (schemas/ at the repository root). */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

/**
 * Documents up to this many characters are validated against a schema subset: only the elements
 * and types whose names occur in the document (see SchemaBundle.docFor). Larger ones use the whole
 * schemas: there the compile time no longer matters and the name search would cost more.
 */
const SUBSET_MAX_CHARS = 64 * 1024;

/**
 * Every maximal run of ASCII name characters ([A-Za-z0-9_.-]) of a text. A name the document uses
 * (an element's local name after "<" or ":", a type's name in an xsi:type value after a quote,
 * ":" or white space) is followed by a character that cannot continue an XML name, so it is one
 * of these runs; a run may also be a longer name's ASCII part, which only makes the set larger.
 */
function nameTokens(xml: string): Set<string> {
  return new Set(xml.match(/[A-Za-z0-9_.-]+/g));
}

/**
 * A SOAP envelope schema without its Fault part: everything from the Fault element's declaration to
 * the end of the schema (both envelope schemas keep it there), and the xs:import a schema then no
 * longer uses. `names` are the names declared in the part left out: a document naming none of them
 * can hold no element or xsi:type the part declares, so it validates the same without it (the SOAP
 * 1.2 one then also needs no xml.xsd: only its fault text uses xml:lang).
 */
export function withoutFault(xsd: string): { text: string; names: string[] } | undefined {
  const start = xsd.indexOf('  <xs:element name="Fault"');
  const end = xsd.lastIndexOf('</xs:schema>');
  if (start < 0 || end < start) return undefined;
  const cut = xsd.slice(start, end);
  let text = xsd.slice(0, start) + xsd.slice(end);
  if (!/ref="xml:/.test(text))
    text = text.replace(/^ *<xs:import namespace="http:\/\/www\.w3\.org\/XML\/1998\/namespace"[^>]*\/>\n/m, '');
  return { text, names: [...new Set([...cut.matchAll(/\bname="([^"]+)"/g)].map((m) => m[1]!))] };
}

/** Documentation in a generated schema: left out of the subsets, which only libxml2 reads. */
const ANNOTATION_RE = /^ *<xs:annotation>\n(?: *<xs:documentation>[^<]*<\/xs:documentation>\n)+ *<\/xs:annotation>\n/gm;
/** At most this many subset schemas are kept per namespace set; beyond, the whole schemas are used. */
const MAX_SUBSETS = 256;

/** Hand-written schemas copied as they are (envelopes, and xml.xsd imported by the SOAP 1.2 one). */
const STATIC_FILES = ['xml.xsd', 'soap11-envelope.xsd', 'soap12-envelope.xsd'] as const;

export interface SchemaBundle {
  /** Absolute path of the bundle schema importing all the others. */
  readonly path: string;
  /** Directory holding the bundle and the substituted schemas. */
  readonly dir: string;
  /** The parsed bundle document (compiled by libxml2 on each validate()). */
  readonly doc: Document;
  /**
   * The bundle for one document. libxmljs2 0.35 compiles the schema inside every validate(), and
   * the cost grows with the schema (a one-element schema: 7 µs; one group schema: 660 µs), so each
   * document gets the smallest schema that gives the same verdict and messages as the whole:
   * - only the imports whose namespace URI occurs in its text: an element, an attribute or an
   *   xsi:type can only be in a namespace the document declares, and a declaration spells the URI
   *   literally; the XML namespace's schema only where "xml:" occurs (its attributes must use the
   *   prefix xml);
   * - for a document up to 64 K characters, of each group schema only the operations' elements and
   *   the types whose names occur in its text as whole name tokens, closed under reference
   *   (generateXsdSubset), and the SOAP envelope schema without its Fault part where none of that
   *   part's names occurs (withoutFault): validation only looks up a global element by the name an
   *   element has in the document (the root, children of lax or strict wildcards) and a type by
   *   the name in an xsi:type attribute, so whatever the document can reach is declared; the rest
   *   is never consulted.
   * A document with character references (`&#`) gets the whole bundle (a name or URI could be
   * spelled with them). At most 256 subsets are kept; beyond, the whole bundle is used.
   */
  docFor(xml: string): Document;
  /**
   * Write the schema files again if any `schema` imports (default: any file) was removed (a tmp
   * cleaner): libxml2 reads the imported files on each validate() and silently skips a missing
   * import, which would reject everything.
   */
  ensureFiles(schema?: Document): void;
}

/** Substitute the default (mock) namespaces of a schema text by the target's. */
export function substituteNamespaces(xsd: string, namespaces: Namespaces): string {
  let out = xsd;
  for (const key of Object.keys(DEFAULT_NAMESPACES) as NsKey[]) {
    out = out.split(`"${escapeAttr(DEFAULT_NAMESPACES[key])}"`).join(`"${escapeAttr(namespaces[key])}"`);
  }
  return out;
}

/** The schema files (name → text) for a namespace set, before the bundle is added. */
export function schemaTexts(namespaces: Namespaces): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of STATIC_FILES) files.set(f, readFileSync(join(SCHEMAS_DIR, f), 'utf8'));
  if (namespaces.book === namespaces.search) {
    // One namespace for both groups: two schemas with one target namespace would declare every
    // type twice, so the generator makes one schema with the elements of all the operations.
    files.set('groups.xsd', generateCombinedXsd(namespaces.book));
  } else {
    for (const key of Object.keys(SCHEMA_FILES) as NsKey[]) {
      const text = readFileSync(join(SCHEMAS_DIR, SCHEMA_FILES[key]), 'utf8');
      files.set(SCHEMA_FILES[key], substituteNamespaces(text, namespaces));
    }
  }
  return files;
}

/** One xs:import of the bundle; `ops` is set for a group schema (generated from the model). */
interface BundleImport {
  readonly ns: string;
  readonly file: string;
  readonly ops?: readonly Operation[];
}

function bundleImports(namespaces: Namespaces): BundleImport[] {
  return [
    { ns: SOAP11_ENV_NS, file: 'soap11-envelope.xsd' },
    { ns: SOAP12_ENV_NS, file: 'soap12-envelope.xsd' },
    ...(namespaces.book === namespaces.search
      ? [{ ns: namespaces.book, file: 'groups.xsd', ops: OPERATIONS }]
      : (Object.keys(SCHEMA_FILES) as NsKey[]).map((k) => ({
          ns: namespaces[k],
          file: SCHEMA_FILES[k],
          ops: OPERATIONS.filter((op) => op.ns === k),
        }))),
  ];
}

function bundleText(dir: string, imports: readonly (readonly [string, string])[]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- Bundle written by src/schema/schema-bundle.ts: imports every schema a response may need. -->',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x-accommodation-conformance:bundle">',
    ...imports.map(
      ([ns, file]) => `  <xs:import namespace="${escapeAttr(ns)}" schemaLocation="${escapeAttr(join(dir, file))}"/>`,
    ),
    '</xs:schema>',
    '',
  ].join('\n');
}

/** Write a file atomically unless it already holds exactly that text (parallel workers share the cache). */
function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const bundles = new Map<string, SchemaBundle>();

/**
 * The cache root: a directory of this user under os.tmpdir(), private (0700). A root that is not
 * ours, is a symbolic link or is writable by others is not used (another user could swap a schema
 * in it); a fresh private directory is made instead.
 */
function cacheRoot(cacheDir: string | undefined): string {
  if (cacheDir !== undefined) return cacheDir;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const root = join(tmpdir(), `accommodation-conformance-xsd${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const st = lstatSync(root);
    if (st.isDirectory() && !st.isSymbolicLink() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0)
      return root;
  } catch {
    // fall through to a private directory
  }
  return mkdtempSync(join(tmpdir(), 'accommodation-conformance-xsd-'));
}

/**
 * The bundle schema for a namespace set: written to the cache directory (once per content, keyed
 * by a hash of the namespaces and the schema texts) and parsed (once per process). Throws when a
 * schema does not compile.
 */
export function schemaBundle(namespaces: Namespaces, cacheDir?: string, subsetsOn = true): SchemaBundle {
  const files = schemaTexts(namespaces);
  const hash = createHash('sha256');
  hash.update(JSON.stringify(namespaces));
  for (const [name, text] of files) hash.update(`\0${name}\0${text}`);
  const digest = hash.digest('hex').slice(0, 20);
  const key = `${cacheDir ?? ''}\0${digest}\0${subsetsOn}`;
  const cached = bundles.get(key);
  if (cached) return cached;

  const dir = join(cacheRoot(cacheDir), digest);
  const path = join(dir, 'bundle.xsd');
  const imports = bundleImports(namespaces);
  const text = bundleText(
    dir,
    imports.map((i) => [i.ns, i.file]),
  );
  const written = new Map<string, string>(files); // every file of the directory: name → text
  written.set('bundle.xsd', text);
  const writeAll = () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [name, t] of written) writeIfChanged(join(dir, name), t);
  };
  const importsOf = new Map<Document, string[]>(); // the files each bundle document imports
  const ensureFiles = (schema?: Document) => {
    for (const name of (schema && importsOf.get(schema)) ?? written.keys()) {
      if (!existsSync(join(dir, name))) {
        writeAll();
        return;
      }
    }
  };
  writeAll();
  const parse = (xsd: string) => libxml.parseXml(xsd, { baseUrl: path, nonet: true, noent: false, huge: false });
  const doc = parse(text);
  importsOf.set(doc, [...written.keys()]);

  // Compile once now so that a broken schema fails here, with libxml2's messages, not on first use.
  const probe = libxml.parseXml('<probe/>', { nonet: true, noent: false, huge: false });
  try {
    probe.validate(doc);
  } catch (e) {
    const details = (probe.validationErrors ?? []).map((v) => v.message.trim()).join('; ');
    throw new Error(`the XSD bundle ${path} does not compile: ${(e as Error).message}${details ? `: ${details}` : ''}`);
  }

  // The envelope schemas without their Fault part, and the names that part declares.
  const faultless = new Map<string, { file: string; names: string[] }>();
  for (const i of imports) {
    const cut = i.ops ? undefined : withoutFault(files.get(i.file)!);
    if (!cut) continue;
    const file = i.file.replace(/\.xsd$/, '.nofault.xsd');
    written.set(file, cut.text);
    writeIfChanged(join(dir, file), cut.text);
    faultless.set(i.file, { file, names: cut.names });
  }
  // Every name a group schema declares (operation elements, then types), per group import.
  const typeNames = allTypes().map((t) => t.name);
  const groupNames = new Map(
    imports
      .filter((i) => i.ops)
      .map((i) => [i, [...new Set([...i.ops!.flatMap(operationElementNames), ...typeNames])]]),
  );
  const subsets = new Map<string, Document>();
  const docFor = (xml: string): Document => {
    if (!subsetsOn || xml.includes('&#')) return doc; // a name or a namespace could be spelled with character references
    const used = imports.filter((i) => xml.includes(i.ns));
    const small = xml.length <= SUBSET_MAX_CHARS;
    if (!small && used.length === imports.length) return doc;
    // Per used import: its file, or for a group schema the subset file of the names mentioned.
    let tokens: Set<string> | undefined;
    const parts = used.map((i): { i: BundleImport; key: string; file?: string; mentioned?: string[] } => {
      if (!small) return { i, key: i.file };
      tokens ??= nameTokens(xml);
      const cut = faultless.get(i.file);
      if (cut) return cut.names.some((n) => tokens!.has(n)) ? { i, key: i.file } : { i, key: cut.file, file: cut.file };
      const names = groupNames.get(i);
      if (!names) return { i, key: i.file };
      const mentioned = names.filter((n) => tokens!.has(n));
      return { i, key: `${i.file}:${mentioned.join(',')}`, mentioned };
    });
    // The whole soap12-envelope.xsd imports xml.xsd itself; otherwise import it as the whole bundle
    // does, unless the text has no "xml:" (an attribute of the XML namespace must use the prefix xml).
    const envelopeImportsXml = parts.some((p) => p.key === 'soap12-envelope.xsd');
    const needsXml = !envelopeImportsXml && (xml.includes('xml:') || xml.includes(XML_NS));
    const subsetKey = parts
      .map((p) => p.key)
      .concat(needsXml ? ['xml.xsd'] : [])
      .join(' ');
    let sub = subsets.get(subsetKey);
    if (sub) return sub;
    if (subsets.size >= MAX_SUBSETS) return doc; // a target that varies its names endlessly: no unbounded cache
    const pairs = parts.map(({ i, key, file: fixed, mentioned }): [string, string] => {
      if (!mentioned) return [i.ns, fixed ?? i.file];
      const file = `${i.file.replace(/\.xsd$/, '')}.subset-${createHash('sha256').update(key).digest('hex').slice(0, 16)}.xsd`;
      if (!written.has(file)) {
        const only = new Set(mentioned);
        const xsd = generateXsdSubset(i.ns, i.ops!, i.file, (n) => only.has(n)).text.replace(ANNOTATION_RE, '');
        written.set(file, xsd);
        writeIfChanged(join(dir, file), xsd);
      }
      return [i.ns, file];
    });
    const withXml = needsXml ? [...pairs, [XML_NS, 'xml.xsd'] as [string, string]] : pairs;
    sub = parse(bundleText(dir, withXml));
    importsOf.set(sub, withXml.map(([, file]) => file).concat(envelopeImportsXml ? ['xml.xsd'] : []));
    subsets.set(subsetKey, sub);
    return sub;
  };
  const bundle = { path, dir, doc, docFor, ensureFiles };
  bundles.set(key, bundle);
  return bundle;
}
