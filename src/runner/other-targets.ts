/**
 * Which selected cases a target runs, and which belong to other targets: a case whose every
 * operation is kit-internal (upload.formCheck, gateway.*, merchant.*) and not offered by the
 * target is left to the reference and the roles that run those — never sent to a testee, never
 * counted. `run --list` counts by this rule and runCases (run.ts) runs by it; test/cli/counts.test.ts
 * holds the list's numbers to the run's.
 * @module
 */
import { caseOperations } from '../roles/run-case.js';
import { isKitOperation, type Operation } from '../protocol/operations.js';
import type { VectorCase } from '../vectors/types.js';

/**
 * Whether a case is for other targets than one offering these operations.
 * @param c - the case
 * @param offered - the target's operations
 * @returns true when every operation of the case is kit-internal and not offered
 * @example forOtherTargets(vectorCase('gateway.credentials-valid'), PROTOCOL_OPERATIONS) // true
 */
export function forOtherTargets(c: VectorCase, offered: readonly Operation[]): boolean {
  return caseOperations(c).every((op) => isKitOperation(op) && !offered.includes(op));
}

/**
 * The line that says how many cases (and properties) a selection holds, and for whom.
 * @param counts - the selected cases, those left to other targets, the properties, the target's name
 * @returns e.g. `502 cases and 11 properties selected for my-sdk: 407 of the cases for it, 95 for other
 *   targets (kit-internal operations)`
 * @example selectionLine({ cases: 3, others: 0, properties: 0, name: 'x' }) // '3 cases selected for x'
 */
export function selectionLine(counts: {
  readonly cases: number;
  readonly others: number;
  readonly properties: number;
  readonly name: string;
}): string {
  const properties =
    counts.properties > 0 ? ` and ${counts.properties} propert${counts.properties === 1 ? 'y' : 'ies'}` : '';
  const head = `${counts.cases} case${counts.cases === 1 ? '' : 's'}${properties} selected for ${counts.name}`;
  if (counts.others === 0) return head;
  return (
    `${head}: ${counts.cases - counts.others} of the cases for it, ${counts.others} for other targets ` +
    '(kit-internal operations, which it does not offer)'
  );
}
