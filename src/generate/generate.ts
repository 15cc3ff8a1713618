/**
 * Builds new vector cases for `pgv2kit generate`: a signature case from given parts
 * (with its known-mistake candidates), or cases drawn at random from a seed
 * (signature, authorization, response, webhook, redirect). Every expected value is computed by the reference and
 * checked again by an independent computation (plain concatenation of the parts,
 * hashed with node:crypto; the header written by hand); a disagreement throws
 * {@link GenerateCheckError} and nothing is written.
 * @module
 */
import type { Provenance } from '../vectors/types.js';
export { GENERATE_KINDS, type GenerateKind } from './areas.js';
import type { GenerateKind } from './areas.js';
import { GENERATOR, IdAllocator, seededRandom, type GeneratedCase } from './_common.js';
import { randomSignatureCase } from './signature.js';
import { randomAuthorizationCase } from './authorization.js';
import { randomResponseCase } from './response.js';
import { randomWebhookCase } from './webhook.js';
import { randomRedirectCase } from './redirect.js';
export {
  GENERATED_FLAG,
  GENERATOR,
  GenerateCheckError,
  IdAllocator,
  bodyTraits,
  bytesField,
  checkedSign,
  independentSign,
  seededRandom,
  type GeneratedCase,
  type GivenParts,
} from './_common.js';
export { mistakeCases, signatureCase } from './signature.js';

/** Options of {@link generateRandom}. */
export interface RandomOptions {
  readonly area: GenerateKind;
  readonly seed: number;
  readonly count: number;
  /** Ids already in the vector set (never reused). */
  readonly takenIds: Iterable<string>;
  readonly kitVersion: string;
  /** The provenance date, e.g. `2025-01-31`. */
  readonly date: string;
}

/**
 * Cases drawn at random from a seed: the same options give the same cases.
 * @param o - {@link RandomOptions}
 * @returns `count` cases
 * @throws {GenerateCheckError} when an independent check disagrees with the reference
 */
export function generateRandom(o: RandomOptions): GeneratedCase[] {
  const rnd = seededRandom(o.seed);
  const ids = new IdAllocator(o.area, String(o.seed), o.takenIds);
  const provenance: Provenance = { generator: GENERATOR, seed: o.seed, kitVersion: o.kitVersion, date: o.date };
  const out: GeneratedCase[] = [];
  for (let i = 0; i < o.count; i++) {
    if (o.area === 'signature') out.push(randomSignatureCase(rnd, ids, provenance));
    else if (o.area === 'authorization') out.push(randomAuthorizationCase(rnd, ids, provenance));
    else if (o.area === 'response') out.push(randomResponseCase(rnd, ids, provenance));
    else if (o.area === 'webhook') out.push(randomWebhookCase(rnd, ids, provenance));
    else out.push(randomRedirectCase(rnd, ids, provenance));
  }
  return out;
}
