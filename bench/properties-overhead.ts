/**
 * Properties overhead (issue 10, item 4): the wall time of a default `pgv2kit run` against the
 * Node example adapter over protocol v1 — the whole command: every vector, then the properties
 * (100 inputs each) — against `--no-properties`, measured back to back in rounds; and the
 * properties' own call rate over protocol v1 beside the echo testee's for the same calls.
 * Aims (issue 10): with properties ≤ 1.5 × without; properties ≥ 0.50 × echo.
 * It measures, it does not gate.
 * @module
 */
import { runProperties } from '../dist/runner/properties.js';
import { PROPERTIES } from '../dist/properties/catalogue.js';
import { spawnSync } from 'node:child_process';
import { createTesteeSubject } from '../dist/subjects/testee-subject.js';
import type { Subject } from '../dist/subjects/subject.js';
import type { Operation } from '../dist/protocol/operations.js';
import type { OperationInput } from '../dist/subjects/subject.js';
import { formatNumber, summarize, table, type Summary } from './_measure.js';
import { ADAPTER_COMMAND, ROOT, echoCommand, testeeOptions } from './_testees.js';

const ROUNDS = 5;
const AIM = 1.5;
const RATE_ROUNDS = 3;

/**
 * Runs the benchmark.
 * @returns the section to print: a table and the closing line
 * @example process.stdout.write(await benchPropertiesOverhead());
 */
export async function benchPropertiesOverhead(): Promise<string> {
  const without: number[] = [];
  const withProps: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    // the whole command, as a user runs it (its testee, the client role's gateway, every vector); round 0 warms up
    for (const properties of round % 2 === 0 ? [false, true] : [true, false]) {
      const s = wall([
        'run',
        '--testee',
        ADAPTER_COMMAND,
        '--no-reports',
        ...(properties ? ['--seed', String(round + 1)] : ['--no-properties']),
      ]);
      if (round > 0) (properties ? withProps : without).push(s);
    }
  }
  const calls = await propertyCallRates();
  const med = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
  const ratio = med(withProps) / med(without);
  const rows = [
    [
      'pgv2kit run --no-properties',
      med(without).toFixed(3),
      Math.min(...without).toFixed(3),
      Math.max(...without).toFixed(3),
    ],
    [
      `pgv2kit run (${PROPERTIES.length} properties × 100 inputs)`,
      med(withProps).toFixed(3),
      Math.min(...withProps).toFixed(3),
      Math.max(...withProps).toFixed(3),
    ],
  ];
  return [
    `properties overhead (pgv2kit run --testee "${ADAPTER_COMMAND}", wall time of the whole command, ${ROUNDS} rounds, median s)`,
    table(['run', 'median s', 'min', 'max'], rows).trimEnd(),
    `  the properties alone over protocol v1 (${RATE_ROUNDS} rounds, 200 inputs each): ${formatNumber(calls.rates.median)} calls/s; the same calls to the echo testee, written ahead: ${formatNumber(calls.echo.median)} calls/s; ratio per round: ${calls.perRound.join(', ')}`,
    '',
    `ratio run with properties / without: ${ratio.toFixed(2)} (aim ≤ ${AIM.toFixed(2)}) ${ratio <= AIM ? 'meets aim' : 'beyond aim'}`,
    `ratio properties over protocol (node adapter) / echo calls: ${calls.ratios.median.toFixed(2)} (median of ${RATE_ROUNDS} rounds; aim ≥ 0.50) ${calls.ratios.median >= 0.5 ? 'meets aim' : 'below aim'}`,
    '',
    '',
  ].join('\n');
}

// --- internal ---

/**
 * The properties alone over protocol v1, in rounds: their calls/s against the node adapter, and
 * right after, the same calls (recorded) to the echo testee, all written ahead: the protocol's
 * cost floor for these very inputs (bodies up to 64 KiB included).
 */
async function propertyCallRates(): Promise<{ rates: Summary; echo: Summary; ratios: Summary; perRound: string[] }> {
  const adapter = await createTesteeSubject(testeeOptions(ADAPTER_COMMAND, []));
  const echo = await createTesteeSubject(testeeOptions(echoCommand(adapter.operations), []));
  const rounds: Array<{ rate: number; echo: number }> = [];
  try {
    for (let r = 0; r <= RATE_ROUNDS; r += 1) {
      const calls: Array<{ op: Operation; input: OperationInput }> = [];
      const recording: Subject = {
        ...adapter,
        operations: adapter.operations,
        implementation: adapter.implementation,
        call: (op, input, id) => (calls.push({ op, input }), adapter.call(op, input, id)),
      };
      const t0 = performance.now();
      await runProperties(recording, { seed: 99 + r, runs: 200 });
      const rate = calls.length / ((performance.now() - t0) / 1000);
      const t1 = performance.now();
      await Promise.all(calls.map((c, i) => echo.call(c.op, c.input, `echo-${r}-${i}`)));
      const echoRate = calls.length / ((performance.now() - t1) / 1000);
      if (r > 0) rounds.push({ rate, echo: echoRate }); // round 0 warms up
    }
  } finally {
    await adapter.close();
    await echo.close();
  }
  return {
    rates: summarize(rounds.map((x) => x.rate)),
    echo: summarize(rounds.map((x) => x.echo)),
    ratios: summarize(rounds.map((x) => x.rate / x.echo)),
    perRound: rounds.map((x) => (x.rate / x.echo).toFixed(2)),
  };
}

/** Seconds one `pgv2kit` command takes, start to exit. */
function wall(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['bin/pgv2kit.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true' },
    stdio: 'ignore',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`pgv2kit ${args.join(' ')} exited ${r.status ?? r.signal}`);
  return (performance.now() - t0) / 1000;
}
