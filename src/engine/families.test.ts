import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../contract/catalogue.js';
import { sequencePlan } from '../../test/support/sequences.js';
import { planUnits } from './plan.js';
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
