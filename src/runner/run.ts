/**
 * A conformance run: every selected case against a subject, several cases in flight
 * (a testee gets its requests written ahead), each outcome diagnosed, the
 * expected-failure list applied, the result returned as data for the reports.
 * @module
 */
import type { CheckContext } from '../checks/context.js';
import { caseOperations, diagnose, refusalCauses, rolePatterns, runCase } from '../roles/run-case.js';
import { inOperationOrder, type Operation } from '../protocol/operations.js';
import { forOtherTargets } from './other-targets.js';
import type { OperationInput, Subject } from '../subjects/subject.js';
import { KIT_NAME, kitVersion } from '../version.js';
import { liveCases } from '../vectors/load.js';
import type { LoadedCase, VectorSet } from '../vectors/types.js';
import type { ExpectedFailure } from './expect-failures.js';
import {
  VERDICT_INFO,
  type CaseResult,
  type OpResult,
  type RunResult,
  type RunStopped,
  type RunTarget,
  type Totals,
  type Verdict,
} from './result.js';
import { noTestRan, operationCoverage } from './coverage.js';
import { selectCases, selects, type Selectable, type Selection } from './select.js';
import { PROPERTIES } from '../properties/catalogue.js';
import { runProperties, type PropertyOptions } from './properties.js';
import { unknownOperation } from './unknown-operations.js';
import { shardOf, type Shard } from './shard.js';
import { causeRank } from './triage.js';
import { safeName } from '../safe-name.js';

/** What to run, against what. */
export interface RunOptions {
  readonly set: VectorSet;
  readonly subject: Subject;
  readonly target: RunTarget;
  readonly selection?: Selection;
  readonly expectFailures?: ReadonlyMap<string, ExpectedFailure>;
  /** Cases in flight at once. Default 32. */
  readonly concurrency?: number;
  readonly runName?: string;
  /** Called after each case, in completion order. */
  readonly onCase?: (result: CaseResult, done: number, total: number) => void;
  /** The run's log, shared with the testee session (lines are appended). */
  readonly log?: string[];
  /** What checks need beyond the subject: the reference gateway for client cases ({@link startClientGateway}). */
  readonly context?: CheckContext;
  readonly now?: () => Date;
  /**
   * The properties: run after the scheme's cases, before the roles' (default: not run here;
   * {@link runConformance} in src/conformance.ts runs them unless told not to).
   */
  readonly properties?: PropertyOptions | false;
  /**
   * Stops the run: no case starts once it is aborted (its reason, a string, is the report's), and
   * the cases in flight are cut: not waited for, not counted (not run).
   */
  readonly signal?: AbortSignal;
  /**
   * Stop once this many cases failed or errored: exactly this many are counted, the cases in
   * flight then are cut and not run.
   */
  readonly maxFailures?: number;
  /**
   * Run only this shard's cases (`--shard <i>/<n>`: by id, {@link shardOf}); the run records the
   * whole selection, for `pgv2kit merge`.
   */
  readonly shard?: Shard;
  /**
   * The run's deadline, in milliseconds from its start: no case (and no property) starts after
   * it, and the cases in flight are cut then (`--deadline`).
   */
  readonly deadlineMs?: number;
}

/**
 * Runs the selected cases against a subject, with what the caller started for them (the
 * client-role gateway, as `context`). The library's and the CLI's run is {@link runConformance}
 * (src/conformance.ts), which starts those itself.
 * @param options - {@link RunOptions}
 * @returns the run's result
 * @throws {SelectionError} when a pattern of the selection matches no case
 * @example
 * const run = await runCases({
 *   set: loadVectorSet(),
 *   subject: createReferenceSubject(),
 *   target: { kind: 'reference', description: 'built-in reference' },
 *   selection: { only: ['signature.payment-create'], skip: [] },
 * });
 */
export async function runCases(options: RunOptions): Promise<RunResult> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const selection = options.selection ?? { only: [], skip: [] };
  const everything = selectCases(liveCases(options.set), selection, PROPERTY_SELECTABLES);
  const shard = options.shard;
  const inShard = (id: string): boolean => shard === undefined || shardOf(id, shard.count) === shard.index;
  const selected = everything.filter((l) => inShard(l.case.id));
  // cases that need only kit-internal operations the target does not offer belong to other targets
  const mine = (l: LoadedCase): boolean => !forOtherTargets(l.case, options.subject.operations);
  const cases = selected.filter(mine);
  const others = selected.filter((l) => !mine(l));
  const listed = options.expectFailures ?? new Map<string, ExpectedFailure>();
  // root causes first, as the reports read them: the scheme's operations, then the properties,
  // then the roles (whose failures are mostly consequences) — so a run stopped at its first
  // failure (--bail) stops at a cause, not at one of its consequences
  const { before, after } = inRunOrder(cases);
  const order = [...before, ...after];
  const slots: Array<CaseResult | undefined> = new Array<CaseResult | undefined>(order.length);
  let done = 0;
  let failures = 0;
  // The run stops at most once, for its first reason. Every stop but a given-up testee (whose
  // requests end at once by themselves) also cuts the cases in flight: the run does not wait for
  // them, and what they answer after the stop is not counted — they did not run. So --bail reports
  // exactly N failures and --deadline ends within moments of its time, whatever the testee does.
  let stopped: Omit<RunStopped, 'notRun'> | undefined;
  let cut: () => void = () => undefined;
  // every stop but a given-up testee cuts what is in flight
  const isCut = (): boolean => stopped !== undefined && stopped.kind !== 'gave-up';
  const cutting = new Promise<undefined>((resolve) => (cut = () => resolve(undefined)));
  const stopFor = (why: Omit<RunStopped, 'notRun'>): void => {
    if (stopped) return;
    stopped = why;
    if (why.kind !== 'gave-up') cut();
  };
  const onAbort = (): void => stopFor({ kind: 'interrupted', reason: String(options.signal?.reason ?? 'interrupted') });
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline =
    options.deadlineMs === undefined
      ? undefined
      : setTimeout(
          () =>
            stopFor({
              kind: 'deadline',
              reason: `the run's deadline of ${formatSeconds(options.deadlineMs ?? 0)} passed (--deadline)`,
            }),
          options.deadlineMs,
        );
  deadline?.unref?.();
  const stop = (): boolean => {
    const gaveUp = options.subject.gaveUp?.();
    if (gaveUp !== undefined) stopFor({ kind: 'gave-up', reason: gaveUp });
    return stopped !== undefined;
  };
  // a failure counted; the N-th stops the run (--max-failures N)
  const counted = (result: CaseResult): void => {
    if (result.verdict === 'failed' || result.verdict === 'error') failures += 1;
    if (options.maxFailures !== undefined && failures >= options.maxFailures)
      stopFor({
        kind: 'max-failures',
        reason: `${failures} case${failures === 1 ? '' : 's'} failed (--max-failures ${options.maxFailures})`,
      });
  };
  // once cut, the subject takes no more requests: what is still in flight (a case's later steps,
  // a property's next inputs) ends at once, as not run
  const subject = gated(options.subject, isCut);
  const runPhase = async (from: number, to: number): Promise<void> => {
    let next = from;
    const worker = async (): Promise<void> => {
      while (next < to && !stop()) {
        const index = next++;
        const loaded = order[index] as LoadedCase;
        const running = runOne(loaded, subject, listed.get(loaded.case.id), options.context ?? {});
        const ran = await Promise.race([running, cutting]);
        // cut while in flight, or answered after the run stopped: not run, not counted
        if (ran === undefined || isCut()) {
          running.catch(() => undefined);
          return;
        }
        // a request the subject failed having given up on the testee was never judged: the case did not run
        if (ran.notRun) {
          stop();
          continue;
        }
        const result = ran.result;
        slots[index] = result;
        counted(result);
        options.onCase?.(result, ++done, order.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 32, to - from)) }, worker));
  };
  const propertyIds = options.properties
    ? PROPERTY_SELECTABLES.filter((p) => selects(p, selection)).map((p) => p.case.id)
    : [];
  const chosenProperties = new Set(propertyIds.filter(inShard));
  const propertyResults: CaseResult[] = [];
  try {
    await runPhase(0, before.length);
    if (options.properties && chosenProperties.size > 0 && !stop()) {
      const only = options.properties.only;
      const running = runProperties(subject, {
        ...options.properties,
        only: (id) => chosenProperties.has(id) && (only?.(id) ?? true),
      });
      const found = await Promise.race([running, cutting]);
      if (found === undefined || isCut()) running.catch(() => undefined);
      else {
        // the properties ran side by side: past the N-th failure, the rest count as cut (not run),
        // as cases in flight do
        for (const r of found) {
          if (stopped) break;
          const listedAs = listed.get(r.id);
          const withList: CaseResult = {
            ...r,
            verdict: verdictOf(r.status, listedAs),
            ...(listedAs ? { listedReason: listedAs.reason } : {}),
          };
          propertyResults.push(withList);
          counted(withList);
          options.onCase?.(withList, ++done, order.length + found.length);
        }
      }
    }
    await runPhase(before.length, order.length);
  } finally {
    if (deadline) clearTimeout(deadline);
    options.signal?.removeEventListener('abort', onAbort);
  }
  // a role's diagnoses stand or fall by the run's pattern (a merchant that does not verify accepts every forgery)
  const byId = new Map(options.set.cases.map((l) => [l.case.id, l.case] as const));
  const results = rolePatterns(
    [...slots.slice(0, before.length), ...propertyResults, ...slots.slice(before.length)].filter(
      (r): r is CaseResult => r !== undefined,
    ),
    (id) => byId.get(id),
  );
  const propertiesNotRun = chosenProperties.size - propertyResults.length;
  const finished = now();
  const known = new Set(options.set.cases.map((c) => c.case.id));
  const offered = [...options.subject.operations];
  const otherOps = inOperationOrder(others.flatMap((l) => caseOperations(l.case)));
  const nothing = noTestRan({ selection, cases: results, offered, otherTargets: others.length });
  const who = options.target.kind === 'testee' ? 'the testee' : 'the implementation';
  return {
    runName: options.runName ?? defaultRunName(options.subject.implementation.name, started),
    kit: { name: KIT_NAME, version: kitVersion() },
    vectorSetHash: options.set.hash,
    implementation: options.subject.implementation,
    target: options.target,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    selection: { only: [...selection.only], skip: [...selection.skip] },
    cases: results,
    totals: countVerdicts(results),
    log: options.log ?? [],
    staleListEntries: [...listed.keys()].filter((id) => !known.has(id)),
    offered,
    operations: operationCoverage(results, offered),
    unknownOperations: (options.subject.unknownOperations ?? []).map((name) => unknownOperation(name, who)),
    ...(nothing && !stopped ? { noTestRan: nothing } : {}),
    ...(stopped
      ? { stopped: { ...stopped, notRun: order.length - (results.length - propertyResults.length) + propertiesNotRun } }
      : {}),
    ...(others.length > 0 ? { otherTargets: { cases: others.length, operations: otherOps } } : {}),
    ...(shard
      ? {
          shard: {
            ...shard,
            ids: selectedIds(options.set, selection, options.properties !== undefined && options.properties !== false),
          },
        }
      : {}),
  };
}

/**
 * Every id a run selects, in run order, before any shard is taken: the cases, then the properties
 * when they run. What the shards of one run share, and `pgv2kit merge` checks.
 * @param set - the vector set
 * @param selection - --only / --skip
 * @param withProperties - whether the properties run
 * @returns the ids
 * @throws {SelectionError} when a pattern matches nothing
 */
export function selectedIds(set: VectorSet, selection: Selection, withProperties: boolean): string[] {
  const { before, after } = inRunOrder(selectCases(liveCases(set), selection, PROPERTY_SELECTABLES));
  const ids = (cases: readonly LoadedCase[]): string[] => cases.map((l) => l.case.id);
  return [
    ...ids(before),
    ...(withProperties ? PROPERTY_SELECTABLES.filter((p) => selects(p, selection)).map((p) => p.case.id) : []),
    ...ids(after),
  ];
}

/**
 * Cases in the order a run runs them: those the reports read as root causes (the scheme's
 * operations, {@link CAUSE_ORDER} before the properties), then — after the properties — the roles';
 * set order within an area.
 * @param cases - the selected cases
 * @returns the two groups, each in run order
 * @example inRunOrder(liveCases(set)).before[0]?.case.kind // 'signature'
 */
export function inRunOrder(cases: readonly LoadedCase[]): { before: LoadedCase[]; after: LoadedCase[] } {
  const ranked = cases
    .map((l, i) => ({ l, i, rank: causeRank(l.case.kind) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i);
  const property = causeRank('property');
  return {
    before: ranked.filter((x) => x.rank < property).map((x) => x.l),
    after: ranked.filter((x) => x.rank >= property).map((x) => x.l),
  };
}

/**
 * The application secrets of some cases: what reports and logs must mask.
 * @param cases - cases
 * @returns the distinct secrets
 * @example caseSecrets(liveCases(set)).length
 */
export function caseSecrets(cases: readonly LoadedCase[]): string[] {
  const secrets = new Set<string>();
  for (const { case: c } of cases) {
    const s = (c.inputs as { appSecret?: unknown }).appSecret;
    if (typeof s === 'string' && s !== '') secrets.add(s);
  }
  return [...secrets];
}

/**
 * Counts verdicts.
 * @param results - case results
 * @returns the count of each verdict
 * @example countVerdicts([]).passed // 0
 */
export function countVerdicts(results: readonly Pick<CaseResult, 'verdict'>[]): Totals {
  const totals = Object.fromEntries(Object.keys(VERDICT_INFO).map((v) => [v, 0])) as Totals;
  for (const r of results) totals[r.verdict]++;
  return totals;
}

/**
 * A run name from the implementation and the time: `<name>-YYYYMMDD-HHMMSS`.
 * @param implementation - the implementation's name
 * @param at - the start time
 * @returns a name safe as a folder name ({@link safeName}: 80 characters at most before the time)
 * @example defaultRunName('my sdk', new Date(0)) // 'my-sdk-19700101-000000'
 */
export function defaultRunName(implementation: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${safeName(implementation, 'run', 80)}-${stamp}`;
}

/** The properties as a selection sees them: area `property`, flag `Property`, their ids. */
export const PROPERTY_SELECTABLES: readonly Selectable[] = PROPERTIES.map((p) => ({
  case: { id: p.id, kind: 'property', flags: ['Property'] },
}));

// --- internal ---

/**
 * The subject as the run calls it: once `closed()` holds, every request ends at once, not run
 * (answered `failed` with `notRun`), without reaching the subject.
 */
function gated(subject: Subject, closed: () => boolean): Subject {
  return {
    implementation: subject.implementation,
    operations: subject.operations,
    call: (op, input, caseId) =>
      closed()
        ? Promise.resolve({ failed: { reason: 'the run stopped before this request', notRun: true } })
        : subject.call(op, input, caseId),
  };
}

/**
 * A case's result, and whether it did not run: a step of it was never judged (the subject had
 * given up: {@link Subject.gaveUp}) and none broke the subject (a crash of its own is its error).
 */
async function runOne(
  loaded: LoadedCase,
  subject: Subject,
  listed: ExpectedFailure | undefined,
  context: CheckContext,
): Promise<{ result: CaseResult; notRun: boolean }> {
  const durations = new Map<Operation, number>();
  const inputs = new Map<Operation, OperationInput>();
  let neverJudged = false;
  let brokeHere = false;
  const timed: Subject = {
    implementation: subject.implementation,
    operations: subject.operations,
    async call(op, input, caseId) {
      const t0 = performance.now();
      inputs.set(op, input);
      try {
        const answer = await subject.call(op, input, caseId);
        if ('failed' in answer) {
          if (answer.failed.notRun) neverJudged = true;
          else brokeHere = true;
        }
        return answer;
      } finally {
        durations.set(op, performance.now() - t0);
      }
    },
  };
  const t0 = performance.now();
  const outcome = await runCase(loaded, timed, context);
  const durationMs = performance.now() - t0;
  const c = loaded.case;
  const ops: OpResult[] = await Promise.all(
    outcome.ops.map(async ({ sent: call, ...o }) => {
      const diagnosis = await diagnose(c, o);
      const couldExplain = diagnosis.length === 0 ? refusalCauses(c, o) : [];
      // what was sent, for a step that failed: the report shows it beside what came back (a
      // role's call as sent, else the input)
      const sent = o.status === 'fail' || o.status === 'error' ? (call ?? inputs.get(o.op)) : undefined;
      return {
        ...o,
        durationMs: round(durations.get(o.op) ?? 0),
        ...(diagnosis.length ? { diagnosis } : {}),
        ...(couldExplain.length ? { couldExplain } : {}),
        ...(sent !== undefined ? { input: sent } : {}),
      };
    }),
  );
  let message = outcome.message;
  if (outcome.status === 'skip' && ops.every((o) => !subject.operations.includes(o.op))) {
    message = `the implementation does not offer ${caseOperations(c).join(', ')}`;
  }
  const verdict = verdictOf(outcome.status, listed);
  const result: CaseResult = {
    id: c.id,
    kind: c.kind,
    file: loaded.file,
    comment: c.comment,
    spec: c.spec,
    readings: c.readings,
    flags: c.flags,
    result: c.result,
    status: outcome.status,
    ops,
    ...(outcome.choice ? { choice: outcome.choice } : {}),
    ...(outcome.advisory ? { advisory: outcome.advisory } : {}),
    message,
    verdict,
    ...(listed ? { listedReason: listed.reason } : {}),
    durationMs: round(durationMs),
  };
  return { result, notRun: neverJudged && !brokeHere };
}

/**
 * A case's verdict from its status and whether the expected-failure list names it — what the run records, and
 * what `pgv2kit merge` checks each shard's cases against.
 * @param status - the case's status
 * @param listed - its entry in the expected-failure list, if any (only whether there is one counts)
 * @returns the verdict
 * @example verdictOf('fail', { id: 'x', reason: 'known' }) // 'expected-failure'
 */
export function verdictOf(status: CaseResult['status'], listed: Pick<ExpectedFailure, 'reason'> | undefined): Verdict {
  const plain: Verdict =
    status === 'pass'
      ? 'passed'
      : status === 'fail'
        ? 'failed'
        : status === 'error'
          ? 'error'
          : status === 'partial'
            ? 'partial'
            : 'skipped';
  if (!listed) return plain;
  if (plain === 'failed' || plain === 'error') return 'expected-failure';
  return plain === 'passed' ? 'unexpected-pass' : plain;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Milliseconds as seconds in words: `1800 s`, `2.5 s`. */
function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
