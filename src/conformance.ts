/**
 * A conformance run as `pgv2kit run` makes it, for the CLI and the library alike: every
 * selected case and every property against the subject, with the reference gateway started
 * for the client-role cases when the subject offers client operations — unless told otherwise.
 * @module
 */
import { startClientGateway } from './roles/client/reference-gateway.js';
import { DEFAULT_PROPERTY_RUNS } from './runner/properties.js';
import type { RunResult } from './runner/result.js';
import type { GivenGateway } from './checks/context.js';
import { PROPERTY_SELECTABLES, runCases, type RunOptions } from './runner/run.js';
import { selectCases } from './runner/select.js';
import { liveCases } from './vectors/load.js';

/** What to run, against what: {@link RunOptions}, with the properties run unless `properties: false`. */
export type ConformanceOptions = RunOptions & {
  /**
   * A gateway the plain client cases run against instead of the kit's own (`run --testee X --gateway URL`); the
   * cases that need a staged scenario still run against the kit's.
   */
  readonly clientGateway?: GivenGateway;
};

/**
 * Runs a conformance run: the cases (root causes first), the properties (default: {@link
 * DEFAULT_PROPERTY_RUNS} inputs each, at a random seed the result records; `false` leaves them
 * out) and the client-role cases against the reference gateway, started here and stopped at the
 * end (unless `context` brings one).
 * @param options - {@link ConformanceOptions}
 * @returns the run's result
 * @throws {SelectionError} when a pattern of the selection matches no case
 * @example
 * const run = await runConformance({
 *   set: loadVectorSet(),
 *   subject,
 *   target: { kind: 'testee', description: 'my adapter' },
 *   selection: { only: ['signature.payment-create'], skip: [] },
 * });
 */
export async function runConformance(options: ConformanceOptions): Promise<RunResult> {
  const properties = options.properties ?? { runs: DEFAULT_PROPERTY_RUNS };
  const gateway = options.context
    ? undefined
    : await startClientGateway(
        selectCases(liveCases(options.set), options.selection ?? { only: [], skip: [] }, PROPERTY_SELECTABLES),
        options.subject,
        options.clientGateway,
      );
  try {
    return await runCases({ ...options, properties, ...(gateway ? { context: gateway.context } : {}) });
  } finally {
    await gateway?.close();
  }
}
