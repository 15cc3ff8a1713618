/**
 * Several subjects as one: each operation goes to the subject that offers it, unknown
 * handshake names of any of them are kept, and closing closes them all.
 */
import { describe, expect, it } from 'vitest';
import { combineSubjects } from '../../src/subjects/combine.js';
import type { Subject } from '../../src/subjects/subject.js';

function fake(name: string, operations: Subject['operations'], unknown?: string[], closed?: string[]): Subject {
  return {
    implementation: { name, version: '1', language: 'test' },
    operations,
    ...(unknown ? { unknownOperations: unknown } : {}),
    call: async (op) => ({ result: { by: name, op } }),
    close: async () => void closed?.push(name),
  };
}

describe('combineSubjects', () => {
  it('routes each operation to its owner, keeps unknown names, closes every subject', async () => {
    const closed: string[] = [];
    const s = combineSubjects(
      fake('a', ['signature.sign'], ['signature.sgn'], closed),
      fake('b', ['gateway.upload'], ['x.y', 'signature.sgn'], closed),
    );
    expect(s.operations).toEqual(['signature.sign', 'gateway.upload']);
    expect(s.unknownOperations).toEqual(['signature.sgn', 'x.y']);
    expect(await s.call('gateway.upload', {}, 'c1')).toEqual({ result: { by: 'b', op: 'gateway.upload' } });
    expect(await s.call('request.verify', {}, 'c2')).toEqual({ result: { by: 'a', op: 'request.verify' } });
    await s.close?.();
    expect(closed).toEqual(['a', 'b']);
  });

  it('says nothing of unknown names when no subject has any', () => {
    expect('unknownOperations' in combineSubjects(fake('a', []), fake('b', []))).toBe(false);
  });
});
