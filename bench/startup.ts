/**
 * Start-up: the wall time of `pgv2kit --help` against a bare `node -e 0`, in rounds back to
 * back. The CLI loads a command's work only when the command runs (`commands/<name>.run.ts`),
 * so help, version and usage errors load the declarations alone; an arbitrary built at import
 * time once added a second to it (issue 10). Aim (issue 11): ≤ 2 × bare node. Beside it, a
 * default `pgv2kit run` (the reference, in process) against the time its cases take, as the run
 * reports it: the rest is start-up, loading and the reports (aim ≤ 2).
 * It measures, it does not gate.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { table } from './_measure.js';
import { ROOT } from './_testees.js';

const ROUNDS = 7;
const AIM = 2;
const RUN_ROUNDS = 3;
const RUN_AIM = 2;

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
  // a default run (the reference, in process, properties included): the command's wall time
  // against the time its cases took, as the run itself reports it (results.json durationMs)
  const runWall: number[] = [];
  const runCases: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-bench-run-'));
  try {
    for (let round = 0; round <= RUN_ROUNDS; round += 1) {
      const w = wall(['bin/pgv2kit.js', 'run', '--report-dir', dir]);
      const cases =
        (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { durationMs: number }).durationMs / 1000;
      if (round > 0) {
        runWall.push(w);
        runCases.push(cases);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const runRatio = med(runWall) / med(runCases);
  return [
    `start-up (${ROUNDS} rounds, median s)`,
    table(
      ['command', 'median s', 'min', 'max'],
      [
        ['node -e 0', med(node).toFixed(3), Math.min(...node).toFixed(3), Math.max(...node).toFixed(3)],
        ['pgv2kit --help', med(kit).toFixed(3), Math.min(...kit).toFixed(3), Math.max(...kit).toFixed(3)],
        [
          `pgv2kit run (${RUN_ROUNDS} rounds)`,
          med(runWall).toFixed(3),
          Math.min(...runWall).toFixed(3),
          Math.max(...runWall).toFixed(3),
        ],
        [
          '  its cases, as the run reports',
          med(runCases).toFixed(3),
          Math.min(...runCases).toFixed(3),
          Math.max(...runCases).toFixed(3),
        ],
      ],
    ).trimEnd(),
    '',
    `ratio start-up (pgv2kit --help / node -e 0): ${ratio.toFixed(2)} (aim ≤ ${AIM.toFixed(2)}) ${ratio <= AIM ? 'meets aim' : 'beyond aim'}`,
    `ratio run (pgv2kit run wall / its cases): ${runRatio.toFixed(2)} (aim ≤ ${RUN_AIM.toFixed(2)}) ${runRatio <= RUN_AIM ? 'meets aim' : 'beyond aim'}`,
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
