/**
 * Faults of the mock that a run no longer sees, by issue 23's design, and that belong on an operation
 * that changes nothing (src/mock/ is the mock's helper's to change): each is about a state-changing
 * operation, and shows only as a value one binding answers differently for the same booking, or
 * through a generated booking id. A state-changing call now uses a booking of its own per binding from
 * the pool (never a generated id, which could be a real customer's booking), and its bindings are
 * compared by outcome only: the values belong to each booking. The suites that pinpoint faults leave
 * these out by name, and a test holds the list to that description.
 */
export const ON_A_BOOKING_OF_ITS_OWN: readonly string[] = ['post-different-policy-text', 'get-utf8-as-latin1', 'soap12-truncates-long-strings', 'post-rejects-int-max'];
