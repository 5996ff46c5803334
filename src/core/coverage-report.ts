/** What a run exercised of each operation × binding (RunReport.coverage; docs/coverage.md). */

/** A form an element or attribute of an answer may take besides holding a value (coverage). */
export type AnswerForm = 'nil' | 'empty' | 'absent';

/**
 * One path of an answer's type model in a coverage cell: whether any answer held it, and which of its other forms were
 * seen.
 */
export interface CoveragePath {
  /**
   * `/getMealsResult/meals/meal/@id`: the result element, then fields, list items and attributes by name (`*`: an item
   * of any name).
   */
  readonly path: string;
  /** Some answer held it. */
  readonly seen: boolean;
  /**
   * Each form the model allows it besides a value (nil where nillable, empty for a list or a string, absent where
   * optional): whether it was seen.
   */
  readonly forms?: Readonly<Partial<Record<AnswerForm, boolean>>>;
}

/** One request parameter in a coverage cell: the kinds of value sent, of those it can be sent as. */
export interface CoverageParam {
  readonly name: string;
  /**
   * Kinds sent (absent, empty, valid, boundary, invalid), of `possible`; a kind outside `possible` (a required one left
   * out) is listed but not counted.
   */
  readonly sent: readonly string[];
  readonly possible: readonly string[];
  /** A parameter of an enumeration of the type model: its values sent, and those never sent. */
  readonly enumSent?: readonly string[];
  readonly enumNotSent?: readonly string[];
}

/** What the run exercised of one operation × binding (docs/coverage.md). */
export interface CoverageCell {
  readonly operation: string;
  readonly binding: string;
  /**
   * (answer paths seen + parameter kinds sent) / (answer paths + parameter kinds possible), in percent, one decimal.
   */
  readonly percent: number;
  /** Requests sent, and answers read (of which answers to probes of a state-changing operation). */
  readonly requests: number;
  readonly answers: number;
  readonly probeAnswers?: number;
  readonly answerPaths: { readonly seen: number; readonly total: number };
  readonly requestKinds: { readonly sent: number; readonly total: number };
  /** Outcomes seen and how often: `accepted`, `rejected: ErrorType X`, `rejected: SOAP fault (HTTP 500)`, ... */
  readonly outcomes: Readonly<Record<string, number>>;
  readonly params: readonly CoverageParam[];
  readonly paths: readonly CoveragePath[];
  /** The paths no answer held: their checks never ran on real data. */
  readonly neverSeen: readonly string[];
}

/** The run's coverage (RunReport.coverage): per cell, and for the run. */
export interface CoverageReport {
  /** The run's figure: the cells' counts summed, as a cell's percent. */
  readonly percent: number;
  readonly answerPaths: { readonly seen: number; readonly total: number };
  readonly requestKinds: { readonly sent: number; readonly total: number };
  /** --min-coverage: below it the run is INCOMPLETE (exit 6). */
  readonly min?: { readonly percent: number; readonly source: string };
  /**
   * Why the figure is not the run's (a shard's cases only): --min-coverage is then judged by `conformance merge`, on
   * all shards.
   */
  readonly partial?: string;
  /** What the figures leave out. */
  readonly note: string;
  readonly cells: readonly CoverageCell[];
}
