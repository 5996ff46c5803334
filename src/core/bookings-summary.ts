/** What a run consumed of its booking pools (RunReport.bookings). */

/** One booking a state-changing call was sent with: consumed by the run. */
export interface BookingUse {
  /** The pool it came from (config key `bookings.<pool>`). */
  readonly pool: string;
  readonly id: string;
  /** A transfer booking's customer email. */
  readonly email?: string;
  readonly operation: string;
  readonly binding: string;
  readonly case: string;
  /** The step of a sequence that sent it. */
  readonly step?: number;
  /** The second account's user name, when the call was sent with its credentials (foreign-account sequences). */
  readonly account?: string;
  /**
   * What the call did to it: "accepted", "rejected (in-band Error …)", "no response (…)": the booking's state is then
   * unknown.
   */
  readonly outcome: string;
}

/** What the run consumed of its booking pools. */
export interface BookingsSummary {
  /** Every booking a call was sent with, in plan order. */
  readonly changed: readonly BookingUse[];
  /** Per pool, the state-changing calls not sent because the pool ran out (absent: none). */
  readonly short?: Readonly<Record<string, number>>;
  /** Per pool, the bookings the run takes (each once, however many calls change it): what a person creates for it. */
  readonly needed?: Readonly<Record<string, number>>;
  /** Per pool, the bookings given; absent when no pool was given at all. */
  readonly given?: Readonly<Record<string, number>>;
  /**
   * Pool bookings found unusable, the pool's fault (issue 40): already cancelled or not on the target.
   * Read before the run: not used, the next of the pool took their place. `spent`: found by their first
   * cancellation (a transfer booking has no read): their calls are not tested, the run is INCOMPLETE.
   */
  readonly unusable?: readonly {
    readonly pool: string;
    readonly id: string;
    readonly found: string;
    readonly spent?: boolean;
  }[];
}
