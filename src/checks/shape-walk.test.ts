import { describe, expect, test } from 'vitest';
import { shapeFindings } from './shape-walk.js';
import { NS } from '../../test/support/checks.js';
import { parseXml } from '../xml/tree.js';

const SEARCH = NS.search;

describe('shapeFindings (reused by validate FILE)', () => {
  test('walks a bare element with a given root path and namespace', () => {
    const root = parseXml(`<getThemesResult xmlns="${SEARCH}"><themes><theme id="x"/></themes></getThemesResult>`).root;
    expect(shapeFindings(root, 'GetThemesResult', '/getThemesResult', SEARCH)).toEqual([
      expect.objectContaining({
        check: 'shape',
        path: '/getThemesResult/themes/theme/@id',
        message: 'invalid xs:int value "x" of attribute id: not an integer (optional sign, digits only)',
      }),
    ]);
    expect(shapeFindings(root, 'GetThemesResult', '/r', SEARCH, { check: 'validate' })[0]!.check).toBe('validate');
  });
  test('nil at the root is allowed only when told', () => {
    const root = parseXml(
      `<searchTransfersResult xmlns="${SEARCH}" xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/>`,
    ).root;
    expect(shapeFindings(root, 'SearchTransfersResult', '/s', SEARCH, { nillable: true })).toEqual([]);
    expect(shapeFindings(root, 'SearchTransfersResult', '/s', SEARCH)).toHaveLength(1);
  });
});
