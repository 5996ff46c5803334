import { describe, expect, test } from 'vitest';
import { firstInvalidUtf8, xmlWellformed } from './xml-wellformed.js';
import { contextFor, documentFor, findingsOf, skipOf } from '../../test/support/checks.js';

const doc = (o: Parameters<typeof documentFor>[2] = {}) => documentFor('GetLanguages', 'soap11', { full: true, ...o });

describe('xml_wellformed', () => {
  test.each([
    ['double-quoted declaration', doc()],
    ['single-quoted declaration', doc({ decl: 'single' })],
    ['no declaration', doc({ decl: 'none' })],
    ['declaration without encoding', doc({ decl: { text: '<?xml version="1.0"?>' } })],
    ['UTF-8 in capitals', doc({ decl: { text: '<?xml version="1.0" encoding="UTF-8"?>' } })],
    ['pretty-printed with CRLF', doc({ indent: '\t', eol: '\r\n' })],
  ])('passes with %s', (_, body) => {
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body))).toEqual([]);
  });

  test('passes with a UTF-8 BOM and non-ASCII text', () => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(doc().replace('>sample<', '>Français – 日本語<'), 'utf8'),
    ]);
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body))).toEqual([]);
  });

  test('passes with us-ascii declared over ASCII bytes', () => {
    const body = doc({ decl: { text: '<?xml version="1.0" encoding="us-ascii"?>' } });
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body))).toEqual([]);
  });

  test('reports a document that is not well-formed (libxml2 decides, even where the tree reader is lenient)', () => {
    const body = doc().replace('</isoCode>', '</isocode>');
    const [f, ...rest] = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ check: 'xml_wellformed', path: '/' });
    expect(f!.message).toMatch(/^body not well-formed XML: .*isoCode/);
  });

  test('reports a truncated document', () => {
    const body = doc().slice(0, -40);
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body))[0]!.message).toContain(
      'not well-formed',
    );
  });

  test('reports a non-XML body and an empty body', () => {
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'get', 'Server Error'))).toHaveLength(1);
    expect(findingsOf(xmlWellformed, contextFor('GetLanguages', 'get', ''))[0]!.message).toContain('empty body');
  });

  test('reports an undeclared prefix', () => {
    const body = doc().replace('<isoCode>', '<x:isoCode>').replace('</isoCode>', '</x:isoCode>');
    const f = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/prefix x .*not defined/);
  });

  test('reports a DOCTYPE, which the tree reader refuses', () => {
    const body = doc({ decl: { text: '<?xml version="1.0"?><!DOCTYPE Envelope [<!ENTITY a "b">]>' } });
    const f = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toMatch(/DOCTYPE/);
  });

  test('reports ISO-8859-1 declared while the bytes and the header are UTF-8', () => {
    const body = doc({ decl: { text: '<?xml version="1.0" encoding="ISO-8859-1"?>' } }).replace(
      '>sample<',
      '>Français<',
    );
    const [f, ...rest] = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(rest).toEqual([]);
    expect(f!.message).toContain('encoding "ISO-8859-1" contradicting the Content-Type charset "utf-8"');
  });

  test('reports ISO-8859-1 declared over UTF-8 bytes when the header names no charset', () => {
    const body = doc({ decl: { text: '<?xml version="1.0" encoding="ISO-8859-1"?>' } }).replace(
      '>sample<',
      '>Français<',
    );
    const [f] = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body, { contentType: 'text/xml' }));
    expect(f!.message).toContain('over bytes that are UTF-8');
  });

  test('reports invalid UTF-8 bytes with their offset', () => {
    const text = doc();
    const at = text.indexOf('>sample<') + 1;
    const body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xe9]), Buffer.from(text.slice(at))]);
    const [f, ...rest] = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(rest).toEqual([]);
    expect(f!.message).toBe(`invalid utf-8 byte sequence at byte offset ${at} (byte 0xe9)`);
  });

  test('reports Latin-1 bytes declared as such under a UTF-8 header (the bytes are not UTF-8)', () => {
    const body = Buffer.from(
      doc({ decl: { text: "<?xml version='1.0' encoding='iso-8859-1'?>" } }).replace('>sample<', '>Fran\u00e7ais<'),
      'latin1',
    );
    const f = findingsOf(xmlWellformed, contextFor('GetLanguages', 'soap11', body));
    expect(f.map((x) => x.message)).toEqual([
      expect.stringMatching(/^invalid utf-8 byte sequence at byte offset \d+ \(byte 0xe7\)$/),
    ]);
  });

  test('skips a non-200 answer', () => {
    expect(skipOf(xmlWellformed, contextFor('GetLanguages', 'get', 'oops', { status: 500 }))).toContain('status_code');
  });
});

describe('firstInvalidUtf8', () => {
  test.each<[number[], number]>([
    [[0x41, 0xc3, 0xa9], -1],
    [[0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], -1],
    [[0x41, 0xc3], 1],
    [[0xc0, 0x80], 0],
    [[0xed, 0xa0, 0x80], 0],
    [[0x41, 0x80], 1],
    [[0xf5, 0x80, 0x80, 0x80], 0],
  ])('%j → %i', (bytes, at) => {
    expect(firstInvalidUtf8(Buffer.from(bytes))).toBe(at);
  });
});
