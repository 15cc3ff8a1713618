/**
 * Fuzz speed (issue 6, item 4; issue 10's aim): headers per second through `fuzzParser`
 * (fast-check generation, the R8 judgement, the subject's `authorization.parse`), against the
 * in-process reference subject (one run of ~3 s) and over protocol v1 against the Node
 * example adapter. Over protocol the engine keeps twice the session window in flight (a
 * sliding window: each answer lets the next header go) and goes one at a time only while
 * shrinking. The echo baseline — the same headers as authorization.parse calls to the echo
 * testee, all written ahead, with the same session window: the protocol's cost floor — runs
 * right after each fuzz run, in rounds, and the ratio fuzz / echo is taken per round (issue
 * 10's aim: median ≥ 0.50).
 * Ends with lines to grep, each with a verdict; it measures, it does not gate.
 * @module
 */
import fc from 'fast-check';
import { FUZZ_WINDOW, fuzzParser } from '../dist/fuzz/run.js';
import { fuzzHeaderArb, fuzzHeaderText } from '../dist/fuzz/arbitraries.js';
import { oracle } from '../dist/fuzz/oracle.js';
import { createReferenceSubject } from '../dist/subjects/reference.js';
import { createTesteeSubject } from '../dist/subjects/testee-subject.js';
import type { Subject } from '../dist/subjects/subject.js';
import { formatNumber, summarize, table } from './_measure.js';
import { ADAPTER_COMMAND, ROOT, echoCommand, testeeOptions } from './_testees.js';

const SEED = 20_240_606;
const TARGET_S = 3;
const TRIAL_RUNS = 1000;
const ROUNDS = 7;
const ROUND_S = 1;
const AIM_IN_PROCESS = 10_000;
const AIM_PROTOCOL = 3_000;

interface Measured {
  readonly runs: number;
  readonly seconds: number;
  readonly rate: number;
  readonly finding: boolean;
}

/**
 * Runs the benchmark.
 * @returns the section to print: a table, a note on where the time goes, two closing lines
 * @example process.stdout.write(await benchFuzzSpeed());
 */
export async function benchFuzzSpeed(): Promise<string> {
  const reference = createReferenceSubject();
  const inProcess = await measure(reference);

  // Over protocol v1: rounds, each a fuzz run against the Node adapter and, right after it, the
  // same headers as calls to the echo testee (both sessions with fuzz's window): the ratio is
  // taken per round, so that a slow moment of the machine moves both sides alike.
  const log: string[] = [];
  const adapter = await createTesteeSubject({
    command: ADAPTER_COMMAND,
    cwd: ROOT,
    timeoutMs: 30_000,
    window: FUZZ_WINDOW,
    log: (line) => log.push(line),
  });
  const echo = await createTesteeSubject({
    ...testeeOptions(echoCommand(['authorization.parse']), log),
    window: FUZZ_WINDOW,
  });
  const rounds: Array<{ readonly fuzz: Measured; readonly echoRate: number }> = [];
  try {
    const trial = await measure(adapter, ROUND_S);
    for (let r = 0; r < ROUNDS; r++) {
      const fuzz = await timed(adapter, trial.runs, SEED + r);
      const headers = fc.sample(fuzzHeaderArb, { numRuns: fuzz.runs, seed: SEED + r }).map(fuzzHeaderText);
      rounds.push({ fuzz, echoRate: await echoRate(echo, headers, r) });
    }
  } finally {
    await adapter.close();
    await echo.close();
  }
  const ratios = summarize(rounds.map((r) => r.fuzz.rate / r.echoRate));
  const fuzzRates = summarize(rounds.map((r) => r.fuzz.rate));
  const echoRates = summarize(rounds.map((r) => r.echoRate));
  const overProtocol = rounds[0]?.fuzz ?? { runs: 0, seconds: 0, rate: 0, finding: false };

  // Where the time goes: generation + rendering alone, and generation + oracle, for as many headers.
  const n = inProcess.runs;
  const genOnly = timeIt(() => {
    for (const h of fc.sample(fuzzHeaderArb, { numRuns: n, seed: SEED })) fuzzHeaderText(h);
  });
  const genOracle = timeIt(() => {
    for (const h of fc.sample(fuzzHeaderArb, { numRuns: n, seed: SEED })) oracle(fuzzHeaderText(h));
  });
  const perUs = (s: number, runs: number): string => ((s * 1e6) / runs).toFixed(1);
  const range = (x: { min: number; max: number }, f: (v: number) => string): string => `${f(x.min)}–${f(x.max)}`;

  const rows = [
    [
      'in process (reference subject)',
      formatNumber(inProcess.runs),
      inProcess.seconds.toFixed(2),
      formatNumber(inProcess.rate),
      perUs(inProcess.seconds, inProcess.runs),
      `≥ ${formatNumber(AIM_IN_PROCESS)}`,
    ],
    [
      `protocol v1 (node adapter), median of ${ROUNDS} rounds`,
      formatNumber(overProtocol.runs),
      '',
      formatNumber(fuzzRates.median),
      (1e6 / fuzzRates.median).toFixed(1),
      `≥ ${formatNumber(AIM_PROTOCOL)}`,
    ],
  ];
  const lines = [
    `fuzz speed (fuzzParser, seed ${SEED}; in process ~${TARGET_S} s; over protocol ${ROUNDS} rounds of ~${ROUND_S} s, ${2 * FUZZ_WINDOW} headers in flight, session window ${FUZZ_WINDOW})`,
    table(['subject', 'headers', 's', 'headers/s', 'µs/header', 'aim'], rows).trimEnd(),
    `  where the time goes, per header, measured apart with fc.sample (${formatNumber(n)} headers, same seed): generation + rendering ${perUs(genOnly, n)} µs, generation + rendering + R8 oracle (every answer R8 allows) ${perUs(genOracle, n)} µs;`,
    `  echo baseline, in each round right after the fuzz run: the same headers as authorization.parse calls to the echo testee, written ahead: ${formatNumber(echoRates.median)} calls/s (${range(echoRates, formatNumber)});`,
    `  fuzz over protocol per round: ${rounds.map((r) => formatNumber(r.fuzz.rate)).join(', ')} headers/s; ratio per round: ${rounds.map((r) => (r.fuzz.rate / r.echoRate).toFixed(2)).join(', ')}.`,
    ...(inProcess.finding || rounds.some((r) => r.fuzz.finding)
      ? ['  NOTE: a finding stopped a run early; its rate covers the headers tried before it.']
      : []),
    ...(log.length > 0 ? [`  testee log: ${log.slice(0, 3).join(' | ')}`] : []),
    '',
    line('fuzz in process', inProcess.rate, AIM_IN_PROCESS),
    line('fuzz over protocol v1 (node adapter)', fuzzRates.median, AIM_PROTOCOL),
    `ratio fuzz over protocol (node adapter) / echo calls: ${ratios.median.toFixed(2)} (median of ${ROUNDS} rounds, ${range(ratios, (v) => v.toFixed(2))}; aim ≥ 0.50) ${ratios.median >= 0.5 ? 'meets aim' : 'below aim'}`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

// --- internal ---

/** calls/s of the echo testee for these headers as authorization.parse calls, all written ahead. */
async function echoRate(echo: Subject, headers: readonly string[], round: number): Promise<number> {
  await Promise.all(
    headers.slice(0, 500).map((header, i) => echo.call('authorization.parse', { header }, `warm-${round}-${i}`)),
  );
  const t0 = performance.now();
  await Promise.all(headers.map((header, i) => echo.call('authorization.parse', { header }, `echo-${round}-${i}`)));
  return headers.length / ((performance.now() - t0) / 1000);
}

async function measure(subject: Subject, targetS = TARGET_S): Promise<Measured> {
  await fuzzParser(subject, { seed: SEED + 1, runs: 200 }); // warm-up
  let m = await timed(subject, TRIAL_RUNS);
  // The trial underestimates a warm rate: rescale until a run takes most of the target (at most 3 tries).
  for (let i = 0; i < 3 && m.seconds < targetS * 0.8 && !m.finding; i += 1) {
    m = await timed(subject, Math.max(TRIAL_RUNS, Math.round(m.rate * targetS)));
  }
  return m;
}

async function timed(subject: Subject, runs: number, seed = SEED): Promise<Measured> {
  const t0 = performance.now();
  const result = await fuzzParser(subject, { seed, runs });
  const seconds = (performance.now() - t0) / 1000;
  return { runs: result.runs, seconds, rate: result.runs / seconds, finding: result.finding !== undefined };
}

function timeIt(f: () => void): number {
  const t0 = performance.now();
  f();
  return (performance.now() - t0) / 1000;
}

function line(label: string, rate: number, aim: number): string {
  return `${label}: ${formatNumber(rate)} headers/s (aim ≥ ${formatNumber(aim)}) ${Math.round(rate) >= aim ? 'meets aim' : 'below aim'}`;
}
