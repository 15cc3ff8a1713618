/**
 * Start-up: the wall time of `pgv2kit --help` against a bare `node -e 0`, in rounds back to
 * back. The CLI loads a command's work only when the command runs (`commands/<name>.run.ts`),
 * so help, version and usage errors load the declarations alone; an arbitrary built at import
 * time once added a second to it (issue 10). Aim (issue 11): ≤ 2 × bare node.
 * It measures, it does not gate.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { table } from './_measure.js';
import { ROOT } from './_testees.js';

const ROUNDS = 7;
const AIM = 2;

/**
 * Runs the benchmark.
 * @returns the section to print: a table and the closing line
 * @example process.stdout.write(benchStartup());
 */
export function benchStartup(): string {
  const node: number[] = [];
  const kit: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    const a = wall(['-e', '0']);
    const b = wall(['bin/pgv2kit.js', '--help']);
    if (round > 0) {
      node.push(a);
      kit.push(b);
    }
  }
  const med = (x: number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)] ?? 0;
  const ratio = med(kit) / med(node);
  return [
    `start-up (${ROUNDS} rounds, median s)`,
    table(['command', 'median s', 'min', 'max'], [
      ['node -e 0', med(node).toFixed(3), Math.min(...node).toFixed(3), Math.max(...node).toFixed(3)],
      ['pgv2kit --help', med(kit).toFixed(3), Math.min(...kit).toFixed(3), Math.max(...kit).toFixed(3)],
    ]).trimEnd(),
    '',
    `ratio start-up (pgv2kit --help / node -e 0): ${ratio.toFixed(2)} (aim ≤ ${AIM.toFixed(2)}) ${ratio <= AIM ? 'meets aim' : 'beyond aim'}`,
    '',
    '',
  ].join('\n');
}

function wall(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [...args], { cwd: ROOT, stdio: 'ignore', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}`);
  return (performance.now() - t0) / 1000;
}
