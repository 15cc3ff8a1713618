/**
 * CPU time, on both sides of the pipe: the runner's own (process.cpuUsage) and a
 * testee's (the processes under this one whose command line names it, read from
 * /proc). CPU per call does not depend on how busy the machine is the way calls per
 * second does, so it says which side the time goes to. Linux only: elsewhere the
 * testee's share is unknown and left out.
 * @module
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Series } from './_measure.js';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on every Linux build that matters). */
const TICKS = 100;

/**
 * The runner's CPU time so far (user + system).
 * @returns milliseconds
 * @example const t0 = runnerCpuMs();
 */
export function runnerCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The CPU time so far of this process's descendants whose command line contains a
 * marker (e.g. `adapter.mjs`), or undefined where /proc cannot say.
 * @param marker - a piece of the testee's command line
 * @returns milliseconds, at 10 ms resolution
 * @example testeeCpuMs('echo-testee.mjs')
 */
export function testeeCpuMs(marker: string): number | undefined {
  try {
    let ticks = 0;
    for (const pid of descendants(process.pid)) {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.includes(marker) || cmdline.startsWith('/bin/sh')) continue;
      // Fields after the command name (which is in parentheses and may hold spaces): utime is field 14, stime 15.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks / TICKS) * 1000;
  } catch {
    return undefined;
  }
}

/** One measured round of a protocol benchmark. */
export interface Sample {
  /** Units (calls or cases) per second. */
  readonly rate: number;
  /** The runner's CPU per unit, in microseconds. */
  readonly runnerUs: number;
  /** The testee's CPU per unit, in microseconds (undefined where /proc cannot say). */
  readonly testeeUs: number | undefined;
}

/**
 * Times some work of `units` calls or cases: wall clock and the CPU of both sides.
 * @param units - how many calls or cases the work makes
 * @param marker - a piece of the testee's command line; undefined for no testee
 * @param work - the work
 * @returns the rate and the CPU per unit
 * @example const s = await sample(1000, 'adapter.mjs', () => runCalls());
 */
export async function sample(units: number, marker: string | undefined, work: () => Promise<void>): Promise<Sample> {
  const testee0 = marker === undefined ? undefined : testeeCpuMs(marker);
  const runner0 = runnerCpuMs();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const runnerMs = runnerCpuMs() - runner0;
  const testee1 = marker === undefined ? undefined : testeeCpuMs(marker);
  const testeeMs = testee0 === undefined || testee1 === undefined ? undefined : testee1 - testee0;
  return {
    rate: (units / ms) * 1000,
    runnerUs: (runnerMs / units) * 1000,
    testeeUs: testeeMs === undefined ? undefined : (testeeMs / units) * 1000,
  };
}

/**
 * The series of some samples: the rate, the runner's CPU per unit, the testee's (when known).
 * @param label - the subject, e.g. `node adapter`
 * @param unit - `call` or `case`
 * @param samples - one per measured round
 * @returns two or three series
 * @example sampleSeries('echo testee', 'call', samples)
 */
export function sampleSeries(label: string, unit: string, samples: readonly Sample[]): Series[] {
  const out: Series[] = [
    { label, unit: `${unit}s/s`, values: samples.map((s) => s.rate) },
    { label: `${label}: runner CPU`, unit: `µs/${unit}`, values: samples.map((s) => s.runnerUs) },
  ];
  const testee = samples.map((s) => s.testeeUs);
  if (testee.every((t): t is number => t !== undefined))
    out.push({ label: `${label}: testee CPU`, unit: `µs/${unit}`, values: testee });
  return out;
}

// --- internal ---

function descendants(pid: number): number[] {
  const children: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const list = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
    if (list) children.push(...list.split(' ').map(Number));
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}
