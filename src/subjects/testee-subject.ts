/**
 * A subject over testee protocol v1: the implementation under test as a child
 * process (`pgv2kit run --testee "<command>"`).
 * @module
 */
import { startTestee, type TesteeOptions, type TesteeSession } from '../protocol/testee.js';
import { PROTOCOL_OPERATIONS, type Operation } from '../protocol/operations.js';
import type { Subject } from './subject.js';

/** A subject backed by a testee session. */
export interface TesteeSubject extends Subject {
  /**
   * The session itself (its restarts, for tools and tests): the run reaches the testee only through the members of
   * {@link Subject}.
   */
  readonly session: TesteeSession;
  gaveUp(): string | undefined;
  warnings(): readonly string[];
  close(): Promise<void>;
  abort(): void;
}

/**
 * Starts the testee and wraps it as a subject. Only protocol v1 operations are
 * offered (kit-internal ones are never sent to a testee).
 * @param options - how to start and talk to the testee
 * @returns the subject
 * @throws {TesteeStartError} when the testee cannot be started or never becomes ready
 * @example const s = await createTesteeSubject({ command: 'node examples/node-adapter/adapter.mjs', timeoutMs: 5000 });
 */
export async function createTesteeSubject(options: TesteeOptions): Promise<TesteeSubject> {
  const session = await startTestee(options);
  const operations = session.hello.operations.filter((op): op is Operation =>
    (PROTOCOL_OPERATIONS as readonly string[]).includes(op),
  );
  return {
    session,
    get implementation() {
      return session.hello.implementation;
    },
    operations,
    // names protocol v1 does not know, and kit-internal ones (never sent to a testee): reported by the run
    unknownOperations: [
      ...session.hello.unknownOperations,
      ...session.hello.operations.filter((op) => !(operations as readonly string[]).includes(op)),
    ],
    call: (op, input, caseId) => session.call(caseId, op, input),
    gaveUp: () => session.failure,
    warnings: () => protocolWarnings(session.protocolProblems),
    close: () => session.close(),
    abort: () => session.kill(),
  };
}

// --- internal ---

/** The lines that broke the protocol outside any case, as one warning (run.log has each). */
function protocolWarnings(broken: readonly string[]): string[] {
  if (broken.length === 0) return [];
  return [
    `the testee broke the protocol ${broken.length} time${broken.length === 1 ? '' : 's'} outside any case ` +
      `(run.log has each): ${broken[0]}`,
  ];
}
