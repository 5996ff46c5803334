/** The fault catalogue read: a fault by name, --list-faults, and the problems of the catalogue itself. */
import { describe, expect, test } from 'vitest';
import { catalogueProblems, faultNamed, listFaults, resolveFaults, UnknownFaultError } from './fault-lookup.js';
import type { Fault } from './fault-types.js';
import { FAULTS } from './faults.js';
import { createHandlers } from './handlers.js';

describe('the catalogue read', () => {
  test('catalogueProblems finds a broken entry', () => {
    const bad: Fault = {
      name: 'Bad Name',
      description: '',
      category: 'status',
      operation: 'NoSuchOp',
      bindings: [],
      apply: {},
    };
    expect(catalogueProblems([{ ...faultNamed('post-different-policy-text')!, undetectable: ' ' }])).toEqual([
      'post-different-policy-text: undetectable without a reason',
    ]);
    expect(catalogueProblems([bad, bad])).toEqual(
      expect.arrayContaining([
        'Bad Name: duplicate name',
        'Bad Name: not kebab-case',
        'Bad Name: no operation NoSuchOp',
        'Bad Name: bad bindings',
        'Bad Name: no hook',
        'Bad Name: no description',
      ]),
    );
  });

  test('unknown names are refused with a pointer to --list-faults; known ones resolve once each', () => {
    expect(() => resolveFaults(['nope'])).toThrow(UnknownFaultError);
    expect(() => resolveFaults(['nope'])).toThrow(/unknown fault "nope".*--list-faults/);
    expect(() => createHandlers({ faults: ['charset-missing', 'nope'] })).toThrow(/nope/);
    expect(resolveFaults(['charset-missing', 'charset-missing']).map((f) => f.name)).toEqual(['charset-missing']);
    expect(resolveFaults(undefined)).toEqual([]);
  });

  test('--list-faults lines: name, operation, bindings, description', () => {
    const lines = listFaults();
    expect(lines).toHaveLength(FAULTS.length);
    expect(lines.find((l) => l.startsWith('soap12-drops-list-item '))).toMatch(
      /^soap12-drops-list-item\s+GetMeals\s+soap12\s+SOAP 1\.2 leaves/,
    );
    expect(lines.find((l) => l.startsWith('cancel-booking-result-renamed '))).toMatch(/\sCancelBooking\s+all\s/);
    // A fault no honest run can see says so, and why.
    expect(lines.find((l) => l.startsWith('post-different-policy-text '))).toMatch(
      / \[undetectable: a booking cancels once: .*\]$/,
    );
    expect(lines.filter((l) => l.includes('[undetectable: '))).toHaveLength(
      FAULTS.filter((f) => f.undetectable).length,
    );
  });
});
