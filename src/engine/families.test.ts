import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../contract/catalogue.js';
import { sequencePlan } from '../../test/support/sequences.js';
import { planUnits } from './plan.js';
import { FAMILIES } from '../sequences/index.js';
import { resolveRunSettingsFlags } from './settings.js';

const families = (units: ReturnType<typeof planUnits>) => [
  ...new Set(units.flatMap((u) => (u.sequence ? [u.sequence.family] : []))),
];

describe('families switched by name (--families, --skip-families)', () => {
  test(
    '--skip-families leaves a family out of the plan, --families keeps only those named; each from its '
      + 'flag, variable or config key',
    () => {
      const plan = sequencePlan('http://x.test', OPERATIONS);
      expect(families(planUnits(plan))).toContain('race-write');
      const skip = resolveRunSettingsFlags({ 'skip-families': 'race-write,id-probe' }, {});
      expect(skip.families).not.toContain('race-write');
      expect(families(planUnits({ ...plan, families: skip.families! }))).not.toContain('race-write');
      expect(families(planUnits({ ...plan, families: skip.families! }))).toContain('cancel');
      expect(resolveRunSettingsFlags({}, { CONFORMANCE_FAMILIES: 'cancel' }).families).toEqual(['cancel']);
      expect(resolveRunSettingsFlags({}, { CONFORMANCE_SKIP_FAMILIES: 'cancel' }).families).not.toContain('cancel');
      expect(resolveRunSettingsFlags({}, {}).families).toBeUndefined();
    },
  );

  test(
    "a family that uses another family's bookings again comes with it: naming it brings that family in, "
      + 'leaving that family out leaves it out (before, --families race-write ran it without write-read: '
      + 'skipped, and the run INCOMPLETE blaming the pool)',
    () => {
      expect(resolveRunSettingsFlags({ families: 'race-write' }, {}).families).toEqual(['write-read', 'race-write']);
      const noCancel = resolveRunSettingsFlags({ 'skip-families': 'cancel' }, {}).families!;
      expect(noCancel).not.toContain('use-after-cancel');
      expect(noCancel).toContain('race-cancel');
      // Every planned sequence that uses bookings again names the family its own family follows.
      const plan = sequencePlan('http://x.test', OPERATIONS);
      for (const u of planUnits(plan)) {
        const after = u.sequence?.after;
        if (after) expect(FAMILIES.find((f) => f.name === u.sequence!.family)?.follows, u.caseId).toBe(after);
      }
      // And a plan of one such family plans what it follows, so none of its sequences is left without bookings.
      const one = planUnits({
        ...plan,
        families: resolveRunSettingsFlags({ families: 'use-after-cancel' }, {}).families!,
      });
      expect(families(one)).toEqual(expect.arrayContaining(['cancel', 'use-after-cancel']));
    },
  );
  test('an unknown name is refused, naming where it came from, with a "did you mean"', () => {
    expect(() => resolveRunSettingsFlags({ families: 'race-wrte' }, {})).toThrow(
      /race-wrte \(did you mean race-write\?\)/,
    );
    expect(() => resolveRunSettingsFlags({ families: 'race-wrte' }, {})).toThrow(/--families/);
    expect(() => resolveRunSettingsFlags({}, { CONFORMANCE_SKIP_FAMILIES: 'Cancel' })).toThrow(
      /CONFORMANCE_SKIP_FAMILIES.*did you mean cancel\?/,
    );
  });
});
