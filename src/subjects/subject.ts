/**
 * A subject: any implementation under test, seen through the operations of testee
 * protocol v1. Inputs and answers are the protocol's JSON shapes (bytes as `…B64`),
 * so the same checks run in process (the reference, a module) and over stdio.
 * @module
 */
import type { Operation } from './operations.js';

/** JSON values as the protocol carries them. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An operation's input: a JSON object of the protocol's shape. */
export type OperationInput = { [key: string]: Json };

/**
 * A subject's answer to one operation, as protocol v1 defines it; `failed` is the
 * runner's own record of a testee that crashed, hung or answered out of protocol.
 */
export type Answer =
  | { readonly result: { readonly [key: string]: Json } }
  | { readonly rejected: { readonly reason: string } }
  | { readonly unsupported: { readonly reason: string } }
  | { readonly failed: { readonly reason: string } };

/** Who the subject is (protocol v1 handshake). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly language: string;
}

/** An implementation under test. */
export interface Subject {
  readonly implementation: Implementation;
  /** The operations it offers; cases of other operations are skipped. */
  readonly operations: readonly Operation[];
  /**
   * Operation names it advertised that protocol v1 does not know (a typo such as
   * `signature.sgn`, or a kit-internal name): never run, reported on every run.
   */
  readonly unknownOperations?: readonly string[];
  /**
   * Runs one operation.
   * @param op - the operation
   * @param input - its input, protocol v1 shape
   * @param caseId - the case being run (protocol v1 `id`)
   */
  call(op: Operation, input: OperationInput, caseId: string): Promise<Answer>;
  /** Releases what the subject holds (a child process, a server). */
  close?(): Promise<void>;
}
