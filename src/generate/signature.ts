/**
 * Signature cases: one from given parts, the known mistakes' candidates, and random ones.
 * @module
 */
import { createHash } from 'node:crypto';
import { mistakenContents, type Mistake } from '../diagnosis/mistakes.js';
import { signContent } from '../scheme/sign.js';
import type { Provenance, SignatureCase } from '../vectors/types.js';
import {
  GENERATED_FLAG,
  GenerateCheckError,
  type GivenParts,
  IdAllocator,
  bodyTraits,
  bytesField,
  checkedSign,
  describeBody,
  randomParts,
} from './_common.js';

/**
 * The valid signature case of the given parts, checked independently.
 * @param p - the parts
 * @param id - the case id
 * @param provenance - where the case came from
 * @param comment - the case's comment (default: a generic one)
 * @returns the case
 * @throws {GenerateCheckError} when the reference and the independent computation disagree
 */
export function signatureCase(
  p: GivenParts,
  id: string,
  provenance: Provenance,
  comment?: string,
): Omit<SignatureCase, 'kind'> {
  const { content, sign: s } = checkedSign(p);
  const body = bytesField(p.body, 'body', 'bodyB64');
  const { flags, readings } = bodyTraits(p);
  return {
    id,
    comment: comment ?? `Generated: the seven parts ${describeBody(p.body)}, signed correctly (5.1, 5.2).`,
    spec: ['5.1', '5.2'],
    readings,
    flags: [GENERATED_FLAG, ...flags],
    result: 'valid',
    inputs: {
      appId: p.appId,
      appSecret: p.appSecret,
      method: p.method,
      url: p.url,
      timestamp: p.timestamp,
      nonce: p.nonce,
      ...body,
    },
    expected: { ...bytesField(content, 'content', 'contentB64'), sign: s },
    provenance,
  } as Omit<SignatureCase, 'kind'>;
}

/**
 * The invalid signature cases of the parts' known mistakes: each candidate the content
 * and sign one mistake builds (src/diagnosis/mistakes.ts).
 * @param p - the parts
 * @param nextId - gives the ids
 * @param provenance - where the cases came from
 * @param pick - keeps only some mistakes (default all)
 * @returns the cases
 */
export function mistakeCases(
  p: GivenParts,
  nextId: () => string,
  provenance: Provenance,
  pick?: (
    all: ReadonlyArray<{ mistake: Mistake; content: Uint8Array }>,
  ) => ReadonlyArray<{ mistake: Mistake; content: Uint8Array }>,
): Array<Omit<SignatureCase, 'kind'>> {
  const { content: correct, sign: s } = checkedSign(p);
  const all = mistakenContents(p);
  const chosen = pick ? pick(all) : all;
  const body = bytesField(p.body, 'body', 'bodyB64');
  return chosen.map(({ mistake, content }) => {
    const candidateSign = createHash('sha256').update(content).digest('hex');
    if (candidateSign !== signContent(content) || candidateSign === s || Buffer.from(content).equals(correct)) {
      throw new GenerateCheckError(
        `the candidate of mistake ${mistake.id} does not differ from the correct sign, or its sign does not check`,
      );
    }
    const readings = [...new Set(mistake.ref.match(/R\d+/g) ?? [])];
    return {
      id: nextId(),
      comment:
        `Generated known mistake ${mistake.id}: ${mistake.description}; a verifier must refuse the candidate.`.slice(
          0,
          240,
        ),
      spec: ['5.1', '5.2'],
      readings,
      flags: [GENERATED_FLAG, mistake.flag],
      result: 'invalid',
      inputs: {
        appId: p.appId,
        appSecret: p.appSecret,
        method: p.method,
        url: p.url,
        timestamp: p.timestamp,
        nonce: p.nonce,
        ...body,
      },
      expected: { ...bytesField(correct, 'content', 'contentB64'), sign: s },
      candidate: { ...bytesField(content, 'content', 'contentB64'), sign: candidateSign },
      provenance,
    } as Omit<SignatureCase, 'kind'>;
  });
}

/**
 * A random signature case: random parts, signed correctly, checked independently.
 * @param rnd - the seeded random numbers
 * @param ids - gives the id
 * @param provenance - where the case came from
 * @returns the case
 */
export function randomSignatureCase(
  rnd: () => number,
  ids: IdAllocator,
  provenance: Provenance,
): Omit<SignatureCase, 'kind'> {
  const p = randomParts(rnd);
  if (rnd() < 0.3) {
    const cases = mistakeCases(
      p,
      () => ids.next(),
      provenance,
      (all) => (all.length === 0 ? [] : [all[Math.floor(rnd() * all.length)]!]),
    );
    if (cases[0]) return cases[0];
  }
  return signatureCase(p, ids.next(), provenance);
}
