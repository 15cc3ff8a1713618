/**
 * The report writers' attack property with many inputs (issue 25, item 6): the same property `npm test` runs with 4
 * inputs from a fixed seed (test/reports/writers-attack.property.test.ts), here with 1,000 from a fresh seed, in
 * process. It prints the inputs, the seed, the time and the findings — none expected; a finding is printed with the
 * seed and path that replay it in the test. It measures, it does not gate, and no time is asserted.
 *
 *     npx tsx bench/run.ts attack                                   # only this one
 *     PGV2KIT_ATTACK_RUNS=300 PGV2KIT_ATTACK_SEED=25 npx tsx bench/run.ts attack
 * @module
 */
import fc from 'fast-check';
import { attackArb } from '../test/reports/_support/attack-data.js';
import { attackFindings } from '../test/reports/_support/attack.js';
import { StubShell } from '../test/reports/_support/attack-shell.js';
import type { Finding } from '../test/reports/_support/attack-checks.js';

const RUNS = 1000;

/**
 * Runs the property.
 * @returns the section to print: what ran and what it found
 * @example process.stdout.write(benchWritersAttack());
 */
export function benchWritersAttack(): string {
  const runs = Number(process.env['PGV2KIT_ATTACK_RUNS'] ?? RUNS);
  const seed = Number(process.env['PGV2KIT_ATTACK_SEED'] ?? Date.now() % 2 ** 31);
  const shell = new StubShell();
  const found: Finding[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  let details: fc.RunDetails<[unknown]> | undefined;
  try {
    details = fc.check(
      fc.property(attackArb, (d) => {
        const f = attackFindings(d, shell);
        found.push(...f);
        return f.length === 0;
      }),
      // the first finding ends the run, unshrunk: the test's replay shrinks it
      { numRuns: runs, seed, endOnFailure: true },
    ) as fc.RunDetails<[unknown]>;
  } finally {
    shell.close();
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const ran = details.numRuns;
  const lines = [
    `writers' attack property (${ran} inputs of ${runs}, seed ${seed}): ${(ms / 1000).toFixed(1)} s wall, ` +
      `${((used.user + used.system) / 1e6).toFixed(1)} s CPU, ${(ms / Math.max(ran, 1)).toFixed(0)} ms an input`,
    `  findings: ${found.length}`,
  ];
  for (const f of found) lines.push(`  - ${f.kind}: ${f.detail.slice(0, 300)}`);
  if (details.failed)
    lines.push(
      `  replay: PGV2KIT_ATTACK_SEED=${seed} PGV2KIT_ATTACK_PATH=${details.counterexamplePath ?? ''} ` +
        'npx vitest run test/reports/writers-attack.property.test.ts',
    );
  return `${lines.join('\n')}\n\n`;
}
