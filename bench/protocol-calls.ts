/**
 * Protocol throughput, session level: the real `signature.sign` inputs of the vector
 * set, repeated to at least 20,000 calls, all handed to `TesteeSession.call` at once,
 * so the session writes ahead up to its window and matches the answers as they come.
 * Against the Node example adapter and, in the same rounds, the echo testee.
 * @module
 */
import { startTestee, type TesteeSession } from '../dist/protocol/testee.js';
import { sample, sampleSeries, type Sample } from './_cpu.js';
import { repeatTo, type Call } from './_inputs.js';
import { pairRatios, rounds, type BenchResult } from './_measure.js';
import { ADAPTER_COMMAND, echoCommand, testeeOptions } from './_testees.js';

/** Calls per round, at least. */
const CALLS = 20_000;
const WARMUP = 1;
const ROUNDS = 7;

/**
 * Runs the benchmark.
 * @param recorded - every call the checks make over the vector set (see recordCalls)
 * @returns calls/s and CPU per call of each testee, and the adapter/echo ratio, round by round
 * @throws {Error} when a testee fails a call or restarts (the numbers would mean nothing)
 * @example const result = await benchProtocolCalls(await recordCalls(set));
 */
export async function benchProtocolCalls(recorded: readonly Call[]): Promise<BenchResult> {
  const signs = recorded.filter((c) => c.op === 'signature.sign');
  const calls = repeatTo(signs, CALLS);
  const log: string[] = [];
  const t0 = performance.now();
  const adapter = await startTestee(testeeOptions(ADAPTER_COMMAND, log));
  const adapterStartMs = performance.now() - t0;
  const t1 = performance.now();
  const echo = await startTestee(testeeOptions(echoCommand(adapter.hello.operations), log));
  const echoStartMs = performance.now() - t1;
  try {
    const samples = await rounds(
      {
        adapter: () => callAll(adapter, 'adapter.mjs', calls),
        echo: () => callAll(echo, 'echo-testee.mjs', calls),
      },
      WARMUP,
      ROUNDS,
    );
    if (adapter.restarts + echo.restarts > 0)
      throw new Error(`a testee restarted during the benchmark:\n${log.join('\n')}`);
    return {
      title: 'protocol v1, session calls (TesteeSession.call, signature.sign)',
      series: [
        ...sampleSeries('node adapter', 'call', samples.adapter),
        ...sampleSeries('echo testee', 'call', samples.echo),
      ],
      ratios: [
        {
          headline: 'protocol',
          label: 'node adapter / echo, session calls',
          values: pairRatios(
            samples.adapter.map((s) => s.rate),
            samples.echo.map((s) => s.rate),
          ),
          aim: 0.5,
        },
      ],
      notes: [
        `${calls.length} calls a round (the ${signs.length} signature.sign inputs of the vector set, ${calls.length / signs.length} times), all called at once; write-ahead window 64 (the default)`,
        `${WARMUP} warm-up round, ${ROUNDS} measured rounds, adapter and echo alternating; start to ready: adapter ${adapterStartMs.toFixed(0)} ms, echo ${echoStartMs.toFixed(0)} ms`,
      ],
    };
  } finally {
    await Promise.all([adapter.close(), echo.close()]);
  }
}

// --- internal ---

/** One round: every call at once, timed from the first call to the last answer. */
async function callAll(session: TesteeSession, marker: string, calls: readonly Call[]): Promise<Sample> {
  return sample(calls.length, marker, async () => {
    const answers = await Promise.all(calls.map((c) => session.call(c.caseId, c.op, c.input)));
    const bad = answers.find((a) => !('result' in a));
    if (bad) throw new Error(`a call was not answered with a result: ${JSON.stringify(bad)}`);
  });
}
