/**
 * What the diagnosis tests share: outcomes as the checks record them, and signs made with
 * node:crypto over contents written out by hand (never with the kit's signer or its
 * catalogue of mistakes), so that the expected values do not come from the code tested.
 */
import { createHash } from 'node:crypto';
import type { OpOutcome } from '../../src/checks/outcome.js';
import type { Operation } from '../../src/protocol/operations.js';
import type { Json } from '../../src/subjects/subject.js';

/** The fields every case has. */
export const BASE = { comment: 'written for the test', spec: ['5.1'], readings: [] as string[], flags: [] as string[] };

/** SHA-256 hex of a content given as text (UTF-8) or bytes. */
export function sha(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** A failed operation whose subject answered `got`. */
export function failed(op: Operation, got: Json): OpOutcome {
  return { op, status: 'fail', expected: null, got, message: 'failed in the test' };
}

/** A verify answer that accepts. */
export const ACCEPTED: Json = { result: { valid: true } };

/** A verify answer that refuses. */
export const REFUSED: Json = { result: { valid: false, reason: 'no' } };
