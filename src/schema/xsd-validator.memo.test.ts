// The validator's memo of verdicts (xsd-validator.ts): a text validated again gets the verdict it got
// the first time, the same as a fresh validator gives, and a large text is never kept.
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAMESPACES } from '../contract/catalogue.js';
import { createDocumentValidator } from './xsd-validator.js';

const NS = DEFAULT_NAMESPACES;
const valid =
  `<getLanguagesResult `
  + `xmlns="${NS.search}"><languages><language><isoCode>en</isoCode><name>English</name></language></languages></getLanguagesResult>`;
const invalid =
  `<getLanguagesResult `
  + `xmlns="${NS.search}"><languages><language><isoCode>en</isoCode><bogus/></language></languages></getLanguagesResult>`;

describe('validator memo', () => {
  it('gives a text validated again the verdict of a fresh validator, valid and invalid alike', () => {
    const v = createDocumentValidator(NS);
    for (const doc of [valid, invalid, '<not-closed>']) {
      const first = v.validate(doc);
      const again = v.validate(doc);
      expect(again).toBe(first);
      expect(again).toEqual(createDocumentValidator(NS).validate(doc));
    }
    expect(v.validate(valid).xsdErrors).toEqual([]);
    expect(v.validate(invalid).xsdErrors.length).toBeGreaterThan(0);
    expect(v.validate('<not-closed>').wellFormedError).toBeDefined();
  });

  it('does not keep a text over 64 KiB (validated again each time)', () => {
    const v = createDocumentValidator(NS);
    const big = valid.replace('<name>English</name>', `<name>${'x'.repeat(70 * 1024)}</name>`);
    const first = v.validate(big);
    const again = v.validate(big);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
