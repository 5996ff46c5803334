/**
 * Bench-only prototype: the DocumentValidator of src/schema/xsd-validator.ts on libxml2-wasm instead
 * of libxmljs2, so the engine choice rests on a measurement. NOT the shipped engine.
 *
 * The same rules as the shipped validator: size cap first, DOCTYPE refused before parsing, no
 * entity substitution (no XML_PARSE_NOENT), no external entities or DTDs (XML_PARSE_NO_XXE),
 * XML_PARSE_NONET, no XML_PARSE_HUGE, no DOM navigation of the document (parse and validate only),
 * the document freed at once (dispose) rather than at the next garbage collection.
 * The schemas are served from memory by an input provider that knows only them: libxml2-wasm has
 * no network client and, without a registered provider, no file access.
 *
 * Unlike libxmljs2 0.35, the bundle schema is compiled ONCE (XsdValidator.fromDoc) and kept.
 */
import {
  ParseOption,
  XmlBufferInputProvider,
  XmlDocument,
  XmlParseError,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import { hasDoctype, SOAP11_ENV_NS, SOAP12_ENV_NS } from '../../src/xml/tree.js';
import { DEFAULT_MAX_BYTES } from '../../src/schema/xsd-validator.js';
import { schemaTexts } from '../../src/schema/schema-bundle.js';
import { SCHEMA_FILES } from '../../src/schema/xsd.js';
import type { DocumentValidator, LibxmlOutcome } from '../../src/schema/types.js';
import type { Namespaces, NsKey } from '../../src/contract/catalogue.js';
import { escapeAttr } from '../../src/core/escape.js';

/** Parse options: the libxmljs2 { noent: false, nonet: true, huge: false } plus no external entities. */
export const TARGET_PARSE = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;
/**
 * For a target document given as (already decoded) text: libxml2-wasm hands the string to libxml2
 * as UTF-8 but libxml2 would still decode it as the declaration says (iso-8859-1: mojibake, utf-16:
 * an error); IGNORE_ENC reads it as the UTF-8 it is, as libxmljs2 does with a string.
 */
export const DOCUMENT_PARSE = TARGET_PARSE | ParseOption.XML_PARSE_IGNORE_ENC;

const VIRTUAL_DIR = '/accommodation-conformance-schemas';
let providerFiles: XmlBufferInputProvider | undefined;

/** Compile the bundle schema (envelopes + groups, namespaces substituted) once. */
export function compileWasmBundle(namespaces: Namespaces): XsdValidator {
  const files = schemaTexts(namespaces);
  const dir = `${VIRTUAL_DIR}/${Math.random().toString(36).slice(2)}`;
  const enc = new TextEncoder();
  if (!providerFiles) {
    providerFiles = new XmlBufferInputProvider({});
    xmlRegisterInputProvider(providerFiles);
  }
  for (const [name, text] of files) providerFiles.addBuffer(`${dir}/${name}`, enc.encode(text));
  const imports: [string, string][] = [
    [SOAP11_ENV_NS, 'soap11-envelope.xsd'],
    [SOAP12_ENV_NS, 'soap12-envelope.xsd'],
    ...(namespaces.book === namespaces.search
      ? [[namespaces.book, 'groups.xsd'] as [string, string]]
      : (Object.keys(SCHEMA_FILES) as NsKey[]).map((k): [string, string] => [namespaces[k], SCHEMA_FILES[k]])),
  ];
  const bundle = [
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:x-accommodation-conformance:bundle">',
    ...imports.map(
      ([ns, f]) => `<xs:import namespace="${escapeAttr(ns)}" schemaLocation="${escapeAttr(`${dir}/${f}`)}"/>`,
    ),
    '</xs:schema>',
  ].join('');
  const doc = XmlDocument.fromString(bundle, { url: `${dir}/bundle.xsd`, option: TARGET_PARSE });
  try {
    return XsdValidator.fromDoc(doc);
  } finally {
    doc.dispose();
  }
}

function where(d: { line?: number; col?: number }): string {
  const parts = [];
  if (d.line) parts.push(`line ${d.line}`);
  if (d.col) parts.push(`column ${d.col}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function createWasmDocumentValidator(
  namespaces: Namespaces,
  options: { maxBytes?: number } = {},
): DocumentValidator & { dispose(): void } {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const validator = compileWasmBundle(namespaces);
  return {
    validate(xml: string): LibxmlOutcome {
      if (xml.length > maxBytes || Buffer.byteLength(xml, 'utf8') > maxBytes) {
        return { wellFormedError: `document larger than ${maxBytes} bytes: not parsed`, xsdErrors: [] };
      }
      if (hasDoctype(xml)) {
        return { wellFormedError: 'document type declaration (<!DOCTYPE) present: not parsed', xsdErrors: [] };
      }
      let doc: XmlDocument;
      try {
        doc = XmlDocument.fromString(xml, { option: DOCUMENT_PARSE });
      } catch (e) {
        const d = e instanceof XmlParseError ? e.details.find((x) => x.level >= 2) : undefined;
        return { wellFormedError: d ? `${d.message.trim()}${where(d)}` : (e as Error).message.trim(), xsdErrors: [] };
      }
      try {
        validator.validate(doc);
        return { xsdErrors: [] };
      } catch (e) {
        if (!(e instanceof XmlValidateError))
          return { xsdErrors: [{ message: `XSD validation could not run: ${(e as Error).message}` }] };
        const errs = e.details
          .filter((d) => d.level >= 2)
          .map((d) => ({
            message: d.message.trim(),
            ...(d.line ? { line: d.line } : {}),
            ...(d.col ? { column: d.col } : {}),
          }));
        return { xsdErrors: errs.length ? errs : [{ message: 'the document is not valid against the schemas' }] };
      } finally {
        doc.dispose();
      }
    },
    dispose: () => validator.dispose(),
  };
}
