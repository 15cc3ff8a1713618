/**
 * How each property fails, judged on a subject that answers wrong on purpose: the reason
 * names what is wrong, the answer kinds that are not results (rejected, unsupported, failed,
 * a missing field) are failures or errors, never passes; the verdict follows the status.
 */
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { runProperties } from '../../src/runner/properties.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Answer, Subject } from '../../src/subjects/subject.js';

const reference = createReferenceSubject();

/** The reference, with the answers of some operations replaced. */
function answering(
  overrides: Partial<Record<string, (input: Record<string, unknown>, real: Answer) => Answer>>,
): Subject {
  return {
    implementation: { name: 'answers-wrong', version: '0', language: 'test' },
    operations: reference.operations,
    async call(op, input, id) {
      const real = await reference.call(op, input, id);
      const f = overrides[op];
      return f ? f(input as Record<string, unknown>, real) : real;
    },
  };
}

const run = async (subject: Subject, id: string) =>
  (await runProperties(subject, { seed: 4, runs: 20, only: (x) => x === id }))[0];

describe('property failures', () => {
  it.each([
    [
      'property.lf.content',
      { 'signature.content': () => ({ result: { contentB64: '%%%' } }) },
      /^signature\.content: contentB64 is not base64/,
    ],
    [
      'property.lf.content',
      { 'signature.content': () => ({ result: {} }) },
      /^signature\.content: the answer lacks the field the operation returns/,
    ],
    [
      'property.lf.sign',
      { 'signature.sign': () => ({ rejected: { reason: 'no' } }) },
      /^signature\.sign: rejected: no/,
    ],
    [
      'property.lf.sign',
      { 'signature.sign': () => ({ unsupported: { reason: 'later' } }) },
      /^signature\.sign: answered unsupported: later/,
    ],
    [
      'property.hex.lowercase',
      {
        'signature.sign': (_i: Record<string, unknown>, real: Answer) => ({
          result: { sign: String((real as { result: { sign: string } }).result.sign).toUpperCase() },
        }),
      },
      /upper-case hex digits \(R7/,
    ],
    [
      'property.hex.lowercase',
      { 'signature.sign': () => ({ result: { sign: 'abc' } }) },
      /not 64 hex digits \(3 characters\)/,
    ],
    [
      'property.header.order',
      { 'authorization.parse': () => ({ rejected: { reason: 'nope' } }) },
      /must be accepted \(R8/,
    ],
    [
      'property.header.order',
      { 'authorization.parse': () => ({ result: { appId: 'x', sign: 'y', timestamp: '1', nonce: 'n' } }) },
      /R8 allows no such values/,
    ],
    [
      'property.header.duplicate',
      { 'authorization.parse': () => ({ result: { appId: 'a', sign: 's', timestamp: '1', nonce: 'n' } }) },
      /must be refused \(R8: item \w+ appears more than once\), but was accepted/,
    ],
    [
      'property.header.missing',
      { 'authorization.parse': () => ({ result: { appId: 'a', sign: 's', timestamp: '1', nonce: '' } }) },
      /must be refused \(R8: item \w+ is missing\), but was accepted/,
    ],
    [
      'property.header.roundtrip',
      { 'authorization.format': () => ({ result: { header: 'Bearer x' } }) },
      /does not follow 5\.3 strictly/,
    ],
    [
      'property.header.roundtrip',
      {
        'authorization.format': (i: Record<string, unknown>) => ({
          result: {
            header: `V2_SHA256 appId=${String(i['appId'])}x,sign=${String(i['sign'])},timestamp=${String(i['timestamp'])},nonce=${String(i['nonce'])}`,
          },
        }),
      },
      /the header carries appId=/,
    ],
    [
      'property.verify.exact',
      { 'request.verify': () => ({ result: { valid: true } }) },
      /accepted a message whose .* changed after signing/,
    ],
    [
      'property.verify.exact',
      { 'request.verify': () => ({ result: { valid: false } }) },
      /refused the message exactly as signed/,
    ],
    [
      'property.verify.self',
      { 'request.verify': () => ({ result: { valid: false } }) },
      /refused a message it signed itself/,
    ],
    [
      'property.verify.self',
      { 'signature.sign': () => ({ result: { sign: 'a,b' } }) },
      /cannot be carried in an Authorization header/,
    ],
  ] as const)('%s fails: %s', async (id, overrides, reason) => {
    const c = await run(answering(overrides as never), id);
    expect(c?.verdict).toBe('failed');
    expect(c?.message).toMatch(reason);
    expect(c?.property?.replay).toMatch(/^4:/);
  });

  it('shows the header of a header counterexample', async () => {
    const c = await run(
      answering({ 'authorization.parse': () => ({ result: { appId: 'a', sign: 's', timestamp: '1', nonce: 'n' } }) }),
      'property.header.duplicate',
    );
    expect((c?.property?.counterexample as { header: string }).header).toMatch(/^V2_SHA256 (\w+=[^,]+,){4}\w+=[^,]+$/);
  });

  it('a subject that breaks is an error, not a failure', async () => {
    const c = await run(answering({ 'signature.sign': () => ({ failed: { reason: 'crashed' } }) }), 'property.lf.sign');
    expect([c?.verdict, c?.message]).toEqual([
      'error',
      expect.stringMatching(/^signature\.sign: the implementation failed: crashed/),
    ]);
  });

  it('every property holds against the reference answering through the same wrapper', async () => {
    const cases = await runProperties(answering({}), { seed: 4, runs: 20 });
    expect(cases.map((c) => c.verdict)).toEqual(PROPERTIES.map(() => 'passed'));
  });
});
