/**
 * compare at scale (issue 25, item 4): 100 implementations' results.json, and one large file
 * (100,000 cases and 100,000 operations) beside one of half its size, through what `pgv2kit compare`
 * does in process — read and check each file against the schema, recount each verdict from its cases,
 * the page, the Markdown and the badges — against JSON.parse of the same bytes, measured in the same
 * rounds. The inputs are made in a temporary folder from one real run's results.json, varied (names,
 * verdicts). Linear work keeps the ratio to JSON.parse flat from half to whole size (an 11 MB file
 * with 100,000 operations took 19.6 s when each cell searched the operations). It measures, it does
 * not gate.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  badgeSvg,
  compareHtml,
  compareMarkdown,
  compareWarnings,
  readCompareEntries,
} from '../dist/reports/compare.js';
import type { ResultsJson } from '../dist/reports/results-json.js';
import { formatNumber, summarize, table } from './_measure.js';
import { ROOT } from './_testees.js';

const IMPLEMENTATIONS = 100;
const LARGE = 100_000;
const WARMUP = 1;
const ROUNDS = 5;

/**
 * Runs the benchmark.
 * @returns the section to print: a table and the closing line
 * @example process.stdout.write(benchCompareScale());
 */
export function benchCompareScale(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-bench-compare-'));
  try {
    const seed = seedResults(dir);
    const inputs: Array<{ readonly label: string; readonly files: string[] }> = [
      { label: `${IMPLEMENTATIONS} implementations`, files: implementations(dir, seed) },
      { label: `1 file, ${LARGE / 2} cases (cut) and operations`, files: [large(dir, seed, LARGE / 2)] },
      { label: `1 file, ${LARGE} cases (cut) and operations`, files: [large(dir, seed, LARGE)] },
    ];
    const rows = inputs.map((input) => measure(input.label, input.files));
    const [, half, whole] = rows;
    const growth = (whole?.compare ?? 0) / (half?.compare ?? 1);
    return [
      `compare at scale (${ROUNDS} rounds after ${WARMUP} warm-up, median ms; baseline: JSON.parse of the same bytes)`,
      table(
        ['input', 'MB', 'JSON.parse ms', 'compare ms', 'compare / parse'],
        rows.map((r) => [
          r.label,
          (r.bytes / 1e6).toFixed(1),
          formatNumber(r.parse),
          formatNumber(r.compare),
          (r.compare / r.parse).toFixed(1),
        ]),
      ).trimEnd(),
      '  compare: readCompareEntries (stat, read, parse, schema check) + recount + compareHtml + compareMarkdown + badges',
      `compare ${LARGE} / ${LARGE / 2} cases and operations: ${growth.toFixed(2)}× the time (2.00 is linear, 4.00 quadratic)`,
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- internal ---

interface Row {
  readonly label: string;
  readonly bytes: number;
  readonly parse: number;
  readonly compare: number;
}

/** Both sides of one input, round by round: JSON.parse of every file's bytes, then the whole comparison. */
function measure(label: string, files: readonly string[]): Row {
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const parse: number[] = [];
  const compare: number[] = [];
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    const t0 = performance.now();
    for (const t of texts) JSON.parse(t);
    const t1 = performance.now();
    const entries = readCompareEntries(files);
    compareHtml(entries, '/tmp/compare');
    compareMarkdown(entries);
    compareWarnings(entries);
    for (const e of entries) badgeSvg(e.results);
    const t2 = performance.now();
    if (round >= WARMUP) {
      parse.push(t1 - t0);
      compare.push(t2 - t1);
    }
  }
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  return { label, bytes, parse: summarize(parse).median, compare: summarize(compare).median };
}

/** One real run's results.json: the reference over two kinds, no properties. */
function seedResults(dir: string): ResultsJson {
  const out = join(dir, 'seed');
  const args = ['bin/pgv2kit.js', 'run', '--only', 'signature,authorization', '--no-properties', '--report-dir', out];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the seed run failed (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsJson;
}

function write(dir: string, name: string, value: unknown): string {
  mkdirSync(join(dir, name));
  const file = join(dir, name, 'results.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** The seed under 100 names, every seventh case of every third implementation failed. */
function implementations(dir: string, seed: ResultsJson): string[] {
  return Array.from({ length: IMPLEMENTATIONS }, (_, i) => {
    const cases = seed.cases.map((c, j) => (i % 3 === 0 && j % 7 === 0 ? { ...c, verdict: 'failed' as const } : c));
    const implementation = { ...seed.implementation, name: `impl-${i}` };
    return write(dir, `impl-${i}`, { ...seed, implementation, cases });
  });
}

/**
 * The seed's cases and operations repeated to n each, every id and operation name its own; the cases cut to what
 * compare reads (id, kind, comment, verdict, message, diagnosis, each step's op and status), or 100,000 whole cases
 * would pass the 64 MiB a file compare reads.
 */
function large(dir: string, seed: ResultsJson, n: number): string {
  const cases = Array.from({ length: n }, (_, i) => {
    const c = seed.cases[i % seed.cases.length] as ResultsJson['cases'][number];
    const ops = c.ops.map((o) => ({ op: o.op, status: o.status }));
    return {
      id: `${c.id}.${i}`,
      kind: c.kind,
      comment: c.comment,
      verdict: c.verdict,
      message: c.message,
      ops,
      diagnosis: c.diagnosis,
    };
  });
  const operations = Array.from({ length: n }, (_, i) => ({
    ...(seed.operations[i % seed.operations.length] as ResultsJson['operations'][number]),
    op: `op.${i}`,
  }));
  return write(dir, `large-${n}`, { ...seed, cases, operations });
}
