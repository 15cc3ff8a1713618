/**
 * Fuzz speed (issue 6, item 4): headers per second through `fuzzParser` (fast-check
 * generation, the R8 oracle, the subject's `authorization.parse`), once against the
 * in-process reference subject and once over protocol v1 against the Node example
 * adapter. A fixed seed; the run count is set from a trial so that each measured run
 * takes about 3 s. The engine keeps 64 headers in flight (written ahead over protocol v1) and
 * goes one at a time only while shrinking. Beside it, in the same run, the echo baseline: the
 * same headers as authorization.parse calls to the echo testee, all written ahead — the
 * protocol's cost floor; the ratio fuzz-over-protocol / echo is issue 10's aim (≥ 0.50).
 * Ends with lines to grep, each with a verdict; it measures, it does not gate.
 * @module
 */
import fc from 'fast-check';
import { fuzzParser } from '../dist/fuzz/run.js';
import { fuzzHeaderArb, fuzzHeaderText } from '../dist/fuzz/arbitraries.js';
import { oracle } from '../dist/fuzz/oracle.js';
import { createReferenceSubject } from '../dist/subjects/reference.js';
import { createTesteeSubject } from '../dist/subjects/testee-subject.js';
import type { Subject } from '../dist/subjects/subject.js';
import { formatNumber, table } from './_measure.js';
import { ADAPTER_COMMAND, ROOT, echoCommand, testeeOptions } from './_testees.js';

const SEED = 20_240_606;
const TARGET_S = 3;
const TRIAL_RUNS = 1000;
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

  const log: string[] = [];
  const adapter = await createTesteeSubject({ command: ADAPTER_COMMAND, cwd: ROOT, timeoutMs: 30_000, log: (line) => log.push(line) });
  let overProtocol: Measured;
  try {
    overProtocol = await measure(adapter);
  } finally {
    await adapter.close();
  }

  // The echo baseline: the same headers, as calls, all at once to the echo testee.
  const echoRate = await echoBaseline(overProtocol.runs);
  const ratio = overProtocol.rate / echoRate;

  // Where the time goes: generation + rendering alone, and generation + oracle, for as many headers.
  const n = inProcess.runs;
  const genOnly = timeIt(() => {
    for (const h of fc.sample(fuzzHeaderArb, { numRuns: n, seed: SEED })) fuzzHeaderText(h);
  });
  const genOracle = timeIt(() => {
    for (const h of fc.sample(fuzzHeaderArb, { numRuns: n, seed: SEED })) oracle(fuzzHeaderText(h));
  });
  const perUs = (s: number, runs: number): string => ((s * 1e6) / runs).toFixed(1);

  const rows = [
    ['in process (reference subject)', formatNumber(inProcess.runs), inProcess.seconds.toFixed(2), formatNumber(inProcess.rate), perUs(inProcess.seconds, inProcess.runs), `≥ ${formatNumber(AIM_IN_PROCESS)}`],
    ['protocol v1 (node adapter)', formatNumber(overProtocol.runs), overProtocol.seconds.toFixed(2), formatNumber(overProtocol.rate), perUs(overProtocol.seconds, overProtocol.runs), `≥ ${formatNumber(AIM_PROTOCOL)}`],
  ];
  const lines = [
    `fuzz speed (fuzzParser, seed ${SEED}, ~${TARGET_S} s each, 64 headers in flight)`,
    table(['subject', 'headers', 's', 'headers/s', 'µs/header', 'aim'], rows).trimEnd(),
    `  where the time goes, per header, measured apart with fc.sample (${formatNumber(n)} headers, same seed): generation + rendering ${perUs(genOnly, n)} µs, generation + rendering + R8 oracle ${perUs(genOracle, n)} µs;`,
    `  echo baseline: the same ${formatNumber(overProtocol.runs)} headers as authorization.parse calls to the echo testee, written ahead: ${formatNumber(echoRate)} calls/s.`,
    ...(inProcess.finding || overProtocol.finding ? ['  NOTE: a finding stopped a run early; its rate covers the headers tried before it.'] : []),
    ...(log.length > 0 ? [`  testee log: ${log.slice(0, 3).join(' | ')}`] : []),
    '',
    line('fuzz in process', inProcess.rate, AIM_IN_PROCESS),
    line('fuzz over protocol v1 (node adapter)', overProtocol.rate, AIM_PROTOCOL),
    `ratio fuzz over protocol (node adapter) / echo calls: ${ratio.toFixed(2)} (aim ≥ 0.50) ${ratio >= 0.5 ? 'meets aim' : 'below aim'}`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

// --- internal ---

/** calls/s of the echo testee for as many authorization.parse calls as headers, all written ahead. */
async function echoBaseline(n: number): Promise<number> {
  const headers = fc.sample(fuzzHeaderArb, { numRuns: Math.max(n, 1000), seed: SEED }).map(fuzzHeaderText);
  const echo = await createTesteeSubject(testeeOptions(echoCommand(['authorization.parse']), []));
  try {
    await Promise.all(headers.slice(0, 500).map((header, i) => echo.call('authorization.parse', { header }, `warm-${i}`)));
    const t0 = performance.now();
    await Promise.all(headers.map((header, i) => echo.call('authorization.parse', { header }, `echo-${i}`)));
    return headers.length / ((performance.now() - t0) / 1000);
  } finally {
    await echo.close();
  }
}

async function measure(subject: Subject): Promise<Measured> {
  await fuzzParser(subject, { seed: SEED + 1, runs: 200 }); // warm-up
  let m = await timed(subject, TRIAL_RUNS);
  // The trial underestimates a warm rate: rescale until a run takes most of TARGET_S (at most 3 tries).
  for (let i = 0; i < 3 && m.seconds < TARGET_S * 0.8 && !m.finding; i += 1) {
    m = await timed(subject, Math.max(TRIAL_RUNS, Math.round(m.rate * TARGET_S)));
  }
  return m;
}

async function timed(subject: Subject, runs: number): Promise<Measured> {
  const t0 = performance.now();
  const result = await fuzzParser(subject, { seed: SEED, runs });
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
