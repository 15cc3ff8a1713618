/**
 * Merging the shards of a run (`pgv2kit run --shard <i>/<n>` in n CI jobs, then `pgv2kit merge`):
 * each shard's report folder holds its model (`shard.json`: every text masked, as the reports);
 * the merged model has every case in the order one run would have run them, and the totals,
 * verdict, causes and tables worked out as for one run — so the reports, and the exit code, are
 * one run's. Shards that do not belong together are refused, never merged into a verdict.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { noTestRan, operationCoverage, otherTargetsLine } from '../runner/coverage.js';
import { countVerdicts } from '../runner/run.js';
import type { RunStopped } from '../runner/result.js';
import type { OpOutcome } from '../checks/outcome.js';
import { inOperationOrder, type Operation } from '../protocol/operations.js';
import { withDerived, type ReportModel } from './_model.js';
import { Pgv2kitError } from '../errors.js';

/** The file a shard's report folder holds its model in. */
export const SHARD_FILE = 'shard.json';

/** What a shard file says it is (read before anything else is trusted). */
const SHARD_FORMAT = 'pgv2kit-shard/1';

/** Shards that cannot be merged: not shards, of different runs, one missing or given twice (exit 2). */
export class MergeError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_MERGE';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'MergeError';
}

/**
 * The content of a shard's `shard.json`.
 * @param model - the shard's model
 * @returns the file's text
 */
export function shardFileText(model: ReportModel): string {
  return `${JSON.stringify({ format: SHARD_FORMAT, model })}\n`;
}

/**
 * Reads the model a shard's report folder holds.
 * @param dir - the report folder of one shard
 * @returns the model
 * @throws {MergeError} when the folder has no shard file, or not one of this kit's
 */
export function readShard(dir: string): ReportModel {
  if (!existsSync(dir)) throw new MergeError(`${dir} does not exist`);
  let text: string;
  try {
    text = readFileSync(join(dir, SHARD_FILE), 'utf8');
  } catch {
    throw new MergeError(`${dir} holds no ${SHARD_FILE}: it is not the report folder of a run with --shard <i>/<n>`);
  }
  let parsed: { format?: unknown; model?: ReportModel };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new MergeError(`${join(dir, SHARD_FILE)} is not JSON`);
  }
  if (parsed.format !== SHARD_FORMAT || !parsed.model?.shard)
    throw new MergeError(`${join(dir, SHARD_FILE)} is not a pgv2kit shard file (${SHARD_FORMAT})`);
  return parsed.model;
}

/**
 * Merges the models of every shard of one run into the model of the whole run.
 * @param parts - one model per shard, in any order
 * @param runName - the merged run's name (default: the first shard's)
 * @returns the merged model (no `shard`: it is the whole run)
 * @throws {MergeError} naming what does not fit: a shard missing or given twice, another vector set, target, kit
 *   or selection
 * @example
 * import { buildModel } from './_model.js';
 * mergeShards([buildModel(run, [])]) // throws MergeError — a run that was not sharded
 */
export function mergeShards(parts: readonly ReportModel[], runName?: string): ReportModel {
  const first = parts[0];
  if (!first?.shard) throw new MergeError('give the report folders of the shards to merge');
  const n = first.shard.count;
  const seen = new Map<number, number>();
  for (const p of parts) {
    const s = p.shard;
    if (!s) throw new MergeError('every folder must be a shard');
    const differs = (what: string, a: unknown, b: unknown): void => {
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new MergeError(
          `shard ${s.index}/${s.count} is not of the same run as shard ${first.shard?.index}/${n}: ${what} differs`,
        );
    };
    differs('the number of shards', s.count, n);
    differs('the vector set', p.vectorSetHash, first.vectorSetHash);
    differs('the kit version', p.kit, first.kit);
    differs('the target', p.target, first.target);
    differs('the selection (--only, --skip, --properties)', s.ids, first.shard.ids);
    seen.set(s.index, (seen.get(s.index) ?? 0) + 1);
  }
  const twice = [...seen].filter(([, k]) => k > 1).map(([i]) => `${i}/${n}`);
  if (twice.length > 0) throw new MergeError(`shard ${twice.join(', ')} given more than once`);
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeError(
      `shard ${missing.map((i) => `${i}/${n}`).join(', ')} missing: ` +
        'a merge of some shards would count what did not run as not there',
    );

  const byIndex = [...parts].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const order = new Map(first.shard.ids.map((id, i) => [id, i]));
  const cases = byIndex
    .flatMap((p) => p.cases)
    .sort((a, b) => (order.get(a.id) ?? order.size) - (order.get(b.id) ?? order.size));
  // the coverage reads each step's operation and status: a clean view keeps both as the run had them
  const steps = cases as unknown as ReadonlyArray<{ readonly ops: ReadonlyArray<Pick<OpOutcome, 'op' | 'status'>> }>;
  const ran = byIndex.find((p) => p.aborted === undefined) ?? first;
  const offered = [...new Set(byIndex.flatMap((p) => p.offered))];
  const aborted = byIndex.find((p) => p.aborted)?.aborted;
  const stops = byIndex.filter((p) => p.stopped);
  const stopped: RunStopped | undefined = stops[0]?.stopped
    ? {
        kind: stops[0].stopped.kind,
        reason: stops.map((p) => `shard ${p.shard?.index}/${n}: ${p.stopped?.reason}`).join('; '),
        notRun: stops.reduce((k, p) => k + (p.stopped?.notRun ?? 0), 0),
      }
    : undefined;
  const others = byIndex.filter((p) => p.otherTargets);
  const otherTargets =
    others.length > 0
      ? {
          cases: others.reduce((k, p) => k + (p.otherTargets?.cases ?? 0), 0),
          operations: inOperationOrder(others.flatMap((p) => p.otherTargets?.operations ?? []) as Operation[]),
        }
      : undefined;
  const startedAt = byIndex.map((p) => p.startedAt).sort()[0] ?? first.startedAt;
  const finishedAt =
    byIndex
      .map((p) => p.finishedAt)
      .sort()
      .at(-1) ?? first.finishedAt;
  const nothing = aborted
    ? byIndex.find((p) => p.aborted)?.noTestRan
    : noTestRan({
        selection: first.selection,
        cases: steps,
        offered,
        ...(otherTargets ? { otherTargets: otherTargets.cases } : {}),
      });
  return withDerived({
    runName: runName ?? first.runName,
    kit: first.kit,
    vectorSetHash: first.vectorSetHash,
    implementation: ran.implementation,
    target: first.target,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    selection: first.selection,
    totals: countVerdicts(cases),
    cases,
    log: byIndex.flatMap((p) => [`--- shard ${p.shard?.index}/${n}: ${p.runName} ---`, ...p.log]),
    staleListEntries: first.staleListEntries,
    offered,
    operations: operationCoverage(steps, offered),
    unknownOperations: ran.unknownOperations,
    ...(nothing !== undefined && !stopped ? { noTestRan: nothing } : {}),
    ...(stopped ? { stopped } : {}),
    ...(otherTargets ? { otherTargets: { ...otherTargets, message: otherTargetsLine(otherTargets) } } : {}),
    ...(aborted ? { aborted } : {}),
  });
}
