/**
 * Merging the shards of a run (`pgv2kit run --shard <i>/<n>` in n CI jobs, then `pgv2kit merge`):
 * each shard's report folder holds its model (`shard.json`: every text masked, as the reports);
 * the merged model has every case in the order one run would have run them, and the totals,
 * verdict, causes and tables worked out as for one run — so the reports, and the exit code, are
 * one run's. Shards that do not belong together are refused, never merged into a verdict.
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { noTestRan, operationCoverage, otherTargetsLine } from '../runner/coverage.js';
import { countVerdicts, verdictOf } from '../runner/run.js';
import type { RunStopped } from '../runner/result.js';
import { worstStatus, type OpOutcome } from '../checks/outcome.js';
import { inOperationOrder, type Operation } from '../protocol/operations.js';
import { MAX_SHARDS, shardOf } from '../runner/shard.js';
import { forOtherTargets } from '../runner/other-targets.js';
import { readFolderFile } from '../vectors/files.js';
import type { VectorCase, VectorSet } from '../vectors/types.js';
import { caseDerived, reproduceCommand, withDerived, type CaseView, type ReportModel } from './_model.js';
import { shardFileProblems } from './shard-schema.js';
import { Pgv2kitError } from '../errors.js';

/** The file a shard's report folder holds its model in. */
export const SHARD_FILE = 'shard.json';

/** What a shard file says it is (read before anything else is trusted). */
const SHARD_FORMAT = 'pgv2kit-shard/1';

/**
 * The most bytes one shard.json may hold: 64 MiB. The kit's whole vector set with the properties, run unsharded
 * and failing, is a 7 MB shard file; ten times that is room for a larger set, and a parse of it stays well
 * within Node's default heap.
 */
export const MAX_SHARD_FILE_BYTES = 64 * 1024 * 1024;

/** The most bytes all the shard files of one merge may hold together (every model is in memory at once): 256 MiB. */
export const MAX_MERGE_BYTES = 256 * 1024 * 1024;

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
 * Reads the model a shard's report folder holds, checked against the shard file's schema
 * (`shard.schema.json`: every field's type, every count, array and string bounded).
 * @param dir - the report folder of one shard
 * @param budget - the bytes left of the merge's {@link MAX_MERGE_BYTES} (default: all of them)
 * @returns the model, and the bytes its file held
 * @throws {MergeError} when the folder has no shard file, or not one of this kit's, one over
 *   {@link MAX_SHARD_FILE_BYTES}, or one the schema refuses (naming the file and the field's JSON pointer)
 */
export function readShard(dir: string, budget = MAX_MERGE_BYTES): ReportModel {
  return readShardFile(dir, budget).model;
}

/**
 * Reads the models of every shard of a merge: no more folders than {@link MAX_SHARDS} (counted before any is
 * read), no more bytes than {@link MAX_MERGE_BYTES} in all.
 * @param dirs - the shards' report folders
 * @returns their models, in the order given
 * @throws {MergeError} as {@link readShard}, or for too many folders or bytes
 */
export function readShards(dirs: readonly string[]): ReportModel[] {
  if (dirs.length > MAX_SHARDS)
    throw new MergeError(`${dirs.length} folders given: a run has at most ${MAX_SHARDS} shards`);
  let left = MAX_MERGE_BYTES;
  return dirs.map((dir) => {
    const { model, bytes } = readShardFile(dir, left);
    left -= bytes;
    return model;
  });
}

/**
 * Merges the models of every shard of one run into the model of the whole run. Nothing a shard
 * says of itself is taken on trust: every shard's cases must be exactly the ids {@link shardOf}
 * gives its index (less those it says were left to other targets or not run), each once; each
 * case's status must be its steps' and its verdict its status's; the totals, verdict, causes,
 * tables and each case's commands and diagnoses are worked out again from the cases.
 * @param parts - one model per shard, in any order
 * @param runName - the merged run's name (default: the first shard's)
 * @param given - `files`: where each part was read from, for the messages; `set`: the vector set the kit has, which
 *   says, when the shards ran it (the same hash), which ids a shard could leave to other targets
 * @returns the merged model (no `shard`: it is the whole run)
 * @throws {MergeError} naming what does not fit: a shard missing or given twice, another vector set, target, kit
 *   or selection, a case that is not its shard's, a verdict its steps do not give
 * @example
 * import { buildModel } from './_model.js';
 * mergeShards([buildModel(run, [])]) // throws MergeError — a run that was not sharded
 */
export function mergeShards(
  parts: readonly ReportModel[],
  runName?: string,
  given: { readonly files?: readonly string[]; readonly set?: Pick<VectorSet, 'hash' | 'cases'> } = {},
): ReportModel {
  const { files, set } = given;
  const first = parts[0];
  if (!first?.shard) throw new MergeError('give the report folders of the shards to merge');
  if (parts.length > MAX_SHARDS)
    throw new MergeError(`${parts.length} shards given: a run has at most ${MAX_SHARDS} shards`);
  const where = (k: number): string => (files?.[k] !== undefined ? ` (${files[k]})` : '');
  parts.forEach((p, k) => {
    const s = p.shard;
    if (!s) throw new MergeError(`every folder must be a shard${where(k)}`);
    const whole = (v: number): boolean => Number.isInteger(v) && v >= 1 && v <= MAX_SHARDS;
    if (!whole(s.count))
      throw new MergeError(`shard${where(k)}: /model/shard/count: must be an integer from 1 to ${MAX_SHARDS}`);
    if (!whole(s.index) || s.index > s.count)
      throw new MergeError(`shard${where(k)}: /model/shard/index: must be an integer from 1 to its count, ${s.count}`);
  });
  const n = first.shard.count;
  const ids = first.shard.ids;
  const seen = new Map<number, number>();
  parts.forEach((p, k) => {
    const s = p.shard as NonNullable<ReportModel['shard']>;
    const differs = (what: string, a: unknown, b: unknown): void => {
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new MergeError(
          `shard ${s.index}/${s.count}${where(k)} is not of the same run as shard ${first.shard?.index}/${n}: ` +
            `${what} differs`,
        );
    };
    differs('the number of shards', s.count, n);
    differs('the vector set', p.vectorSetHash, first.vectorSetHash);
    differs('the kit version', p.kit, first.kit);
    differs('the target', p.target, first.target);
    if (s.ids.length !== ids.length || s.ids.some((id, i) => id !== ids[i]))
      differs('the selection (--only, --skip, --properties)', 0, 1);
    seen.set(s.index, (seen.get(s.index) ?? 0) + 1);
  });
  const twice = [...seen].filter(([, k]) => k > 1).map(([i]) => `${i}/${n}`);
  if (twice.length > 0) throw new MergeError(`shard ${twice.join(', ')} given more than once`);
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeError(
      `shard ${missing.map((i) => `${i}/${n}`).join(', ')} missing: ` +
        'a merge of some shards would count what did not run as not there',
    );
  const order = runOrder(ids, n, (k, why) => {
    throw new MergeError(`shard ${first.shard?.index}/${n}${where(0)}: /model/shard/ids/${k}: ${why}`);
  });
  // the vector set the shards ran, when the kit has it: which ids need only operations for other targets
  const known = set?.hash === first.vectorSetHash ? new Map(set.cases.map((l) => [l.case.id, l.case])) : undefined;
  parts.forEach((p, k) =>
    checkCases(p, order, known, (pointer, why) => {
      throw new MergeError(`shard ${p.shard?.index}/${n}${where(k)}: ${pointer}: ${why}`);
    }),
  );

  const byIndex = [...parts].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  // in run order; each case's commands and diagnoses made again from its steps and the run's target
  const cases: CaseView[] = byIndex
    .flatMap((p) => p.cases)
    .sort((a, b) => (order.of.get(a.id)?.at ?? 0) - (order.of.get(b.id)?.at ?? 0))
    .map((c) => {
      const { diagnosis, ...derived } = caseDerived(c.ops);
      const { curl: _curl, ...rest } = c;
      return {
        ...rest,
        reproduce: reproduceCommand(first.target, c.id, c.property?.replay),
        ...derived,
        diagnosis,
      };
    });
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

// --- internal ---

/** Where each id of the run is (its place in run order, and its shard), and each shard's ids. */
interface RunOrder {
  readonly of: ReadonlyMap<string, { readonly at: number; readonly shard: number }>;
  readonly byShard: ReadonlyArray<readonly string[]>;
}

/** Reads one shard file: its size first, then its JSON, then the schema. */
function readShardFile(dir: string, budget: number): { model: ReportModel; bytes: number } {
  if (!existsSync(dir)) throw new MergeError(`${dir} does not exist`);
  const file = join(dir, SHARD_FILE);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new MergeError(`${dir} holds no ${SHARD_FILE}: it is not the report folder of a run with --shard <i>/<n>`);
  }
  if (size > budget)
    throw new MergeError(
      `${file} is ${size} bytes: the shard files of one merge hold at most ${MAX_MERGE_BYTES} bytes in all`,
    );
  const read = readFolderFile(file, Math.min(MAX_SHARD_FILE_BYTES, budget), `pgv2kit merge's limit`);
  if (!read.ok) throw new MergeError(`${file} ${read.message}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    throw new MergeError(`${file} is not JSON`);
  }
  const format = typeof parsed === 'object' && parsed !== null ? (parsed as { format?: unknown }).format : undefined;
  if (format !== SHARD_FORMAT) throw new MergeError(`${file} is not a pgv2kit shard file (${SHARD_FORMAT})`);
  const problems = shardFileProblems(parsed);
  if (problems.length > 0) throw new MergeError(`${file}: ${problems.join('; ')}`);
  return { model: (parsed as { model: ReportModel }).model, bytes: read.bytes.length };
}

/** Each id's place and shard ({@link shardOf}, as the runner split them), once per id; an id twice is refused. */
function runOrder(ids: readonly string[], count: number, refuse: (k: number, why: string) => never): RunOrder {
  const of = new Map<string, { at: number; shard: number }>();
  const byShard = Array.from({ length: count + 1 }, () => [] as string[]);
  ids.forEach((id, at) => {
    if (of.has(id)) refuse(at, `${quoted(id)} appears twice`);
    const shard = shardOf(id, count);
    of.set(id, { at, shard });
    byShard[shard]?.push(id);
  });
  return { of, byShard };
}

/**
 * A shard's cases against the run's ids: each is one of its own ids (the runner's split), once; its status is its
 * steps' and its verdict its status's; and the ids it has no case for are those it says it left to other targets or
 * did not run (a shard that never started has none) — and, when the vector set is `known`, those it says it left
 * to other targets are the ones that need only kit-internal operations it does not offer.
 */
function checkCases(
  p: ReportModel,
  order: RunOrder,
  known: ReadonlyMap<string, VectorCase> | undefined,
  refuse: (pointer: string, why: string) => never,
): void {
  const s = p.shard as NonNullable<ReportModel['shard']>;
  const own = new Set<string>();
  p.cases.forEach((c, k) => {
    const at = order.of.get(c.id);
    if (at === undefined)
      refuse(`/model/cases/${k}/id`, `${quoted(c.id)} is not one of the run's ids (/model/shard/ids)`);
    if (at.shard !== s.index)
      refuse(`/model/cases/${k}/id`, `${quoted(c.id)} is shard ${at.shard}/${s.count}'s case, not this shard's`);
    if (own.has(c.id)) refuse(`/model/cases/${k}/id`, `${quoted(c.id)} appears twice`);
    own.add(c.id);
    const status = worstStatus(c.ops);
    if (c.status !== status) refuse(`/model/cases/${k}/status`, `is "${c.status}", but its steps give "${status}"`);
    const verdict = verdictOf(c.status, c.listedReason !== undefined ? { reason: c.listedReason } : undefined);
    if (c.verdict !== verdict)
      refuse(`/model/cases/${k}/verdict`, `is "${c.verdict}", but its status "${c.status}" gives "${verdict}"`);
  });
  const mine = order.byShard[s.index] ?? [];
  const assigned = mine.length;
  const accounted = p.aborted ? assigned : (p.otherTargets?.cases ?? 0) + (p.stopped?.notRun ?? 0);
  if (p.aborted && p.cases.length > 0) refuse('/model/cases', 'a shard whose run never started holds no case');
  if (assigned - p.cases.length !== accounted)
    refuse(
      '/model/cases',
      `holds ${p.cases.length} of the ${assigned} cases the run's ids give shard ${s.index}/${s.count}, ` +
        `and says ${accounted} of the others were left to other targets (/model/otherTargets/cases) ` +
        'or did not run (/model/stopped/notRun)',
    );
  if (!known || p.aborted) return;
  const offered = p.offered as readonly Operation[];
  const others = mine.filter((id) => {
    const c = own.has(id) ? undefined : known.get(id);
    return c !== undefined && forOtherTargets(c, offered);
  }).length;
  if (others !== (p.otherTargets?.cases ?? 0))
    refuse(
      '/model/otherTargets/cases',
      `says ${p.otherTargets?.cases ?? 0} cases were left to other targets, but ${others} of the ids it holds no ` +
        "case for need only kit-internal operations it does not offer (the kit's vector set, the shards' own)",
    );
}

/** An id in a message: quoted, at most 100 characters. */
function quoted(id: string): string {
  return JSON.stringify(id.length <= 100 ? id : `${id.slice(0, 100)}…`);
}
