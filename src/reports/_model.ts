/**
 * The report model: a run with every text masked and every content decoded, grouped
 * the way the reports show it. Every format renders from this model, so secrets are
 * handled in one place.
 * @module
 */
import { ABORT_INFO, RUN_KINDS, STOP_INFO } from '../runner/result.js';
import { byCause, triage, type Cause } from '../runner/triage.js';
import type { Choice, OpStatus } from '../checks/outcome.js';
import type { CaseResult, Diagnosis, RunAborted, RunResult, RunStopped, Totals, Verdict } from '../runner/result.js';
import { runConformant, runPassed } from '../runner/result.js';
import { otherTargetsLine, type OperationCoverage } from '../runner/coverage.js';
import { shellLine, type RawText } from '../shell-quote.js';
import { describeImplementation, type Json } from '../subjects/subject.js';
import { diffContents, viewContent, type ContentDiff, type ContentView } from './_content.js';
import { decodeBase64, redactorFor, type Redactor } from './redact.js';
import { curlCommand } from './curl.js';
import { KIT_OPERATIONS } from '../protocol/operations.js';

/** An operation's outcome, clean. */
export interface OpView {
  readonly op: string;
  readonly status: OpStatus;
  readonly message: string;
  readonly choice?: Choice;
  readonly advisory?: string;
  readonly durationMs: number;
  /** Clean JSON: secrets masked, `contentB64` as `contentText`, keys sorted. */
  readonly expected: Json;
  readonly got: Json;
  readonly diagnosis: readonly Diagnosis[];
  /** For a refusal of a valid case: the known mistakes that could explain it (the triage reads them). */
  readonly couldExplain?: readonly string[];
  /** The signature contents the op carries, when it carries any. */
  readonly content?: { readonly expected?: ContentView; readonly got?: ContentView; readonly diff?: ContentDiff };
  /** What the implementation was sent, for a step that failed or errored (clean JSON, as expected and got). */
  readonly input?: Json;
}

/** A case, clean: the run's case with its operations cleaned and its diagnoses gathered. */
export interface CaseView extends Omit<CaseResult, 'ops'> {
  readonly ops: readonly OpView[];
  /** Every op's diagnoses, each mistake once. */
  readonly diagnosis: readonly Diagnosis[];
  /** The command that runs this case alone against the same target (`pgv2kit run … --only id:<id>`). */
  readonly reproduce: string;
  /**
   * For a case of an HTTP role (gateway, merchant): a curl command that sends its first request again, as it went
   * on the wire.
   */
  readonly curl?: string;
  /** The operations whose step ran (passed, failed or errored). */
  readonly ran: readonly string[];
  /** The operations whose step did not run (not offered, or answered unsupported). */
  readonly notRun: readonly string[];
}

/** Counts of one row of a summary table (a kind, a spec section). */
export interface GroupRow {
  readonly name: string;
  readonly total: number;
  readonly counts: Totals;
}

/** A run, clean and grouped: the run's fields, its cases cleaned, and the summary tables. */
export interface ReportModel extends Omit<
  RunResult,
  'cases' | 'offered' | 'operations' | 'unknownOperations' | 'otherTargets'
> {
  /** Selected cases left to other targets (kit-internal operations only), with the sentence that says so. */
  readonly otherTargets?: { readonly cases: number; readonly operations: readonly string[]; readonly message: string };
  readonly offered: NonNullable<RunResult['offered']>;
  readonly operations: NonNullable<RunResult['operations']>;
  readonly unknownOperations: NonNullable<RunResult['unknownOperations']>;
  readonly conformant: boolean;
  readonly summary: string;
  /** What the report is about, for its title: the implementation, or the testee that never started. */
  readonly subject: string;
  readonly cases: readonly CaseView[];
  /** The likely causes of the failing cases, most cases first ({@link triage}). */
  readonly causes: readonly Cause[];
  readonly byKind: readonly GroupRow[];
  readonly bySection: readonly GroupRow[];
}

/** Verdicts in the order reports list them; the failing ones first. */
export const VERDICT_ORDER: readonly Verdict[] = [
  'failed',
  'error',
  'unexpected-pass',
  'expected-failure',
  'partial',
  'skipped',
  'passed',
];

/** The columns of the summary tables, in order. */
export const COLUMNS: readonly Verdict[] = [
  'passed',
  'failed',
  'error',
  'partial',
  'skipped',
  'expected-failure',
  'unexpected-pass',
];

/** Verdicts that fail the run, listed first in every report. */
export const FAILING: readonly Verdict[] = ['failed', 'error', 'unexpected-pass'];

/** Short column titles of the summary tables. */
export const COLUMN: Record<Verdict, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  partial: 'partial',
  skipped: 'skipped',
  'expected-failure': 'xfail',
  'unexpected-pass': 'xpass',
};

/**
 * Builds the report model of a run.
 * @param run - the run
 * @param secrets - the app secrets used in the run's vectors
 * @returns the model: every text masked, contents decoded
 * @example buildModel(failedRun, [appSecret]).summary // 'NOT CONFORMANT: … failed …'
 */
export function buildModel(run: RunResult, secrets: readonly string[]): ReportModel {
  const r = redactorFor(secrets);
  const t = (s: string): string => r.text(s);
  const ts = (a: readonly string[]): string[] => a.map(t);
  const diag = (d: Diagnosis): Diagnosis => ({ mistake: t(d.mistake), message: t(d.message), ref: t(d.ref) });
  const cases: CaseView[] = run.cases.map((c) => {
    const ops: OpView[] = c.ops.map((o) => {
      const content = contents(o.op, o.expected, o.got, r);
      return {
        op: t(o.op),
        status: o.status,
        message: t(o.message),
        ...(o.choice ? { choice: o.choice } : {}),
        ...(o.advisory ? { advisory: t(o.advisory) } : {}),
        durationMs: o.durationMs,
        expected:
          o.op === 'signature.content' && typeof o.expected === 'string' && decodeBase64(o.expected)
            ? r.json({ contentB64: o.expected })
            : r.json(o.expected),
        got: r.json(o.got),
        ...(o.input !== undefined ? { input: r.json(o.input) } : {}),
        diagnosis: (o.diagnosis ?? []).map(diag),
        ...(o.couldExplain?.length ? { couldExplain: o.couldExplain } : {}),
        ...(content ? { content } : {}),
      };
    });
    const { diagnosis, ...derived } = caseDerived(ops);
    return {
      id: t(c.id),
      reproduce: t(reproduceCommand(run.target, c.id, c.property?.replay)),
      ...derived,
      kind: c.kind,
      file: t(c.file),
      comment: t(c.comment),
      spec: ts(c.spec),
      readings: ts(c.readings),
      flags: ts(c.flags),
      result: c.result,
      status: c.status,
      verdict: c.verdict,
      ...(c.choice ? { choice: c.choice } : {}),
      ...(c.advisory ? { advisory: t(c.advisory) } : {}),
      ...(c.listedReason !== undefined ? { listedReason: t(c.listedReason) } : {}),
      ...(c.property
        ? {
            property: {
              ...c.property,
              ...(c.property.replay !== undefined ? { replay: t(c.property.replay) } : {}),
              ...(c.property.counterexample !== undefined ? { counterexample: r.json(c.property.counterexample) } : {}),
            },
          }
        : {}),
      message: t(c.message),
      durationMs: c.durationMs,
      ops,
      diagnosis,
    };
  });
  return withDerived({
    runName: t(run.runName),
    kit: { name: t(run.kit.name), version: t(run.kit.version) },
    vectorSetHash: t(run.vectorSetHash),
    implementation: {
      name: t(run.implementation.name),
      version: t(run.implementation.version),
      language: t(run.implementation.language),
    },
    // what a case's reproduce line is made of (merge makes them again from it: a shard's own are not trusted)
    target: {
      kind: run.target.kind,
      description: t(run.target.description),
      ...(run.target.command !== undefined ? { command: t(run.target.command) } : {}),
      ...(run.target.clientGateway !== undefined ? { clientGateway: t(run.target.clientGateway) } : {}),
    },
    startedAt: t(run.startedAt),
    finishedAt: t(run.finishedAt),
    durationMs: run.durationMs,
    selection: { only: ts(run.selection.only), skip: ts(run.selection.skip) },
    totals: run.totals,
    cases,
    log: ts(run.log),
    staleListEntries: ts(run.staleListEntries),
    offered: [...(run.offered ?? [])],
    operations: (run.operations ?? []).map((o) => ({ ...o })),
    unknownOperations: (run.unknownOperations ?? []).map((u) => ({
      name: t(u.name),
      ...(u.suggestion ? { suggestion: u.suggestion } : {}),
      message: t(u.message),
    })),
    ...(run.noTestRan !== undefined ? { noTestRan: t(run.noTestRan) } : {}),
    ...(run.stopped ? { stopped: { ...run.stopped, reason: t(run.stopped.reason) } } : {}),
    ...(run.otherTargets ? { otherTargets: { ...run.otherTargets, message: otherTargetsLine(run.otherTargets) } } : {}),
    ...(run.aborted
      ? {
          aborted: {
            ...run.aborted,
            message: t(run.aborted.message),
            command: t(run.aborted.command),
            ended: t(run.aborted.ended),
            stderrTail: ts(run.aborted.stderrTail),
          },
        }
      : {}),
    ...(run.shard ? { shard: { index: run.shard.index, count: run.shard.count, ids: ts(run.shard.ids) } } : {}),
  });
}

/** What a model states of its run; the rest follows from it ({@link withDerived}). */
export type ModelFacts = Omit<ReportModel, 'conformant' | 'subject' | 'summary' | 'causes' | 'byKind' | 'bySection'>;

/**
 * A model from its facts: whether it is conformant, its subject and summary line, the likely
 * causes and the tables by kind and section — the one place each is worked out, for a run's
 * model and for one merged from shards alike.
 * @param m - the facts (texts masked already)
 * @returns the whole model
 */
export function withDerived(m: ModelFacts): ReportModel {
  return {
    ...m,
    ...judgeRun(m),
    subject: m.aborted
      ? `${m.aborted.command} (${ABORT_INFO[m.aborted.kind].subjectNote})`
      : describeImplementation(m.implementation),
    causes: triage(m.cases),
    byKind: group(m.cases, (c) => [c.kind], [...RUN_KINDS]),
    bySection: group(m.cases, (c) => (c.spec.length > 0 ? c.spec : ['(none)']), undefined),
  };
}

/** What {@link judgeRun} judges a run by. */
export interface RunJudged {
  readonly totals: Totals;
  readonly durationMs: number;
  readonly noTestRan?: string;
  readonly stopped?: RunStopped;
  readonly aborted?: Pick<RunAborted, 'kind' | 'message'>;
}

/**
 * A run's verdict and summary line from its totals and how it ended: the one judge of every report, of a merged
 * run and of a run compared (compare recomputes them from a results.json's cases, never trusting the file's).
 * @param m - the totals per verdict, the duration, and why no test ran, the run stopped or ended, if it did
 * @returns whether it is conformant, and its summary line
 * @example
 * judgeRun({
 *   totals: { passed: 1, failed: 1, error: 0, partial: 0, skipped: 0, 'expected-failure': 0, 'unexpected-pass': 0 },
 *   durationMs: 10,
 * }).conformant // false
 */
export function judgeRun(m: RunJudged): { readonly conformant: boolean; readonly summary: string } {
  // a run that ended before its cases ran, or stopped before every one ran, is never conformant (runConformant)
  const conformant = runConformant(m) && m.aborted === undefined;
  const stoppedPrefix = m.stopped
    ? `${STOP_INFO[m.stopped.kind].banner} (${m.stopped.reason}; ${m.stopped.notRun} not run) — `
    : '';
  const summary = m.aborted
    ? `${ABORT_INFO[m.aborted.kind].banner}: ${m.aborted.message} (no case ran, ${seconds(m.durationMs)} s)`
    : `${stoppedPrefix}${summaryLine(m.totals, m.durationMs, m.noTestRan, m.stopped !== undefined)}`;
  return { conformant, summary };
}

/**
 * The command that runs one case alone against the run's target, as a user pastes it into a POSIX
 * shell: the testee command or module path quoted, a property with its replay; exact for any text
 * ({@link shellLine}: a word holding a control or another character no page shows as it is goes
 * through `printf`).
 * @param target - the run's target
 * @param id - the case
 * @param replay - a property's `<seed>:<path>`, when it failed
 * @returns e.g. `npx pgv2kit run --testee 'python3 adapter.py' --only id:signature.final-lf-missing`
 * @example
 * reproduceCommand(
 *   { kind: 'reference', description: 'built-in reference' },
 *   'signature.x',
 * ) // 'npx pgv2kit run --only id:signature.x'
 */
export function reproduceCommand(target: RunResult['target'], id: string, replay?: string): string {
  // an SDK run against a given gateway: its command as given, and that gateway (the description is a sentence)
  const sdk = target.command ?? target.description;
  const given = target.clientGateway !== undefined ? ['--gateway', target.clientGateway] : [];
  const how: Record<RunResult['target']['kind'], ReadonlyArray<string | RawText>> = {
    reference: [],
    testee: ['--testee', sdk, ...given],
    module: ['--module', sdk, ...given],
    gateway: ['--gateway', target.description],
    // the merchant role's URLs are the run's own (its description is a sentence): said, not guessed
    merchant: [{ raw: '--merchant --notify-url <as in this run> --return-url <as in this run>' }],
  };
  const replayFlag = replay !== undefined ? ['--replay', `${id}=${replay}`] : [];
  // npx finds the kit installed in the project or globally: the command works where it is pasted
  return shellLine(['npx', 'pgv2kit', 'run', ...how[target.kind], '--only', `id:${id}`, ...replayFlag]);
}

/**
 * What a case's view works out from its steps: the curl command (kit operations only), the steps that ran and did
 * not, and every diagnosis once — for a run's model, and again for the cases of a merge (never taken from a shard).
 * @param ops - the case's steps, clean
 * @returns the fields
 * @example caseDerived([]) // { ran: [], notRun: [], diagnosis: [] }
 */
export function caseDerived(ops: readonly OpView[]): Pick<CaseView, 'curl' | 'ran' | 'notRun' | 'diagnosis'> {
  const seen = new Set<string>();
  return {
    ...curlField(ops),
    ran: ops.filter((o) => o.status !== 'skip').map((o) => o.op),
    notRun: ops.filter((o) => o.status === 'skip').map((o) => o.op),
    diagnosis: ops.flatMap((o) => o.diagnosis).filter((d) => !seen.has(d.mistake) && seen.add(d.mistake)),
  };
}

/**
 * The curl field of a case: from the first step whose answer records the request it sent — a step of the kit's own
 * operations (the gateway and merchant roles, whose records are of what the kit sent), never a testee's answer,
 * which could carry a "request" of its own making (issue 25).
 */
function curlField(ops: readonly OpView[]): { curl?: string } {
  for (const o of ops) {
    if (!(KIT_OPERATIONS as readonly string[]).includes(o.op)) continue;
    const result =
      typeof o.got === 'object' && o.got !== null && !Array.isArray(o.got)
        ? (o.got as Record<string, Json>)['result']
        : undefined;
    const r = typeof result === 'object' && result !== null && !Array.isArray(result) ? result : undefined;
    const curl = curlCommand(r?.['sent'] ?? r?.['call']);
    if (curl) return { curl };
  }
  return {};
}

/**
 * The one-line summary of a run. `CONFORMANT (PARTIAL)` when nothing failed but some
 * cases are partial (a step did not run); `NO TEST RAN` when no step ran at all; `INCOMPLETE`
 * when nothing failed but the run stopped before every case ran.
 * @param totals - counts per verdict
 * @param durationMs - the run's duration
 * @param noTestRan - why no step ran, when none did
 * @param stopped - whether the run stopped early
 * @returns e.g. `NOT CONFORMANT: 5 passed, 1 failed, 1 skipped (7 cases, 0.42 s)`
 * @example
 * summaryLine(
 *   { passed: 2, failed: 0, error: 0, partial: 0, skipped: 0, 'expected-failure': 0, 'unexpected-pass': 0 },
 *   10,
 * ) // 'CONFORMANT: 2 passed (2 cases, 0.010 s)'
 */
export function summaryLine(totals: Totals, durationMs: number, noTestRan?: string, stopped = false): string {
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const parts = (['passed', 'failed', 'error', 'unexpected-pass', 'expected-failure', 'partial', 'skipped'] as const)
    .filter((v) => v === 'passed' || totals[v] > 0)
    .map((v) => {
      const verdictWords =
        v === 'expected-failure' ? 'expected failure' : v === 'unexpected-pass' ? 'unexpected pass' : v;
      return `${totals[v]} ${verdictWords}`;
    });
  // a run that stopped before every case ran is never conformant: what did not run did not pass
  const head = !runPassed(totals)
    ? 'NOT CONFORMANT'
    : stopped
      ? 'INCOMPLETE'
      : noTestRan !== undefined
        ? 'NO TEST RAN'
        : totals.partial > 0
          ? 'CONFORMANT (PARTIAL)'
          : 'CONFORMANT';
  return `${head}: ${parts.join(', ')} (${total} case${total === 1 ? '' : 's'}, ${seconds(durationMs)} s)`;
}

/**
 * How a report titles a run that stopped early.
 * @param kind - why it stopped
 * @returns e.g. `Interrupted`, `Deadline passed`, `Stopped early`
 * @example stoppedTitle('deadline') // 'Deadline passed'
 */
export function stoppedTitle(kind: RunStopped['kind']): string {
  return STOP_INFO[kind].title;
}

/**
 * Milliseconds as seconds with three decimals.
 * @param ms - milliseconds
 * @returns e.g. `0.042`
 * @example seconds(42) // '0.042'
 */
export function seconds(ms: number): string {
  return (Math.max(ms, 0) / 1000).toFixed(3);
}

/**
 * The cases that fail the run (failed, error, unexpected pass), root causes first: the scheme's operations, then
 * the roles ({@link byCause}).
 * @param model - the model
 * @returns the failing cases
 */
export function failingCases(model: ReportModel): CaseView[] {
  return byCause(model.cases.filter((c) => FAILING.includes(c.verdict)));
}

/**
 * Acceptable cases with the choice the implementation made, and the other cases that
 * record one (a valid upload whose formFields went in another order, R14).
 * @param model - the model
 * @returns the acceptable cases that ran (passed or not) and the cases with a choice, in run order
 */
export function acceptableCases(model: ReportModel): CaseView[] {
  return model.cases.filter((c) => (c.result === 'acceptable' || c.choice !== undefined) && c.verdict !== 'skipped');
}

/**
 * Cases that passed with an advisory (a 5xx counted as a refusal, R16), in run order.
 * @param model - the model
 * @returns the cases with an advisory
 */
export function advisoryCases(model: ReportModel): CaseView[] {
  return model.cases.filter((c) => c.advisory !== undefined);
}

/**
 * Partial cases grouped by the operations that did not run.
 * @param model - the model
 * @returns the groups (`notRun`: the operations left out), largest first
 */
export function partialGroups(
  model: ReportModel,
): Array<{ readonly notRun: readonly string[]; readonly cases: CaseView[] }> {
  const groups = new Map<string, CaseView[]>();
  for (const c of model.cases.filter((c) => c.verdict === 'partial'))
    groups.set(c.notRun.join(', '), [...(groups.get(c.notRun.join(', ')) ?? []), c]);
  return [...groups]
    .map(([key, cases]) => ({ notRun: key.split(', '), cases }))
    .sort((a, b) => b.cases.length - a.cases.length);
}

/**
 * The operations the selected cases need whose steps did not all run.
 * @param model - the model
 * @returns their coverage rows
 */
export function notRunOperations(model: ReportModel): OperationCoverage[] {
  return model.operations.filter((o) => o.notRun > 0);
}

/**
 * Skipped cases grouped by their reason (the case's message).
 * @param model - the model
 * @returns the groups, largest first
 */
export function skippedGroups(model: ReportModel): Array<{ readonly reason: string; readonly cases: CaseView[] }> {
  const groups = new Map<string, CaseView[]>();
  for (const c of model.cases.filter((c) => c.verdict === 'skipped'))
    groups.set(c.message, [...(groups.get(c.message) ?? []), c]);
  return [...groups].map(([reason, cases]) => ({ reason, cases })).sort((a, b) => b.cases.length - a.cases.length);
}

/**
 * The implementation as the header of a report names it: name, version when it has one, and
 * language — or, when no case ran because the testee did not start or the target was not
 * reached, that it never said (rather than "unknown unknown").
 * @param m - the model
 * @returns e.g. `acme-pg-sdk 1.4.2 (java)`, `gateway 127.0.0.1:8080 (http)`
 * @example implementationLine(buildModel(run, [])) // 'pgv2kit-reference 0.1.0 (typescript)'
 */
export function implementationLine(m: Pick<ReportModel, 'implementation' | 'aborted'>): string {
  return m.aborted
    ? `not known (${ABORT_INFO[m.aborted.kind].subjectNote}: no case ran)`
    : `${describeImplementation(m.implementation)} (${m.implementation.language})`;
}

/**
 * Why a step did not run, in words, for where the reports would show what it was sent and
 * what came back (it was sent nothing): the implementation does not offer the operation, it
 * answered `unsupported` (with its reason), or what the check says (the client cases without
 * the reference gateway).
 * @param o - a step
 * @returns e.g. `not run: the implementation does not offer signature.content`; undefined for a step that ran
 * @example
 * notRunReason({
 *   op: 'signature.sign',
 *   status: 'skip',
 *   message: 'unsupported: no',
 * }) // 'not run: the implementation answered unsupported (no)'
 */
export function notRunReason(o: Pick<OpView, 'op' | 'status' | 'message'>): string | undefined {
  if (o.status !== 'skip') return undefined;
  if (/^the (subject|implementation) does not offer /.test(o.message))
    return `not run: the implementation does not offer ${o.op}`;
  const unsupported = /^unsupported: (.*)$/s.exec(o.message);
  if (unsupported) return `not run: the implementation answered unsupported (${unsupported[1] ?? ''})`;
  return `not run: ${o.message}`;
}

/**
 * Every choice a case records: the case's, or its operations'.
 * @param c - a case
 * @returns e.g. `accepted` or `request.verify: refused`
 */
export function choiceText(c: CaseView): string {
  const ops = c.ops.filter((o) => o.choice);
  if (ops.length === 0) return c.choice ?? '—';
  if (ops.length === 1) return ops[0]?.choice ?? '—';
  return ops.map((o) => `${o.op}: ${o.choice}`).join(', ');
}

// --- internal ---

function contents(op: string, expected: Json, got: Json, r: Redactor): OpView['content'] {
  const e = op === 'signature.content' && typeof expected === 'string' ? decodeBase64(expected) : findContent(expected);
  const g = op === 'signature.content' && typeof got === 'string' ? decodeBase64(got) : findContent(got);
  if (e && g) {
    const diff = diffContents(e, g, r);
    return { expected: diff.expected, got: diff.got, diff };
  }
  if (e) return { expected: viewContent(e, r) };
  if (g) return { got: viewContent(g, r) };
  return undefined;
}

function findContent(value: Json): Uint8Array | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findContent(v);
      if (found) return found;
    }
    return undefined;
  }
  const own = value['contentB64'];
  if (typeof own === 'string') return decodeBase64(own);
  for (const v of Object.values(value)) {
    const found = findContent(v);
    if (found) return found;
  }
  return undefined;
}

function group(
  cases: readonly CaseView[],
  keys: (c: CaseView) => readonly string[],
  order: readonly string[] | undefined,
): GroupRow[] {
  const rows = new Map<string, Totals>();
  for (const name of order ?? []) rows.set(name, zero());
  for (const c of cases) {
    for (const k of keys(c)) {
      const counts = rows.get(k) ?? zero();
      counts[c.verdict]++;
      rows.set(k, counts);
    }
  }
  const list = [...rows].map(([name, counts]) => ({
    name,
    counts,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
  }));
  return (order ? list : list.sort((a, b) => compareSections(a.name, b.name))).filter((row) => row.total > 0);
}

function zero(): Totals {
  return { passed: 0, failed: 0, error: 0, partial: 0, skipped: 0, 'expected-failure': 0, 'unexpected-pass': 0 };
}

function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? -1;
    const y = pb[i] ?? -1;
    if (Number.isNaN(x) || Number.isNaN(y)) return a.localeCompare(b);
    if (x !== y) return x - y;
  }
  return 0;
}
