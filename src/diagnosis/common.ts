/**
 * What the diagnosis areas share: reading a subject's answer, and writing a mistake or
 * an expected refusal as a {@link Diagnosis}.
 * @module
 */
import { decodeQueryComponent } from '../scheme/redirect.js';
import type { Json } from '../subjects/subject.js';
import type { Diagnosis } from './diagnosis.js';
import type { VectorCase } from '../vectors/types.js';
import type { Mistake } from './mistakes.js';
import { REFUSALS } from './refusals.js';

/** The `result` object of an answer. */
export type ResultObject = { readonly [key: string]: Json };

/**
 * The `result` object of an answer.
 * @param got - the answer as the outcome records it
 * @returns the result, or undefined for a rejection, an unsupported or failed answer
 * @example resultOf({ result: { valid: true } }) // { valid: true }
 */
export function resultOf(got: Json): ResultObject | undefined {
  if (typeof got !== 'object' || got === null || Array.isArray(got)) return undefined;
  const r = got['result'];
  return typeof r === 'object' && r !== null && !Array.isArray(r) ? r : undefined;
}

/**
 * Whether a yes/no answer accepted: a result whose `valid` is true (or absent, as in a parse result).
 * @param result - the answer's result
 * @returns true when accepted
 * @example accepted({ valid: true }) // true
 */
export function accepted(result: ResultObject | undefined): boolean {
  return result !== undefined && (result['valid'] === true || result['valid'] === undefined);
}

/**
 * Whether a yes/no answer refused: a rejection, or a result whose `valid` is false.
 * @param got - the answer as the outcome records it
 * @returns true when refused
 * @example refused({ rejected: { reason: 'too long' } }) // true
 */
export function refused(got: Json): boolean {
  if (typeof got === 'object' && got !== null && !Array.isArray(got) && 'rejected' in got) return true;
  return resultOf(got)?.['valid'] === false;
}

/** Who did what with a mistake's content or sign: the lead of a diagnosis. */
export type MistakeLead = 'your sign' | 'your content' | 'you accept';

/**
 * A catalogue mistake as a diagnosis, its lead worded for a mistake in the content or in
 * the sign written over the right content (`writes: 'sign'`).
 * @param m - the mistake
 * @param who - whose answer it explains: a signer's sign or content, or a verifier's acceptance
 * @returns the diagnosis: `<lead> in which <the mistake's description>`
 * @example
 * import { MISTAKES } from './mistakes.js';
 * ofMistake(MISTAKES[0], 'your sign').message // 'your sign equals the sign of the content in which …'
 */
export function ofMistake(m: Mistake, who: MistakeLead): Diagnosis {
  return {
    mistake: m.id,
    message: `${(m.writes === 'sign' ? SIGN_LEADS : CONTENT_LEADS)[who]} ${m.description}`,
    ref: m.ref,
  };
}

const CONTENT_LEADS: Readonly<Record<MistakeLead, string>> = {
  'your sign': 'your sign equals the sign of the content in which',
  'your content': 'your content is the content in which',
  'you accept': 'you accept the sign of the content in which',
};

const SIGN_LEADS: Readonly<Record<MistakeLead, string>> = {
  'your sign': 'your sign is the sign of the right content in which',
  'your content': 'your content is the content in which',
  'you accept': 'you accept the sign of the right content in which',
};

/**
 * The refusal a case expected, as a diagnosis: `accepts-<kind>`.
 * @param kind - the reference's problem kind (or a header problem kind)
 * @param ref - the spec section or reading
 * @returns the diagnosis
 * @example refusalExpected('duplicate-item', '§5.3, R8').mistake // 'accepts-duplicate-item'
 */
export function refusalExpected(kind: string, ref: string): Diagnosis {
  return { mistake: `accepts-${kind}`, message: REFUSALS[kind] ?? `you accept what must be refused (${kind})`, ref };
}

/**
 * The readings a case depends on, or its spec sections when it names none.
 * @param c - the case
 * @returns e.g. `R9, R10`
 * @example refOf(vectorCase('response.payment-create-success')) // 'R9'
 */
export function refOf(c: VectorCase): string {
  return c.readings.join(', ') || c.spec.map((s) => `§${s}`).join(', ');
}

/**
 * Query decoding of R11, or the raw text when it is not valid percent-encoded UTF-8.
 * @param raw - an encoded query value
 * @returns the decoded text
 * @example decode('a+b') // 'a b'
 */
export function decode(raw: string): string {
  return decodeQueryComponent(raw) ?? raw;
}

/**
 * decodeURIComponent alone ("+" stays "+"), or the raw text when it is not valid.
 * @param raw - an encoded query value
 * @returns the decoded text
 * @example decodeUriOnly('a+b%20c') // 'a+b c'
 */
export function decodeUriOnly(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
