/**
 * A results.json's verdict worked out again from its cases (issue 25, item 4): a file from elsewhere may say
 * `conformant: true` beside 137 failed cases. The totals are counted from the cases, whether any step ran from
 * their steps, and the verdict and summary line come from the runner's own rules ({@link judgeRun}): never a
 * second judge. What the file says of itself and its cases do not is named.
 * @module
 */
import { noTestRan } from '../runner/coverage.js';
import { VERDICT_INFO, type Totals, type Verdict } from '../runner/result.js';
import { countVerdicts, verdictOf } from '../runner/run.js';
import { worstStatus } from '../checks/outcome.js';
import { judgeRun } from './_model.js';
import type { ResultsJson, ResultsJsonCase } from './results-json.js';

/** A run's verdict, as its cases say. */
export interface RecomputedRun {
  /** Counted from the cases; `total` is their number. */
  readonly totals: Totals & { readonly total: number };
  readonly conformant: boolean;
  /** The summary line the run's own reports would show for these cases. */
  readonly summary: string;
  /** Why no step ran, when none of the cases' steps did; else undefined. */
  readonly noTestRan: string | undefined;
  /** What the file says of itself that its cases do not (none when it agrees), e.g. `"conformant": true`. */
  readonly disagreements: readonly string[];
}

/**
 * Works out a run's totals, verdict and summary from its cases, as the runner does, and what the file's own
 * `conformant` and `totals` say otherwise. How the run ended (aborted, stopped) is taken from the file: either can only
 * make a run not conformant.
 * @param r - a results.json, valid against its schema
 * @returns the verdict its cases give
 * @example
 * import { toResultsJson } from './results-json.js';
 * recomputeRun(toResultsJson(run, [])).disagreements // []
 */
export function recomputeRun(r: ResultsJson): RecomputedRun {
  const counted = countVerdicts(r.cases);
  const totals = { ...counted, total: r.cases.length };
  const offered = r.operations.filter((o) => o.offered).map((o) => o.op);
  // a file's operation names are any strings: noTestRan only compares them
  const steps = r.cases as Parameters<typeof noTestRan>[0]['cases'];
  const stopped = r.stopped ?? undefined;
  const aborted = r.aborted ?? undefined;
  // as the runner: a run that stopped early or never started is not "no test ran"
  const nothing =
    stopped || aborted
      ? undefined
      : noTestRan({ selection: r.selection, cases: steps, offered, otherTargets: r.otherTargets?.cases ?? 0 });
  const judged = judgeRun({
    totals: counted,
    durationMs: r.durationMs,
    ...(nothing !== undefined ? { noTestRan: nothing } : {}),
    ...(stopped ? { stopped } : {}),
    ...(aborted ? { aborted } : {}),
  });
  const disagreements: string[] = [];
  if (r.conformant !== judged.conformant)
    disagreements.push(
      `"conformant": ${String(r.conformant)}, but its cases make it ${judged.conformant ? '' : 'not '}conformant` +
        `${judged.conformant ? '' : ` (${failing(counted, nothing, stopped !== undefined, aborted !== undefined)})`}`,
    );
  const wrong = (Object.keys(totals) as Array<keyof typeof totals>).filter((k) => r.totals[k] !== totals[k]);
  if (wrong.length > 0)
    disagreements.push(
      `"totals" ${wrong.map((k) => `${k} ${r.totals[k]}`).join(', ')}, but its cases count ` +
        wrong.map((k) => `${k} ${totals[k]}`).join(', '),
    );
  return { totals, conformant: judged.conformant, summary: judged.summary, noTestRan: nothing, disagreements };
}

/**
 * A results.json with each case's status and verdict worked out again from its steps, as the runner does (the worst
 * step's status; a failure on the run's expected-failure list an expected failure): a file from elsewhere may call
 * a case whose steps failed `passed`. What the file said otherwise is named.
 * @param r - a results.json, valid against its schema
 * @returns the file with its cases' verdicts as their steps give them, and what it said otherwise (none when it
 *   agrees)
 * @example
 * import { toResultsJson } from './results-json.js';
 * withCaseVerdicts(toResultsJson(run, [])).disagreements // []
 */
export function withCaseVerdicts(r: ResultsJson): {
  readonly results: ResultsJson;
  readonly disagreements: readonly string[];
} {
  const wrong: string[] = [];
  const cases = r.cases.map((c): ResultsJsonCase => {
    const status = worstStatus(c.ops);
    const verdict = verdictOf(status, c.listedReason !== null ? { reason: c.listedReason } : undefined);
    if (c.verdict === verdict && c.status === status) return c;
    wrong.push(`${c.id}: "${c.verdict}", its steps give "${verdict}"`);
    return { ...c, status, verdict };
  });
  if (wrong.length === 0) return { results: r, disagreements: [] };
  const some = wrong.slice(0, 3).join('; ');
  return {
    results: { ...r, cases },
    disagreements: [
      `${wrong.length} case${wrong.length === 1 ? '' : 's'} a verdict ${wrong.length === 1 ? 'its' : 'their'} steps ` +
        `contradict (${some}${wrong.length > 3 ? '; …' : ''})`,
    ],
  };
}

// --- internal ---

/** Why the cases make a run not conformant, in a few words. */
function failing(totals: Totals, nothing: string | undefined, stopped: boolean, aborted: boolean): string {
  const failed = (Object.keys(totals) as Verdict[]).filter((v) => VERDICT_INFO[v].failsRun && totals[v] > 0);
  if (failed.length > 0) return failed.map((v) => `${totals[v]} ${v}`).join(', ');
  if (aborted) return 'no case ran';
  if (stopped) return 'it stopped before every case ran';
  return nothing ?? 'not every case passed';
}
