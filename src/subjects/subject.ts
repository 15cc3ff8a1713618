/**
 * A subject: any implementation under test, seen through the operations of testee
 * protocol v1. Inputs and answers are the protocol's JSON shapes (bytes as `…B64`),
 * so the same checks run in process (the reference, a module) and over stdio.
 * @module
 */
import type { Operation } from '../protocol/operations.js';

export type { Answer, Implementation, Json, OperationInput } from '../protocol/messages.js';
import type { Answer, Implementation, OperationInput } from '../protocol/messages.js';

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
  /**
   * Why the subject takes no more requests, for good (a testee the session gave up on), or
   * undefined while it works: the run stops starting cases, and the requests it then fails
   * (answered `failed` with `notRun`) are cases that did not run.
   */
  gaveUp?(): string | undefined;
  /** Releases what the subject holds (a child process, a server). */
  close?(): Promise<void>;
}
