/**
 * Protocol throughput, runner level: `runCases` over the whole vector set (every
 * case, every operation, the checks, the diagnosis), repeated, against the Node
 * example adapter and, in the same rounds, the echo testee. The runner against the
 * in-process reference (no protocol at all) is measured beside them.
 * @module
 */
import { createReferenceSubject, liveCases, type Subject, type VectorSet } from '../dist/index.js';
import type { RunTarget } from '../dist/runner/result.js';
import { runCases } from '../dist/runner/run.js';
import { createTesteeSubject } from '../dist/subjects/testee-subject.js';
import { sample, sampleSeries, type Sample } from './_cpu.js';
import { pairRatios, rounds, type BenchResult } from './_measure.js';
import { ADAPTER_COMMAND, echoCommand, testeeOptions } from './_testees.js';

/** Whole runs of the vector set per round. */
const RUNS = 12;
const WARMUP = 1;
const ROUNDS = 7;

/**
 * Runs the benchmark.
 * @param set - the vector set
 * @returns cases/s and CPU per case of each subject, and the adapter/echo ratio, round by round
 * @throws {Error} when a testee restarts (the numbers would mean nothing)
 * @example const result = await benchProtocolRun(loadVectorSet());
 */
export async function benchProtocolRun(set: VectorSet): Promise<BenchResult> {
  const log: string[] = [];
  const adapter = await createTesteeSubject(testeeOptions(ADAPTER_COMMAND, log));
  const echo = await createTesteeSubject(testeeOptions(echoCommand(adapter.operations), log));
  const reference = createReferenceSubject();
  const cases = liveCases(set).length;
  try {
    const samples = await rounds(
      {
        adapter: () => runAll(set, adapter, 'adapter.mjs', { kind: 'testee', description: ADAPTER_COMMAND }),
        echo: () => runAll(set, echo, 'echo-testee.mjs', { kind: 'testee', description: 'echo' }),
        reference: () => runAll(set, reference, undefined, { kind: 'reference', description: 'built-in reference' }),
      },
      WARMUP,
      ROUNDS,
    );
    if (adapter.session.restarts + echo.session.restarts > 0)
      throw new Error(`a testee restarted during the benchmark:\n${log.join('\n')}`);
    return {
      title: 'protocol v1, whole runner (runCases over the vector set)',
      series: [
        ...sampleSeries('node adapter', 'case', samples.adapter),
        ...sampleSeries('echo testee', 'case', samples.echo),
        ...sampleSeries('in-process reference (no protocol)', 'case', samples.reference),
      ],
      ratios: [
        {
          headline: 'protocol',
          label: 'node adapter / echo, whole runner',
          values: pairRatios(
            samples.adapter.map((s) => s.rate),
            samples.echo.map((s) => s.rate),
          ),
          aim: 0.5,
        },
      ],
      notes: [
        `${cases} cases a run, ${RUNS} runs a round; concurrency 32 cases (the default), window 64`,
        'the echo testee answers {} to everything, so its cases fail and are diagnosed: the runner does its full work on both',
        `${WARMUP} warm-up round, ${ROUNDS} measured rounds, the three subjects alternating`,
      ],
    };
  } finally {
    await Promise.all([adapter.close(), echo.close()]);
  }
}

// --- internal ---

/** One round: RUNS whole runs, back to back. */
async function runAll(
  set: VectorSet,
  subject: Subject,
  marker: string | undefined,
  target: RunTarget,
): Promise<Sample> {
  return sample(RUNS * liveCases(set).length, marker, async () => {
    for (let i = 0; i < RUNS; i++) await runCases({ set, subject, target });
  });
}
