/**
 * What a diagnosis says: the known mistake that reproduces an answer (a module of its own,
 * below the runner, which reports it).
 * @module
 */

/** A known mistake that reproduces what the implementation answered. */
export interface Diagnosis {
  /** Stable id of the mistake, e.g. `no-final-lf`. */
  readonly mistake: string;
  /** One line: "your sign equals the sign of the content without its final LF". */
  readonly message: string;
  /** The spec section or reading the correct behaviour follows. */
  readonly ref: string;
}
