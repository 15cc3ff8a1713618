/**
 * Merge at scale (issue 25, item 4): `pgv2kit merge` of 1,000 shards — the most a run has — made
 * as `run --shard i/1000` writes them (a real shard model of the reference, cloned: 3,000 case
 * ids, each case in the shard `shardOf` gives it), read, checked against the shard schema and
 * merged, in a child process of its own (wall time, and its peak RSS as the child reports it).
 * Beside it, in the same way: the same 3,000 cases in 10 shards, and reading and `JSON.parse` of
 * the 1,000 files alone (the floor: every byte read and parsed once). Linear work shows as the
 * same milliseconds per MB for both merges, and a constant factor over the parse. Before the clock starts each
 * child does the 10 shards' work once (the schema compiled, the code warm): the fixed costs of a process.
 * It measures, it does not gate.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createReferenceSubject, loadVectorSet } from '../dist/index.js';
import { buildModel, type ReportModel } from '../dist/reports/_model.js';
import { shardFileText } from '../dist/reports/merge.js';
import { runCases } from '../dist/runner/run.js';
import { shardOf } from '../dist/runner/shard.js';
import { table } from './_measure.js';
import { ROOT } from './_testees.js';

const IDS = 3000;
const ROUNDS = 3;

/**
 * Runs the benchmark.
 * @returns the section to print: a table and the closing line
 * @example process.stdout.write(await benchMergeScale());
 */
export async function benchMergeScale(): Promise<string> {
  const template = await templateModel();
  const root = mkdtempSync(join(tmpdir(), 'pgv2kit-bench-merge-'));
  try {
    const many = writeShards(join(root, 'many'), template, 1000);
    const few = writeShards(join(root, 'few'), template, 10);
    const rows: Array<{ label: string; mb: number; ms: number[]; rss: number[] }> = [
      { label: 'read + JSON.parse, 1,000 files', mb: many.mb, ms: [], rss: [] },
      { label: 'merge 1,000 shards', mb: many.mb, ms: [], rss: [] },
      { label: 'merge 10 shards (same cases)', mb: few.mb, ms: [], rss: [] },
    ];
    const jobs = [
      { row: rows[0], script: PARSE, dirs: many.dirs },
      { row: rows[1], script: MERGE, dirs: many.dirs },
      { row: rows[2], script: MERGE, dirs: few.dirs },
    ];
    for (let round = 0; round < ROUNDS; round += 1)
      for (const job of jobs) {
        const r = child(job.script, job.dirs, few.dirs);
        job.row?.ms.push(r.ms);
        job.row?.rss.push(r.rssMb);
      }
    const med = (x: readonly number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)] ?? 0;
    const perMb = rows.map((r) => med(r.ms) / r.mb);
    return [
      `merge at scale (${IDS.toLocaleString('en')} case ids, ${ROUNDS} rounds, median; each in a child process)`,
      table(
        ['what', 'MB read', 'median ms', 'ms / MB', 'peak RSS MB'],
        rows.map((r, i) => [
          r.label,
          r.mb.toFixed(1),
          med(r.ms).toFixed(0),
          (perMb[i] ?? 0).toFixed(1),
          med(r.rss).toFixed(0),
        ]),
      ).trimEnd(),
      '',
      `ratio merge (1,000 shards / read + parse, per MB): ${((perMb[1] ?? 0) / (perMb[0] ?? 1)).toFixed(2)}`,
      `ratio merge (1,000 shards / 10 shards, per MB): ${((perMb[1] ?? 0) / (perMb[2] ?? 1)).toFixed(2)}`,
      '',
      '',
    ].join('\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// --- internal ---

/** The child's work: every shard read, checked and merged as `pgv2kit merge` does. */
const MERGE = `
const { mergeShards, readShards } = await import('./dist/reports/merge.js');
const { shardFileProblems } = await import('./dist/reports/shard-schema.js');
const dirs = JSON.parse(process.argv[1]);
// before the clock starts: the schema compiled and the code warm (a merge of the 10 shards), fixed costs of a process
shardFileProblems({});
mergeShards(readShards(JSON.parse(process.argv[2])));
const t0 = performance.now();
const m = mergeShards(readShards(dirs));
const ms = performance.now() - t0;
if (m.cases.length !== ${IDS}) throw new Error('merged ' + m.cases.length + ' cases');
process.stdout.write(JSON.stringify({ ms, rss: process.resourceUsage().maxRSS }));
`;

/** The floor: every shard file read and parsed, nothing else. */
const PARSE = `
const { readFileSync } = await import('node:fs');
const dirs = JSON.parse(process.argv[1]);
for (const d of JSON.parse(process.argv[2])) JSON.parse(readFileSync(d + '/shard.json', 'utf8'));
const t0 = performance.now();
const models = dirs.map((d) => JSON.parse(readFileSync(d + '/shard.json', 'utf8')));
const ms = performance.now() - t0;
if (models.length !== dirs.length) throw new Error('parsed ' + models.length);
process.stdout.write(JSON.stringify({ ms, rss: process.resourceUsage().maxRSS }));
`;

function child(script: string, dirs: readonly string[], warm: readonly string[]): { ms: number; rssMb: number } {
  const args = ['--input-type=module', '-e', script, JSON.stringify(dirs), JSON.stringify(warm)];
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`merge-scale child exited ${r.status ?? r.signal}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { ms: number; rss: number };
  // resourceUsage().maxRSS is in kilobytes
  return { ms: out.ms, rssMb: out.rss / 1024 };
}

/** A real shard model: the reference on one case, as `run --shard 1/1` makes it. */
async function templateModel(): Promise<ReportModel> {
  const run = await runCases({
    set: loadVectorSet(),
    subject: createReferenceSubject(),
    target: { kind: 'reference', description: 'built-in reference' },
    selection: { only: ['id:authorization.format-basic'], skip: [] },
    shard: { index: 1, count: 1 },
    runName: 'bench',
  });
  return buildModel(run, []);
}

/** `count` shard folders of the same run: the template's case cloned once per id, in the shard shardOf gives it. */
function writeShards(dir: string, template: ReportModel, count: number): { dirs: string[]; mb: number } {
  const ids = Array.from({ length: IDS }, (_, i) => `authorization.bench-${String(i).padStart(5, '0')}`);
  const kase = template.cases[0];
  if (!kase) throw new Error('merge-scale: the template has no case');
  const byShard = Array.from({ length: count }, () => [] as string[]);
  for (const id of ids) byShard[shardOf(id, count) - 1]?.push(id);
  let bytes = 0;
  const dirs = byShard.map((mine, i) => {
    const model: ReportModel = {
      ...template,
      runName: `bench-${i + 1}`,
      cases: mine.map((id) => ({ ...kase, id })),
      shard: { index: i + 1, count, ids },
    };
    const folder = join(dir, `s${i + 1}`);
    mkdirSync(folder, { recursive: true });
    const text = shardFileText(model);
    writeFileSync(join(folder, 'shard.json'), text);
    bytes += Buffer.byteLength(text);
    return folder;
  });
  return { dirs, mb: bytes / 1e6 };
}
