/**
 * The machine-readable report (results.json): the whole run, secrets masked,
 * contents decoded, keys in a fixed order.
 * @module
 */
import type { Choice, OpStatus, Status } from '../checks/outcome.js';
import type { OperationCoverage } from '../runner/coverage.js';
import type { Diagnosis, RunAborted, RunStopped, RunTarget, RunResult, Totals, Verdict } from '../runner/result.js';
import type { Implementation, Json } from '../subjects/subject.js';
import type { ExpectedResult } from '../vectors/types.js';
import { VERDICT_INFO, type CaseKind } from '../runner/result.js';
import { byCause } from '../runner/triage.js';
import { redactorFor } from './redact.js';
import { buildModel, type CaseView, type OpView, type ReportModel } from './_model.js';
import { describeDifference } from './_content.js';
import { docPath, mistakeRef } from '../docs/refs.js';

/**
 * The version of the results.json layout; raised on any incompatible change.
 * 2: status and verdict `partial`, a case's `ran` and `notRun`, `operations`,
 * `unknownOperations`, `noTestRan`, `totals.partial`.
 */
export const RESULTS_SCHEMA_VERSION = 2;

/**
 * A diagnosis in results.json: the known mistake, what it explains, the rule, and the mistake's page as a path in
 * the kit (never a URL: src/docs/cite.ts).
 */
export interface ResultsJsonDiagnosis extends Diagnosis {
  /** E.g. `docs/mistakes/no-final-lf.md`, relative to the kit's folder; null when the kit has no page for it. */
  readonly page: string | null;
}

/** An operation in results.json. */
export interface ResultsJsonOp {
  readonly op: string;
  /** `skip`: the step did not run (the operation is not offered, or was answered unsupported). */
  readonly status: OpStatus;
  /** Clean JSON: secrets masked, `contentB64` replaced by `contentText` (masked, LF as a real LF). */
  readonly expected: Json;
  readonly got: Json;
  readonly message: string;
  readonly choice: Choice | null;
  /** What passed but is worth saying (R16: a 5xx counted as a refusal); else null. */
  readonly advisory: string | null;
  /** Where two contents first differ, when the op carries both. */
  readonly contentDifference: string | null;
  readonly diagnosis: readonly ResultsJsonDiagnosis[];
  readonly durationMs: number;
  /** What the implementation was sent, for a step that failed or errored (clean JSON); else null. */
  readonly input: Json | null;
}

/** A case in results.json. */
export interface ResultsJsonCase {
  readonly id: string;
  readonly kind: CaseKind;
  readonly file: string;
  readonly comment: string;
  readonly spec: readonly string[];
  readonly readings: readonly string[];
  readonly flags: readonly string[];
  /** The case's expected result. */
  readonly result: ExpectedResult;
  /** `partial`: some steps passed, others did not run (never counted as passed). */
  readonly status: Status;
  readonly verdict: Verdict;
  /** The operations whose step ran. */
  readonly ran: readonly string[];
  /** The operations whose step did not run. */
  readonly notRun: readonly string[];
  readonly choice: Choice | null;
  /** What passed but is worth saying (R16: a 5xx counted as a refusal); else null. */
  readonly advisory: string | null;
  readonly listedReason: string | null;
  readonly message: string;
  /** The command that runs this case alone against the same target. */
  readonly reproduce: string;
  /** For an HTTP role's case: a curl command that sends its first request again; else null. */
  readonly curl: string | null;
  readonly durationMs: number;
  readonly diagnosis: readonly ResultsJsonDiagnosis[];
  /**
   * A property case: its seed, inputs judged and, on failure, replay, shrinks and the shrunk counterexample; else
   * null.
   */
  readonly property: {
    readonly seed: number;
    readonly runs: number;
    readonly replay: string | null;
    readonly shrinks: number | null;
    readonly counterexample: Json | null;
  } | null;
  readonly ops: readonly ResultsJsonOp[];
}

/** What results.json holds. */
export interface ResultsJson {
  readonly schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  readonly kit: { readonly name: string; readonly version: string };
  readonly vectorSetHash: string;
  readonly implementation: Implementation;
  readonly target: RunTarget;
  readonly runName: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly selection: { readonly only: readonly string[]; readonly skip: readonly string[] };
  readonly conformant: boolean;
  readonly summary: string;
  /** Why no step ran (`no test ran: …`), or null. Such a run is not conformant. */
  readonly noTestRan: string | null;
  /**
   * Set when the run stopped before every selected case ran (interrupted, --max-failures, --deadline, the testee
   * given up on).
   */
  readonly stopped: { readonly kind: RunStopped['kind']; readonly reason: string; readonly notRun: number } | null;
  /** Selected cases left to other targets (they need only kit-internal operations), or null. */
  readonly otherTargets: { readonly cases: number; readonly operations: readonly string[] } | null;
  /**
   * Set when the run ended before any case ran because the testee could not start (exit 3): why, the command, how it
   * ended, its stderr's last lines (masked); else null.
   */
  readonly aborted: RunAborted | null;
  readonly totals: Totals & { readonly total: number };
  /**
   * Set for one shard of a run split across jobs (`--shard <i>/<n>`); null for a whole run (or one merged from its
   * shards).
   */
  readonly shard: { readonly index: number; readonly count: number } | null;
  /**
   * The likely causes of the failing cases, most cases first: the known mistake (or null), in words, its page as a
   * path in the kit (or null), how many cases, which, how many of them are in the roles (consequences), and how many
   * are refusals of genuine messages it explains (refusals).
   */
  readonly causes: ReadonlyArray<{
    readonly mistake: string | null;
    readonly title: string;
    readonly page: string | null;
    readonly count: number;
    readonly cases: readonly string[];
    readonly rootCauses: number;
    readonly consequences: number;
    readonly refusals: number;
  }>;
  /** Per operation: offered or not, the selected cases with a step of it, steps ran, passed, failed, error, not run. */
  readonly operations: readonly OperationCoverage[];
  /** Operation names the implementation advertised that protocol v1 does not know, with the closest known name. */
  readonly unknownOperations: ReadonlyArray<{
    readonly name: string;
    readonly suggestion: string | null;
    readonly message: string;
  }>;
  readonly cases: readonly ResultsJsonCase[];
  readonly staleListEntries: readonly string[];
}

/**
 * Builds the results.json object of a run. Every string has the secrets masked
 * (exactly, and any 8-byte fragment of one); signature content, which the protocol
 * carries as base64 and whose part 2 is the secret, is stored decoded and masked as
 * `contentText` instead of `contentB64`, for `expected` and `got` alike. Keys come in
 * a fixed order (testee JSON: sorted); absent values are `null`.
 * @param run - the run
 * @param secrets - the app secrets used in the run's vectors
 * @returns the object to write (`JSON.stringify(…, null, 2)`)
 * @example JSON.stringify(toResultsJson(run, [appSecret]), null, 2)
 */
export function toResultsJson(run: RunResult, secrets: readonly string[]): ResultsJson {
  return resultsJsonFromModel(buildModel(run, secrets), secrets);
}

/**
 * {@link toResultsJson} from a report model already built (the writer builds it once).
 * @param m - the run's model
 * @param secrets - the secrets: every string is masked again as data (a safety net), never the JSON text
 * @returns the object to write
 */
export function resultsJsonFromModel(m: ReportModel, secrets: readonly string[]): ResultsJson {
  const t = m.totals;
  const json: ResultsJson = {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    kit: { name: m.kit.name, version: m.kit.version },
    vectorSetHash: m.vectorSetHash,
    implementation: {
      name: m.implementation.name,
      version: m.implementation.version,
      language: m.implementation.language,
    },
    target: { kind: m.target.kind, description: m.target.description },
    runName: m.runName,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    durationMs: m.durationMs,
    selection: { only: [...m.selection.only], skip: [...m.selection.skip] },
    conformant: m.conformant,
    summary: m.summary,
    noTestRan: m.noTestRan ?? null,
    stopped: m.stopped ? { kind: m.stopped.kind, reason: m.stopped.reason, notRun: m.stopped.notRun } : null,
    otherTargets: m.otherTargets ? { cases: m.otherTargets.cases, operations: [...m.otherTargets.operations] } : null,
    aborted: m.aborted
      ? {
          kind: m.aborted.kind,
          message: m.aborted.message,
          command: m.aborted.command,
          exitCode: m.aborted.exitCode,
          signal: m.aborted.signal,
          ended: m.aborted.ended,
          stderrTail: [...m.aborted.stderrTail],
        }
      : null,
    totals: {
      passed: t.passed,
      failed: t.failed,
      error: t.error,
      partial: t.partial,
      skipped: t.skipped,
      'expected-failure': t['expected-failure'],
      'unexpected-pass': t['unexpected-pass'],
      total: m.cases.length,
    },
    shard: m.shard ? { index: m.shard.index, count: m.shard.count } : null,
    causes: m.causes.map((c) => ({
      mistake: c.mistake,
      title: c.title,
      page: pagePath(c.mistake),
      count: c.count,
      cases: [...c.cases],
      rootCauses: c.rootCauses,
      consequences: c.consequences,
      refusals: c.refusals ?? 0,
    })),
    operations: m.operations.map((o) => ({
      op: o.op,
      offered: o.offered,
      cases: o.cases,
      ran: o.ran,
      passed: o.passed,
      failed: o.failed,
      error: o.error,
      notRun: o.notRun,
    })),
    unknownOperations: m.unknownOperations.map((u) => ({
      name: u.name,
      suggestion: u.suggestion ?? null,
      message: u.message,
    })),
    cases: m.cases.map(caseJson),
    staleListEntries: [...m.staleListEntries],
  };
  // masked as data (a safety net: the model is masked), then encoded by the caller: never the JSON text, which a
  // secret such as `","` or one holding `\\` would change or break (issue 25, item 1)
  return redactorFor(secrets).data(json);
}

// --- internal ---

function caseJson(c: CaseView): ResultsJsonCase {
  return {
    id: c.id,
    kind: c.kind,
    file: c.file,
    comment: c.comment,
    spec: [...c.spec],
    readings: [...c.readings],
    flags: [...c.flags],
    result: c.result,
    status: c.status,
    verdict: c.verdict,
    ran: [...c.ran],
    notRun: [...c.notRun],
    choice: c.choice ?? null,
    advisory: c.advisory ?? null,
    listedReason: c.listedReason ?? null,
    message: c.message,
    reproduce: c.reproduce,
    curl: c.curl ?? null,
    durationMs: c.durationMs,
    diagnosis: c.diagnosis.map(diagnosisJson),
    property: c.property
      ? {
          seed: c.property.seed,
          runs: c.property.runs,
          replay: c.property.replay ?? null,
          shrinks: c.property.shrinks ?? null,
          counterexample: c.property.counterexample ?? null,
        }
      : null,
    ops: c.ops.map(opJson),
  };
}

function opJson(o: OpView): ResultsJsonOp {
  return {
    op: o.op,
    status: o.status,
    expected: o.expected,
    got: o.got,
    message: o.message,
    choice: o.choice ?? null,
    advisory: o.advisory ?? null,
    contentDifference: o.content?.diff ? describeDifference(o.content.diff) : null,
    diagnosis: o.diagnosis.map(diagnosisJson),
    durationMs: o.durationMs,
    input: o.input ?? null,
  };
}

function diagnosisJson(d: Diagnosis): ResultsJsonDiagnosis {
  return { mistake: d.mistake, message: d.message, ref: d.ref, page: pagePath(d.mistake) };
}

/** A known mistake's page, as a path relative to the kit's folder (src/docs/cite.ts: never a file: URL). */
function pagePath(mistake: string | null): string | null {
  const ref = mistake === null ? undefined : mistakeRef(mistake);
  return ref ? docPath(ref) : null;
}

/**
 * The one JSON object `pgv2kit run --json` prints: results.json without its cases, the failing ones in brief, the
 * exit code and where the reports went.
 */
export interface RunSummaryJson extends Omit<
  ResultsJson,
  'cases' | 'staleListEntries' | 'operations' | 'unknownOperations'
> {
  readonly exitCode: number;
  /** The report folder, or null (--no-reports). */
  readonly reportsDir: string | null;
  /** The JUnit XML written: the --junit file, else the report folder's junit.xml; null when none was written. */
  readonly junit: string | null;
  /**
   * Every case that fails the run, root causes first: id, verdict, message, the first diagnosis's mistake and message
   * (or null), the command that runs it alone.
   */
  readonly failures: ReadonlyArray<{
    readonly id: string;
    readonly verdict: Verdict;
    readonly message: string;
    readonly mistake: string | null;
    readonly diagnosis: string | null;
    readonly reproduce: string;
  }>;
}

/**
 * The summary `--json` prints on stdout (one line), secrets masked as in results.json.
 * @param m - the run's model
 * @param secrets - texts to mask
 * @param outcome - the exit code, the report folder and the JUnit file
 * @returns the object
 * @example
 * import { buildModel } from './_model.js';
 * const summary = runSummaryFromModel(buildModel(run, []), [appSecret], {
 *   exitCode: 0,
 *   reportsDir: null,
 *   junit: null,
 * });
 * io.stdout(`${JSON.stringify(summary)}\n`)
 */
export function runSummaryFromModel(
  m: ReportModel,
  secrets: readonly string[],
  outcome: { readonly exitCode: number; readonly reportsDir: string | null; readonly junit: string | null },
): RunSummaryJson {
  const {
    cases,
    staleListEntries: _stale,
    operations: _ops,
    unknownOperations: _unknown,
    ...rest
  } = resultsJsonFromModel(m, secrets);
  const failing = byCause(cases.filter((c) => VERDICT_INFO[c.verdict].failsRun));
  return {
    ...rest,
    exitCode: outcome.exitCode,
    reportsDir: outcome.reportsDir === null ? null : redactorFor(secrets).text(outcome.reportsDir),
    junit: outcome.junit === null ? null : redactorFor(secrets).text(outcome.junit),
    failures: failing.map((c) => ({
      id: c.id,
      verdict: c.verdict,
      message: c.message,
      mistake: c.diagnosis[0]?.mistake ?? null,
      diagnosis: c.diagnosis[0]?.message ?? null,
      reproduce: c.reproduce,
    })),
  };
}
