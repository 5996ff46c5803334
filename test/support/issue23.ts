import { FAULTS } from '../../src/mock/faults.js';

/**
 * Faults of the mock that no honest run can see, since issue 23 made the harness stateful: a
 * state-changing call uses a booking of its own per binding, and its bindings are compared by
 * outcome and shape, the values belonging to each booking. A fault that shows only as a value one
 * binding answers differently for the same booking of a state-changing operation is out of any
 * run's reach (a booking cancels once: two bindings never cancel the same one). Each says why in its
 * own entry (`undetectable`, src/mock/faults.ts); the suites that pinpoint faults leave these out,
 * the self-test runs them and requires that no finding be raised, and a test holds the list to this
 * description. The faults that a correct stateful run can catch were moved where it does
 * (get-utf8-as-latin1, soap12-truncates-long-strings: the write→read sequence of UpdateSpecialRequest;
 * post-rejects-int-max: GetSpecialRequest's generated ids).
 */
export const ON_A_BOOKING_OF_ITS_OWN: readonly string[] = FAULTS.filter((f) => f.undetectable !== undefined).map(
  (f) => f.name,
);
