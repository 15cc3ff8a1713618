/**
 * What every benchmark shares: the shape of its results, the statistics (median and
 * spread of the measured rounds), the number formats, the table and the machine note.
 * @module
 */
import { cpus, loadavg } from 'node:os';

/** One measured quantity: a value per measured round (warm-up rounds are not kept). */
export interface Series {
  /** What was measured, e.g. `node adapter`. */
  readonly label: string;
  /** The unit of the values, e.g. `cases/s`. */
  readonly unit: string;
  readonly values: readonly number[];
}

/** A ratio of two series, taken round by round (both sides of a pair ran back to back). */
export interface Ratio {
  /** Which headline it counts towards. */
  readonly headline: 'protocol' | 'sign';
  /** What is divided by what, e.g. `node adapter / echo, session calls`. */
  readonly label: string;
  readonly values: readonly number[];
  /** The aim: the ratio should be at least this. */
  readonly aim: number;
}

/** What a benchmark returns to the runner. */
export interface BenchResult {
  readonly title: string;
  readonly series: readonly Series[];
  readonly ratios: readonly Ratio[];
  /** Lines printed under the table: sizes, counts, settings. */
  readonly notes: readonly string[];
}

/** Median, extremes and spread of some values. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** (max − min) / median, in per cent. */
  readonly spreadPct: number;
}

/**
 * Summarizes the values of the measured rounds.
 * @param values - one value per round, at least one
 * @returns median, min, max and the spread in per cent of the median
 * @throws {RangeError} when there are no values
 * @example summarize([1, 2, 4]).median // 2
 */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('summarize: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const min = sorted[0] as number;
  const max = sorted[sorted.length - 1] as number;
  return { median, min, max, spreadPct: median === 0 ? 0 : ((max - min) / median) * 100 };
}

/**
 * Runs `warmup + rounds` rounds; in each, every step once, the order alternating from
 * round to round so that a slow moment of the machine does not always hit the same
 * side. Returns what the steps measured in the kept rounds, by step.
 * @param steps - named steps, each measuring one value per call
 * @param warmup - rounds run and thrown away
 * @param rounds - rounds kept
 * @returns the kept values of each step, by name
 * @example const v = await rounds({ a: async () => 1 }, 1, 3); v.a // [1, 1, 1]
 */
export async function rounds<K extends string, V>(
  steps: Record<K, () => Promise<V> | V>,
  warmup: number,
  rounds: number,
): Promise<Record<K, V[]>> {
  const names = Object.keys(steps) as K[];
  const kept = Object.fromEntries(names.map((n) => [n, [] as V[]])) as Record<K, V[]>;
  for (let r = 0; r < warmup + rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const value = await steps[name]();
      if (r >= warmup) kept[name].push(value);
    }
  }
  return kept;
}

/**
 * Ratios of two series taken round by round.
 * @param top - the numerator, one value per round
 * @param bottom - the denominator, as many values
 * @returns top[i] / bottom[i]
 * @example pairRatios([1, 2], [2, 2]) // [0.5, 1]
 */
export function pairRatios(top: readonly number[], bottom: readonly number[]): number[] {
  return top.map((t, i) => t / (bottom[i] as number));
}

/**
 * A rate with thousands grouped, no decimals above 100.
 * @param n - the number
 * @returns e.g. `12,345`
 * @example formatNumber(12345.6) // '12,346'
 */
export function formatNumber(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3);
}

/**
 * A plain-text table, columns padded; numbers (and the header above them) right-aligned.
 * @param header - the column names
 * @param rows - the cells
 * @returns the table, one line per row, ending in a newline
 * @example table(['a', 'b'], [['x', '1']])
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const numeric = header.map((_, c) => rows.length > 0 && rows.every((r) => /^[\d.,±%–×≥ -]*$/.test(r[c] ?? '')));
  const line = (r: readonly string[]): string =>
    r
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number)))
      .join('  ')
      .trimEnd();
  return `${[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')}\n`;
}

/**
 * The machine the numbers come from.
 * @returns e.g. `Intel(R) Xeon(R) Processor, 2 cores, node v20.20.2, load average 1.20 0.90 0.80`
 * @example machine()
 */
export function machine(): string {
  const cores = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `${cores[0]?.model.trim() ?? 'unknown CPU'}, ${cores.length} cores, node ${process.version}, ${process.platform}/${process.arch}, load average ${load}`;
}

/**
 * A positive integer setting from the environment.
 * @param name - the variable, e.g. PGV2KIT_BENCH_UPLOADS
 * @param fallback - when it is unset or empty
 * @returns its value
 * @throws {RangeError} when it is set and not a positive integer
 */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new RangeError(`${name} must be a positive integer; got ${JSON.stringify(raw)}`);
  return n;
}
