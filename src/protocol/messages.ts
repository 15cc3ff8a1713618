/**
 * The JSON shapes of testee protocol v1 (docs/PROTOCOL.md): an operation's input, an answer,
 * the implementation a testee says it is. Every subject speaks them, in process or over stdio.
 * @module
 */

/** JSON values as the protocol carries them. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An operation's input: a JSON object of the protocol's shape. */
export type OperationInput = { [key: string]: Json };

/**
 * A subject's answer to one operation, as protocol v1 defines it; `failed` is the
 * runner's own record of a testee that crashed, hung or answered out of protocol
 * (`notRun`: the request was never judged, the session having given up on the testee).
 */
export type Answer =
  | { readonly result: { readonly [key: string]: Json } }
  | { readonly rejected: { readonly reason: string } }
  | { readonly unsupported: { readonly reason: string } }
  | { readonly failed: { readonly reason: string; readonly notRun?: true } };

/** Who the subject is (protocol v1 handshake). */
export interface Implementation {
  readonly name: string;
  /** Its version; `''` when not known (a gateway or merchant given no --version): shown without one. */
  readonly version: string;
  readonly language: string;
}
