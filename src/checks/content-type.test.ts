import { describe, expect, test } from 'vitest';
import { contentType } from './content-type.js';
import { contextFor, documentFor, findingsOf, outcomeOf, skipOf } from '../../test/support/checks.js';
import type { BindingId } from '../contract/catalogue.js';

const ctx = (binding: BindingId, ct: string | null, status = 200) =>
  contextFor('GetMeals', binding, documentFor('GetMeals', binding), { contentType: ct, status });

describe('content_type', () => {
  test.each<[BindingId, string]>([
    ['soap11', 'text/xml; charset=utf-8'],
    ['soap11', 'text/xml; charset=UTF-8'],
    ['soap11', 'text/xml; charset="utf-8"'],
    ['soap11', 'text/xml;charset=utf-8'],
    ['soap11', 'Text/XML ;  Charset = "UTF-8" '],
    ['get', 'text/xml; charset=utf-8'],
    ['post', 'text/xml; foo=bar; charset=utf-8'],
    ['soap12', 'application/soap+xml; charset=utf-8'],
    ['soap12', 'application/soap+xml; action="http://mock.accommodation.test/search/1/GetMeals"; charset=utf-8'],
    ['soap12', 'application/soap+xml;charset=utf-8;action="urn:x"'],
  ])('passes on %s with %s', (binding, ct) => {
    expect(findingsOf(contentType, ctx(binding, ct))).toEqual([]);
  });

  test('reports text/xml on SOAP 1.2', () => {
    const f = findingsOf(contentType, ctx('soap12', 'text/xml; charset=utf-8'));
    expect(f).toEqual([
      expect.objectContaining({
        path: 'http:content-type',
        expected: 'application/soap+xml',
        actual: 'text/xml',
        message: 'media type text/xml instead of application/soap+xml for the SOAP 1.2 binding',
      }),
    ]);
  });

  test.each<BindingId>(['soap11', 'get', 'post'])('reports application/soap+xml on %s', (binding) => {
    expect(findingsOf(contentType, ctx(binding, 'application/soap+xml; charset=utf-8'))[0]!.actual).toBe(
      'application/soap+xml',
    );
  });

  test('reports application/xml where text/xml is required', () => {
    expect(findingsOf(contentType, ctx('get', 'application/xml; charset=utf-8'))).toHaveLength(1);
  });

  test('reports a missing charset', () => {
    const [f] = findingsOf(contentType, ctx('soap11', 'text/xml'));
    expect(f!.message).toContain('missing charset parameter');
  });

  test.each(['iso-8859-1', 'utf8', 'utf-16'])('reports charset %s', (cs) => {
    const [f] = findingsOf(contentType, ctx('post', `text/xml; charset=${cs}`));
    expect(f).toMatchObject({ expected: 'utf-8', actual: cs });
  });

  test('reports both a wrong media type and a wrong charset', () => {
    expect(findingsOf(contentType, ctx('get', 'text/html; charset=iso-8859-1'))).toHaveLength(2);
  });

  test('reports a missing and a malformed header', () => {
    expect(findingsOf(contentType, ctx('get', null))[0]!.message).toContain('missing Content-Type header');
    expect(findingsOf(contentType, ctx('get', 'xml'))[0]!.message).toContain('malformed Content-Type');
  });

  test('skips a non-200 answer (status_code reports it) and wrong-credentials cases', () => {
    expect(skipOf(contentType, ctx('get', 'text/plain', 500))).toContain('reported by status_code');
    const wc = contextFor('GetMeals', 'get', 'x', { contentType: 'text/plain', caseKind: 'wrong-credentials' });
    expect(outcomeOf(contentType, wc)).toBe('not applicable');
  });
});
