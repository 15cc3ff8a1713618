/**
 * What shardFileProblems (src/reports/shard-schema.ts) says of a shard file that does not fit its schema, keyword
 * by keyword: each problem a JSON pointer and the rule broken in words, a hostile field name or value quoted at
 * most 200 characters. A partial model is checked with a high `max` so the problem sought is among the missing
 * fields' ones.
 */
import { describe, expect, it } from 'vitest';
import { shardFileProblems } from '../../src/reports/shard-schema.js';

const model = (m: object) => ({ format: 'pgv2kit-shard/1', model: m });
const problems = (value: unknown) => shardFileProblems(value, 1000).filter((p) => !p.endsWith('is missing'));

describe('shardFileProblems: each kind of problem in words', () => {
  it('a value that is not an object at all: the root pointer /', () => {
    expect(shardFileProblems(5)).toEqual(['/: must be object']);
    expect(shardFileProblems([{}])).toEqual(['/: must be object']);
  });

  it('the wrong format: the one it must be', () => {
    expect(problems({ format: 'pgv2kit-shard/2', model: {} })).toEqual(['/format: must be "pgv2kit-shard/1"']);
  });

  it('string lengths: empty, and over the limit', () => {
    expect(problems(model({ cases: [{ id: '' }] }))).toEqual(['/model/cases/0/id: must not be empty']);
    expect(problems(model({ cases: [{ id: 'x'.repeat(201) }] }))).toEqual([
      '/model/cases/0/id: must be at most 200 characters',
    ]);
  });

  it('too many items, too many fields, a field name too long', () => {
    expect(problems(model({ cases: [{ spec: Array<string>(1001).fill('4.1') }] }))).toEqual([
      '/model/cases/0/spec: must have at most 1000 items',
    ]);
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`f${i}`, 0]));
    expect(problems(model({ cases: [{ ops: [{ got: wide }] }] }))).toEqual([
      '/model/cases/0/ops/0/got: must have at most 10000 fields',
    ]);
    expect(problems(model({ cases: [{ ops: [{ got: { ['n'.repeat(1001)]: 1 } }] }] }))).toContain(
      '/model/cases/0/ops/0/got: has a field name longer than 1000 characters',
    );
  });

  it('a keyword without words of its own: the validator message, at its pointer', () => {
    expect(problems(model({ cases: [{ ops: [{ durationMs: 2e12 }] }] }))).toEqual([
      '/model/cases/0/ops/0/durationMs: must be <= 1000000000000',
    ]);
  });

  it('a hostile field name and value are quoted at most 200 characters', () => {
    const name = `${'k'.repeat(300)}/~`;
    const [extra] = problems(model({ [name]: 1 }));
    expect(extra).toBe(`/model/${'k'.repeat(193)}…: is not a field of a shard file`);
    const [kind] = problems(model({ target: { kind: 'v'.repeat(5000), description: '' } }));
    expect(kind).toBe(
      '/model/target/kind: must be one of "reference", "module", "testee", "gateway", "merchant" ' +
        `(got "${'v'.repeat(199)}…)`,
    );
  });

  it('an integer out of its range: the range, from the schema', () => {
    expect(problems(model({ shard: { index: 0, count: 1.5 } }))).toEqual([
      '/model/shard/index: must be an integer from 1 to 1000',
      '/model/shard/count: must be an integer from 1 to 1000',
    ]);
  });
});
