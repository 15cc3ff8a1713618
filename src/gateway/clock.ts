/**
 * The gateway's clock (tests pass their own).
 * @module
 */

/** The gateway's clock: milliseconds since the epoch. Injected by tests to move time (expiry). */
export interface Clock {
  now(): number;
}
