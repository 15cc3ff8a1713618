/**
 * What `pgv2kit merge` does, loaded only when the command runs (merge.ts declares it).
 * @module
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  mergeShards,
  readShards,
  ReportWriteError,
  SHARD_FILE,
  writeModelReports,
  type ReportModel,
} from '../../reports/index.js';
import { MAX_SHARDS } from '../../runner/shard.js';
import { loadVectorSet } from '../../vectors/load.js';
import { STOP_INFO } from '../../runner/result.js';
import { caseLines } from '../../runner/progress.js';
import { APP_SECRET_ENV } from '../../env.js';
import { Masker } from '../../scheme/mask.js';
import { checkedReportFolder, reportFolderName } from '../_report-folder.js';
import { concludeRun, prepareJunit } from '../_conclude.js';
import { resolvePath } from '../_files.js';
import { jsonOutput } from '../_json-output.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { mergeOptions } from './merge.js';

/**
 * Runs `pgv2kit merge`.
 * @param context - the parsed options, the folders and the io
 * @returns the exit code one run would have had
 */
export async function runMerge({
  values,
  positionals,
  io: given,
  atEnd,
}: CommandContext<typeof mergeOptions>): Promise<number> {
  const { io, emit } = jsonOutput(values.json === true, given);
  if (positionals.length === 0) throw new UsageError('give the report folder of every shard (pgv2kit merge <dir>…)');
  // counted before any folder is read: 100,000 folders are refused at once, not read
  if (positionals.length > MAX_SHARDS)
    throw new UsageError(`${positionals.length} folders given: a run has at most ${MAX_SHARDS} shards`);
  const inputs = positionals.map((d) => resolvePath(io.cwd, d));
  // the merged reports never replace a shard they are made from, whatever path names it (a symlink, `..`, case)
  const ontoShard = (out: string): void => {
    if (inputs.some((d) => resolve(d) === resolve(out) || sameFolder(d, out)))
      throw new UsageError(
        `--report-dir ${out} is one of the shards' folders: ` +
          'the merged reports would replace the shard they are made from; give another folder',
      );
  };
  if (!values['no-reports'] && values['report-dir'] !== undefined) ontoShard(resolvePath(io.cwd, values['report-dir']));
  const reportDir = values['no-reports'] ? undefined : checkedReportFolder(values, { name: 'merge', io, atEnd });
  const junitPath = prepareJunit(values.junit, io.cwd);
  // shards that cannot be merged are a MergeError: a usage error (exit 2)
  const parts = readShards(inputs);
  // the merged run is named apart from its shards: its default folder is never one of theirs
  // the shards' texts are masked already; the merchant secret of this job is masked again, in the data before any
  // report is rendered from it (a rendered page is never masked as text: issue 25, item 1)
  const secrets = [io.env[APP_SECRET_ENV] ?? ''].filter((s) => s !== '');
  const model: ReportModel = new Masker(secrets).data(
    mergeShards(
      parts,
      values['run-name'] ?? `merged-${parts[0]?.runName ?? 'run'}`,
      // the kit's vector set: when the shards ran it, it says which cases a shard could leave to other targets
      { files: inputs.map((d) => join(d, SHARD_FILE)), set: loadVectorSet() },
    ),
  );
  const out = values['no-reports']
    ? undefined
    : (reportDir ?? join(io.cwd, 'reports', reportFolderName(model.runName)));
  if (out !== undefined) ontoShard(out);
  io.stdout(linesOf(model, inputs.length));
  let writtenTo: string | undefined;
  if (!values['no-reports']) {
    try {
      writtenTo = (
        await writeModelReports(model, {
          dir: out ?? join(io.cwd, 'reports', reportFolderName(model.runName)),
          secrets,
        })
      ).dir;
      io.stdout(`reports: ${writtenTo}\n`);
    } catch (e) {
      if (!(e instanceof ReportWriteError)) throw e;
      io.stderr(`pgv2kit merge: ${e.message}\n`);
      return concludeRun('merge', io, emit, { model, code: EXIT.failure, reportsDir: undefined, junitPath, secrets });
    }
  }
  return concludeRun('merge', io, emit, { model, code: exitOf(model), reportsDir: writtenTo, junitPath, secrets });
}

// --- internal ---

/** Whether two paths are one folder (the same device and inode): false when either is missing. */
function sameFolder(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** The exit code one run would have had (an interrupted shard: 3, the merged run is incomplete). */
function exitOf(m: ReportModel): number {
  if (m.aborted) return EXIT.failure;
  if (m.stopped && (STOP_INFO[m.stopped.kind].runFailed || m.stopped.kind === 'interrupted')) return EXIT.failure;
  if (m.noTestRan !== undefined) return EXIT.nonconformance;
  return m.conformant ? EXIT.ok : EXIT.nonconformance;
}

/** The causes, the failing cases (root causes first, as the model orders them) and the summary line. */
function linesOf(m: ReportModel, shards: number): string {
  // the causes and the case lines as run prints them
  const out: string[] = [caseLines(m)];
  if (m.stopped) out.push(`stopped early: ${m.stopped.reason}; ${m.stopped.notRun} selected cases not run\n`);
  if (m.noTestRan !== undefined) out.push(`${m.noTestRan}\n`);
  out.push(`merged ${shards} shards: ${m.summary}\n`);
  return out.join('');
}
