/**
 * The two testees the protocol benchmarks compare, started the way `pgv2kit run
 * --testee` starts a testee: the Node example adapter (the kit's reference behind
 * protocol 1) and the echo testee (no work: the cost floor).
 * @module
 */
import { fileURLToPath } from 'node:url';
import type { Operation } from '../dist/index.js';
import type { TesteeOptions } from '../dist/protocol/testee.js';

/** The repository root: the testee commands run there. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The Node example adapter (it imports the built dist/). */
export const ADAPTER_COMMAND = 'node examples/node-adapter/adapter.mjs';

/**
 * The echo testee's command line, offering the given operations.
 * @param operations - what its ready line lists (the adapter's, so both get the same cases)
 * @returns the command
 * @example echoCommand(['signature.sign']) // 'node bench/echo-testee.mjs signature.sign'
 */
export function echoCommand(operations: readonly Operation[]): string {
  return `node bench/echo-testee.mjs ${operations.join(',')}`;
}

/**
 * Session options for a benchmark: the runner's defaults (write-ahead window 64), a
 * generous timeout (a round must never fail on time), problems kept for the report.
 * @param command - the testee command
 * @param log - receives the session's log lines
 * @returns the options
 * @example testeeOptions(ADAPTER_COMMAND, [])
 */
export function testeeOptions(command: string, log: string[]): TesteeOptions {
  return { command, cwd: ROOT, timeoutMs: 30_000, log: (line) => log.push(line) };
}
