/**
 * What the property suites share: the test's own (independent) signature content and
 * sign — plain concatenation and node:crypto, nothing from src/scheme — its own
 * Authorization header, the protocol inputs, and readers of the subject's answers.
 */
import { createHash } from 'node:crypto';
import type { Operation } from '../../src/subjects/operations.js';
import type { Answer, Json, OperationInput, Subject } from '../../src/subjects/subject.js';
import { ITEM_NAMES, type ItemName, type Items, type Parts } from '../_support/arbitraries.js';

const encoder = new TextEncoder();

/**
 * The signature content of §5.1 (R1–R3), built here by concatenation: the UTF-8 of
 * parts 1–6 each followed by LF, then the body bytes, then one LF.
 * @param p - the parts
 * @returns the content bytes
 */
export function expectedContent(p: Parts): Uint8Array {
  const head = [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].join('\n') + '\n';
  return new Uint8Array(Buffer.concat([encoder.encode(head), p.body, Uint8Array.of(0x0a)]));
}

/**
 * SHA-256 of bytes, lower-case hex (§5.2), with node:crypto.
 * @param bytes - the content
 * @returns 64 lower-case hex digits
 */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The sign of parts, computed independently of the subject and of src/scheme.
 * @param p - the parts
 * @returns 64 lower-case hex digits
 */
export function expectedSign(p: Parts): string {
  return sha256Hex(expectedContent(p));
}

/**
 * An Authorization header value of §5.3, written here.
 * @param items - the four values
 * @param order - the item order (default the spec's)
 * @returns `V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…` in the given order
 */
export function header(items: Items, order: readonly ItemName[] = ITEM_NAMES): string {
  return headerOf(order.map((n) => [n, items[n]] as const));
}

/**
 * An Authorization header value from raw name/value pairs (duplicates, missing items allowed).
 * @param pairs - the items, in order
 * @returns `V2_SHA256 name=value,…`
 */
export function headerOf(pairs: readonly (readonly [string, string])[]): string {
  return `V2_SHA256 ${pairs.map(([n, v]) => `${n}=${v}`).join(',')}`;
}

/**
 * Standard padded base64 (the protocol's `…B64` fields).
 * @param bytes - bytes
 * @returns base64
 */
export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/**
 * The protocol input of signature.content / signature.sign.
 * @param p - the parts
 * @returns the input
 */
export function partsInput(p: Parts): OperationInput {
  return { appId: p.appId, appSecret: p.appSecret, method: p.method, url: p.url, timestamp: p.timestamp, nonce: p.nonce, bodyB64: b64(p.body) };
}

/**
 * Calls an operation and returns its result object; any other answer fails the property.
 * @param subject - the subject
 * @param op - the operation
 * @param input - the input
 * @param caseId - the case id sent to the subject
 * @returns the result object
 * @throws {Error} when the answer is not a result
 */
export async function resultOf(subject: Subject, op: Operation, input: OperationInput, caseId: string): Promise<{ readonly [key: string]: Json }> {
  const answer = await subject.call(op, input, caseId);
  if ('result' in answer) return answer.result;
  throw new Error(`${op} gave no result: ${describeAnswer(answer)}`);
}

/**
 * Calls an operation and returns one string field of its result.
 * @param subject - the subject
 * @param op - the operation
 * @param input - the input
 * @param field - the result field
 * @param caseId - the case id
 * @returns the field's value
 * @throws {Error} when the answer is not a result with that string field
 */
export async function stringResult(subject: Subject, op: Operation, input: OperationInput, field: string, caseId: string): Promise<string> {
  const result = await resultOf(subject, op, input, caseId);
  const value = result[field];
  if (typeof value !== 'string') throw new Error(`${op} result has no string "${field}": ${JSON.stringify(result)}`);
  return value;
}

/**
 * The content a subject builds (signature.content), decoded from base64.
 * @param subject - the subject
 * @param p - the parts
 * @param caseId - the case id
 * @returns the content bytes
 */
export async function subjectContent(subject: Subject, p: Parts, caseId: string): Promise<Uint8Array> {
  return new Uint8Array(Buffer.from(await stringResult(subject, 'signature.content', partsInput(p), 'contentB64', caseId), 'base64'));
}

/**
 * The sign a subject computes (signature.sign).
 * @param subject - the subject
 * @param p - the parts
 * @param caseId - the case id
 * @returns the sign
 */
export async function subjectSign(subject: Subject, p: Parts, caseId: string): Promise<string> {
  return stringResult(subject, 'signature.sign', partsInput(p), 'sign', caseId);
}

/** What a verify-style operation decided. */
export type Verdict = 'valid' | 'refused';

/**
 * Calls a verify-style operation: `{result: {valid}}`; a `rejected` answer counts as
 * refused (as in src/checks). unsupported, failed, or a result without a boolean
 * `valid` fail the property.
 * @param subject - the subject
 * @param op - the operation
 * @param input - the input
 * @param caseId - the case id
 * @returns the verdict and the raw answer (for messages)
 * @throws {Error} on any other answer
 */
export async function verdictOf(subject: Subject, op: Operation, input: OperationInput, caseId: string): Promise<{ verdict: Verdict; answer: Answer }> {
  const answer = await subject.call(op, input, caseId);
  if ('rejected' in answer) return { verdict: 'refused', answer };
  if ('result' in answer && typeof answer.result['valid'] === 'boolean') return { verdict: answer.result['valid'] ? 'valid' : 'refused', answer };
  throw new Error(`${op} gave neither {result: {valid}} nor rejected: ${describeAnswer(answer)}`);
}

/**
 * Calls authorization.parse: the four items, or undefined when the header was refused
 * (`rejected`). unsupported, failed, or a result missing an item fail the property.
 * @param subject - the subject
 * @param headerValue - the header
 * @param caseId - the case id
 * @returns the items, or undefined
 * @throws {Error} on any other answer
 */
export async function parseHeader(subject: Subject, headerValue: string, caseId: string): Promise<Items | undefined> {
  const answer = await subject.call('authorization.parse', { header: headerValue }, caseId);
  if ('rejected' in answer) return undefined;
  if ('result' in answer) {
    const r = answer.result;
    const missing = ITEM_NAMES.find((n) => typeof r[n] !== 'string');
    if (missing) throw new Error(`authorization.parse result has no string ${missing}: ${JSON.stringify(r)}`);
    return { appId: r['appId'] as string, sign: r['sign'] as string, timestamp: r['timestamp'] as string, nonce: r['nonce'] as string };
  }
  throw new Error(`authorization.parse gave neither result nor rejected: ${describeAnswer(answer)}`);
}

/**
 * Whether the subject offers an operation (properties that need it are skipped otherwise).
 * @param subject - the subject
 * @param ops - the operations
 * @returns true when it offers all of them
 */
export function offers(subject: Subject, ...ops: Operation[]): boolean {
  return ops.every((op) => subject.operations.includes(op));
}

/**
 * A one-line description of an answer, for failure messages.
 * @param answer - the answer
 * @returns JSON, clipped
 */
export function describeAnswer(answer: Answer): string {
  const text = JSON.stringify(answer);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Printable form of bytes for failure messages: JSON string of their UTF-8 decoding
 * (invalid sequences shown as U+FFFD), clipped.
 * @param bytes - the bytes
 * @returns the text
 */
export function show(bytes: Uint8Array): string {
  const text = JSON.stringify(new TextDecoder().decode(bytes));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
