/**
 * Properties overhead (issue 10, item 4): the wall time of a default `pgv2kit run` against the
 * Node example adapter over protocol v1 — the whole command: every vector, then the properties
 * (100 inputs each) — against `--no-properties`, measured back to back in rounds; and the
 * properties' own call rate over protocol v1. Aim: with properties ≤ 1.5 × without.
 * It measures, it does not gate.
 * @module
 */
import { runProperties } from '../dist/properties/run.js';
import { spawnSync } from 'node:child_process';
import { createTesteeSubject } from '../dist/subjects/testee-subject.js';
import type { Subject } from '../dist/subjects/subject.js';
import { formatNumber, table } from './_measure.js';
import { ADAPTER_COMMAND, ROOT, testeeOptions } from './_testees.js';

const ROUNDS = 5;
const AIM = 1.5;

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
      const s = wall(['run', '--testee', ADAPTER_COMMAND, '--no-reports', ...(properties ? ['--seed', String(round + 1)] : ['--no-properties'])]);
      if (round > 0) (properties ? withProps : without).push(s);
    }
  }
  const rate = await propertyCallRate();
  const med = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? 0;
  const ratio = med(withProps) / med(without);
  const rows = [
    ['pgv2kit run --no-properties', med(without).toFixed(3), Math.min(...without).toFixed(3), Math.max(...without).toFixed(3)],
    ['pgv2kit run (9 properties × 100 inputs)', med(withProps).toFixed(3), Math.min(...withProps).toFixed(3), Math.max(...withProps).toFixed(3)],
  ];
  return [
    `properties overhead (pgv2kit run --testee "${ADAPTER_COMMAND}", wall time of the whole command, ${ROUNDS} rounds, median s)`,
    table(['run', 'median s', 'min', 'max'], rows).trimEnd(),
    `  the properties alone over protocol v1: ${formatNumber(rate)} calls/s (bodies up to 64 KiB; compare the echo baseline of fuzz-speed and protocol-calls)`,
    '',
    `ratio run with properties / without: ${ratio.toFixed(2)} (aim ≤ ${AIM.toFixed(2)}) ${ratio <= AIM ? 'meets aim' : 'beyond aim'}`,
    '',
    '',
  ].join('\n');
}

// --- internal ---

/** calls/s of the properties alone against the node adapter. */
async function propertyCallRate(): Promise<number> {
  const adapter = await createTesteeSubject(testeeOptions(ADAPTER_COMMAND, []));
  let calls = 0;
  const counting: Subject = { ...adapter, operations: adapter.operations, implementation: adapter.implementation, call: (op, input, id) => ((calls += 1), adapter.call(op, input, id)) };
  try {
    const t0 = performance.now();
    await runProperties(counting, { seed: 99, runs: 300 });
    return calls / ((performance.now() - t0) / 1000);
  } finally {
    await adapter.close();
  }
}

/** Seconds one `pgv2kit` command takes, start to exit. */
function wall(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['bin/pgv2kit.js', ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: 'ignore', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`pgv2kit ${args.join(' ')} exited ${r.status ?? r.signal}`);
  return (performance.now() - t0) / 1000;
}
