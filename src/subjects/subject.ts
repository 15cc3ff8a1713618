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
  /**
   * What went wrong outside any case, in words, for the run to say after it (a testee's lines
   * that were no request's answer): never charged to a case. Left out, or empty: nothing did.
   */
  warnings?(): readonly string[];
  /** Releases what the subject holds (a child process, a server). */
  close?(): Promise<void>;
  /**
   * Stops the subject at once, without a word to it and without waiting (a second Ctrl-C: a
   * testee's whole process group is killed). Left out: there is nothing to stop but by {@link close}.
   */
  abort?(): void;
}

/** How the run names an HTTP target, a gateway or a merchant (`--name`, `--version`), which says nothing of itself. */
export interface TargetNaming {
  /** How reports name it (default: `<role> <host>`, e.g. `gateway 127.0.0.1:8080`). */
  readonly name?: string;
  /** Its version (default: none). */
  readonly version?: string;
}

/**
 * How reports and the terminal name an implementation: its name, then its version when it
 * has one (a gateway or merchant named by its host has none: `''`, left out rather than
 * called unknown).
 * @param implementation - who the subject says it is
 * @returns e.g. `pgv2kit-reference 0.1.0`, `gateway 127.0.0.1:8080`
 * @example
 * describeImplementation({
 *   name: 'gateway 127.0.0.1:8080',
 *   version: '',
 *   language: 'http',
 * }) // 'gateway 127.0.0.1:8080'
 */
export function describeImplementation(implementation: Pick<Implementation, 'name' | 'version'>): string {
  const version = implementation.version.trim();
  return version === '' ? implementation.name : `${implementation.name} ${version}`;
}
