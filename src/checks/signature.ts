/**
 * Signature cases (spec 5.1, 5.2; R1–R7): a signer must build the expected content
 * and sign; a verifier must refuse an invalid candidate's sign (and may accept an
 * acceptable one).
 * @module
 */
import { formatAuthorization } from '../scheme/authorization.js';
import { bytesEqual, fromBase64, toBase64 } from '../scheme/bytes.js';
import type { Json } from '../subjects/subject.js';
import { bodyBytes, contentBytes } from '../vectors/fields.js';
import type { SignatureCase } from '../vectors/types.js';
import { callOp, defineCheck, judgeValid, nonResult } from './check.js';
import type { OpOutcome } from './outcome.js';
import { PART_NAMES } from '../scheme/parts.js';

/** The check of signature cases. */
export const signatureCheck = defineCheck({
  kind: 'signature',
  operations: () => ['signature.content', 'signature.sign', 'request.verify'],
  async run(c, op, subject): Promise<OpOutcome> {
    const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
    const input = { appId, appSecret, method, url, timestamp, nonce, bodyB64: toBase64(bodyBytes(c.inputs)) };
    if (op === 'request.verify') {
      const claimed = c.candidate?.sign ?? c.expected.sign;
      const authorization = formatAuthorization({ appId, sign: claimed, timestamp, nonce });
      return judgeValid(op, c.result, await callOp(subject, op, { ...input, authorization }, c.id));
    }
    const answer = await callOp(subject, op, input, c.id);
    const field = op === 'signature.content' ? 'contentB64' : 'sign';
    const expectedContent = contentBytes(c.expected) ?? new Uint8Array();
    const expected: Json = op === 'signature.content' ? toBase64(expectedContent) : c.expected.sign;
    const other = nonResult(op, expected, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if (!('result' in answer))
      return {
        op,
        status: 'fail',
        expected,
        got,
        message: `refused to ${op === 'signature.content' ? 'build the content' : 'sign'}`,
      };
    const value = answer.result[field];
    if (typeof value !== 'string')
      return { op, status: 'error', expected, got, message: `result has no string "${field}"` };
    if (op === 'signature.sign') {
      if (value === c.expected.sign) return { op, status: 'pass', expected, got, message: 'sign as expected' };
      return { op, status: 'fail', expected, got, message: `sign differs from the expected${mistakeNote(c, value)}` };
    }
    let actual: Uint8Array;
    try {
      actual = fromBase64(value);
    } catch {
      return { op, status: 'error', expected, got, message: 'contentB64 is not base64' };
    }
    if (bytesEqual(actual, expectedContent))
      return { op, status: 'pass', expected, got, message: 'content as expected' };
    return {
      op,
      status: 'fail',
      expected,
      got,
      message: `content differs from the expected ${firstDifference(expectedContent, actual)}`,
    };
  },
});

/**
 * Where two contents first differ, named by byte offset and part (1–7).
 * @param expected - the expected content
 * @param actual - the subject's content
 * @returns e.g. `at byte 41 (part 4, url)`
 * @example firstDifference(utf8('a\nb\n'), utf8('a\nc\n')) // 'at byte 2 (part 2, appSecret; expected 4 bytes, got 4)'
 */
export function firstDifference(expected: Uint8Array, actual: Uint8Array): string {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  let part = 1;
  for (let j = 0; j < i && part < 7; j++) if (expected[j] === 0x0a) part++;
  const names = PART_NAMES;
  const where = i >= expected.length ? 'after the end of the expected content' : `at byte ${i}`;
  const name = names[part - 1] ?? 'body';
  return `${where} (part ${part}, ${name}; expected ${expected.length} bytes, got ${actual.length})`;
}

// --- internal ---

function mistakeNote(c: SignatureCase, got: string): string {
  if (c.candidate && got.toLowerCase() === c.candidate.sign.toLowerCase())
    return `: it is the sign of this case's known mistake (${c.flags.join(', ')})`;
  return '';
}
