/**
 * Merging shard models (pgv2kit merge) when a shard did not run whole: one stopped early, one whose
 * testee never started — the merged run says so and is never conformant; a shard file that is not
 * one is refused.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/reports/_model.js';
import { MergeError, mergeShards, readShard } from '../../src/reports/merge.js';
import type { CaseResult, RunResult } from '../../src/runner/result.js';
import { countVerdicts } from '../../src/runner/run.js';
import { tempFolders } from '../_support.js';

const tmp = tempFolders('pgv2kit-merge-');
// each in the shard shardOf gives it of 2: a1 and d in 1, b and c6 in 2
const ids = ['signature.a1', 'signature.b', 'client.c6', 'signature.d'];
const caseOf = (id: string, verdict: CaseResult['verdict']): CaseResult =>
  ({
    id,
    kind: id.split('.')[0],
    file: 'f.yaml',
    comment: '',
    spec: [],
    readings: [],
    flags: [],
    result: 'valid',
    status: verdict === 'passed' ? 'pass' : 'fail',
    verdict,
    message: 'm',
    durationMs: 1,
    ops: [
      {
        op: 'signature.sign',
        status: verdict === 'passed' ? 'pass' : 'fail',
        expected: null,
        got: null,
        message: 'm',
        durationMs: 1,
      },
    ],
  }) as CaseResult;
const shardRun = (index: number, cases: CaseResult[], extra: Partial<RunResult> = {}): RunResult => ({
  runName: `r-${index}`,
  kit: { name: 'pgv2kit', version: '0' },
  vectorSetHash: 'ab'.repeat(32),
  implementation: { name: 'impl', version: '1', language: 'js' },
  target: { kind: 'module', description: 'm.mjs' },
  startedAt: `2026-01-01T00:00:0${index}.000Z`,
  finishedAt: `2026-01-01T00:00:0${index + 2}.000Z`,
  durationMs: 2000,
  selection: { only: [], skip: [] },
  cases,
  totals: countVerdicts(cases),
  log: [`line of ${index}`],
  staleListEntries: [],
  offered: ['signature.sign'],
  operations: [],
  shard: { index, count: 2, ids },
  ...extra,
});

describe('mergeShards', () => {
  it('puts the cases back in the run order and spans the shards in time', () => {
    const m = mergeShards([
      buildModel(shardRun(2, [caseOf('client.c6', 'passed'), caseOf('signature.b', 'passed')]), []),
      buildModel(shardRun(1, [caseOf('signature.d', 'passed'), caseOf('signature.a1', 'passed')]), []),
    ]);
    expect(m.cases.map((c) => c.id)).toEqual(ids);
    expect(m.conformant).toBe(true);
    expect([m.startedAt, m.finishedAt, m.durationMs]).toEqual([
      '2026-01-01T00:00:01.000Z',
      '2026-01-01T00:00:04.000Z',
      3000,
    ]);
    expect(m.log).toEqual(['--- shard 1/2: r-1 ---', 'line of 1', '--- shard 2/2: r-2 ---', 'line of 2']);
    expect(m.shard).toBeUndefined();
  });

  it('a shard stopped early: the merged run is stopped, its cases not run summed, never conformant', () => {
    const m = mergeShards([
      buildModel(
        shardRun(1, [caseOf('signature.a1', 'failed')], {
          stopped: { kind: 'max-failures', reason: '1 case failed (--max-failures 1)', notRun: 1 },
        }),
        [],
      ),
      buildModel(shardRun(2, [caseOf('signature.b', 'passed'), caseOf('client.c6', 'passed')]), []),
    ]);
    expect(m.stopped).toEqual({
      kind: 'max-failures',
      reason: 'shard 1/2: 1 case failed (--max-failures 1)',
      notRun: 1,
    });
    expect(m.conformant).toBe(false);
    expect(m.summary).toMatch(/^STOPPED \(shard 1\/2: 1 case failed/);
  });

  it('a shard whose testee never started: the merged run is aborted, whatever the other shard did', () => {
    const aborted = {
      kind: 'testee-start' as const,
      message: 'the testee exited with code 2 before it was ready',
      command: 'node a.mjs',
      exitCode: 2,
      signal: null,
      ended: 'exited with code 2',
      stderrTail: [],
    };
    const m = mergeShards([
      buildModel(
        shardRun(1, [], { aborted, noTestRan: 'no test ran: the testee could not start (x)', offered: [] }),
        [],
      ),
      buildModel(shardRun(2, [caseOf('signature.b', 'passed'), caseOf('client.c6', 'passed')]), []),
    ]);
    expect(m.aborted?.message).toBe(aborted.message);
    expect(m.conformant).toBe(false);
    expect(m.noTestRan).toBe('no test ran: the testee could not start (x)');
    expect(m.implementation.name).toBe('impl');
  });

  it("other targets' cases are summed, their operations in the kit's order", () => {
    const m = mergeShards([
      buildModel(
        shardRun(1, [caseOf('signature.a1', 'passed')], {
          otherTargets: { cases: 1, operations: ['merchant.webhook'] },
        }),
        [],
      ),
      buildModel(
        shardRun(2, [caseOf('signature.b', 'passed')], {
          otherTargets: { cases: 1, operations: ['gateway.upload', 'merchant.webhook'] },
        }),
        [],
      ),
    ]);
    expect(m.otherTargets).toMatchObject({ cases: 2, operations: ['gateway.upload', 'merchant.webhook'] });
  });

  it("refuses models that are not shards, and shard files that are not JSON or not pgv2kit's", () => {
    expect(() => mergeShards([])).toThrow(MergeError);
    const whole = buildModel({ ...shardRun(1, []), shard: undefined } as unknown as RunResult, []);
    expect(() => mergeShards([whole])).toThrow('give the report folders of the shards to merge');
    expect(() => mergeShards([buildModel(shardRun(1, []), []), whole])).toThrow('every folder must be a shard');
    const dir = join(tmp(), 'bad');
    mkdirSync(dir);
    writeFileSync(join(dir, 'shard.json'), 'not json');
    expect(() => readShard(dir)).toThrow(/shard\.json is not JSON/);
  });
});
