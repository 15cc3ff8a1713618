/**
 * A results.json's verdict worked out again from its cases (issue 25, item 4): a file from elsewhere may say
 * `conformant: true` beside 137 failed cases. The totals are counted from the cases, whether any step ran from
 * their steps, and the verdict and summary line come from the runner's own rules ({@link judgeRun}): never a
 * second judge. What the file says of itself and its cases do not is named.
 * @module
 */
import { noTestRan } from '../runner/coverage.js';
import { VERDICT_INFO, type Totals, type Verdict } from '../runner/result.js';
import { countVerdicts } from '../runner/run.js';
import { judgeRun } from './_model.js';
import type { ResultsJson } from './results-json.js';

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

// --- internal ---

/** Why the cases make a run not conformant, in a few words. */
function failing(totals: Totals, nothing: string | undefined, stopped: boolean, aborted: boolean): string {
  const failed = (Object.keys(totals) as Verdict[]).filter((v) => VERDICT_INFO[v].failsRun && totals[v] > 0);
  if (failed.length > 0) return failed.map((v) => `${totals[v]} ${v}`).join(', ');
  if (aborted) return 'no case ran';
  if (stopped) return 'it stopped before every case ran';
  return nothing ?? 'not every case passed';
}
