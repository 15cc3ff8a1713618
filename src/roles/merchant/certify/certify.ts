/**
 * `runCertification`: a merchant-role run ({@link runCases} over the merchant vectors,
 * vectors/merchant/, against {@link createMerchantSubject}) with the per-requirement results
 * mapped to CERTIFIED or NOT CERTIFIED. Replay checks are advisory only (R12). The result is
 * data; {@link writeCertificationReports} writes it beside the run's standard reports.
 * @module
 */
import { mistakeTitle } from '../../../docs/refs.js';
import { expectationOf } from '../check.js';
import type { CaseResult, RunResult } from '../../../runner/result.js';
import { runCases } from '../../../runner/run.js';
import { triage } from '../../../runner/triage.js';
import type { HttpCall, MerchantTarget } from '../as-gateway/call.js';
import type { AcceptanceRule } from '../as-gateway/acceptance.js';
import type { Handling } from '../as-gateway/handling.js';
import { planHash } from '../as-gateway/plan.js';
import type { SendOutcome } from '../as-gateway/send.js';
import { createMerchantSubject, type MerchantAnswer } from '../subject.js';
import type { TargetNaming } from '../../../subjects/subject.js';
import { KIT_NAME, kitVersion } from '../../../version.js';
import { liveCases, loadVectorSet } from '../../../vectors/load.js';
import type { MerchantCase, VectorSet } from '../../../vectors/types.js';

/**
 * Options of {@link runCertification}; `name` and `version` name the merchant in the reports (default: `merchant <host
 * of the notifyUrl>`, no version).
 */
export interface CertifyOptions extends MerchantTarget, TargetNaming, AcceptanceRule {
  /** Seeds the payloads and nonces (with each case id). */
  readonly seed: number;
  /** Limit for one call (default 5000). */
  readonly timeoutMs?: number;
  /** The clock (default Date.now): a fixed clock gives byte-identical calls for a seed. */
  readonly now?: () => number;
  /** The vector set whose merchant cases run (default: the kit's own). */
  readonly set?: VectorSet;
  /** Called after each check, for progress. */
  readonly onCase?: (result: CaseResult) => void;
  /** No call starts after this many milliseconds from the start; the checks not run fail the certification. */
  readonly deadlineMs?: number;
  /**
   * Stops the certification when aborted (Ctrl-C, SIGTERM): no call starts after it, the one in flight ends as not
   * run, and the result is NOT CERTIFIED, its reason the abort's.
   */
  readonly signal?: AbortSignal;
}

/** What the merchant must do with a call: accept, refuse, either (`acceptable`), or anything (`advisory`). */
export type Expectation = 'accept' | 'refuse' | 'acceptable' | 'advisory';

/** The result of a check. */
export type CheckResult = 'pass' | 'fail' | 'advisory' | 'not-applicable';

/** The judgement of one check. */
export interface Judgement {
  readonly result: CheckResult;
  readonly handling: Handling | 'not-sent';
  /** One line: what happened and, for a failure, why it fails. */
  readonly reason: string;
}

/** One check (a merchant case) as run. */
export interface CheckOutcome {
  /** The case id, e.g. `merchant.webhook.scheme.bearer`. */
  readonly id: string;
  /** What is sent, in words (the case's comment). */
  readonly title: string;
  readonly expect: Expectation;
  /** Absent when the check was not applicable (not sent). */
  readonly call?: HttpCall;
  readonly outcome?: SendOutcome;
  readonly judgement: Judgement;
}

/** One requirement as run. */
export interface RequirementResult {
  readonly id: string;
  readonly title: string;
  readonly sections: readonly string[];
  readonly readings: readonly string[];
  /** The known mistake a failure of the requirement reveals (docs/mistakes/<id>.md), when the vectors name one. */
  readonly mistake?: string;
  /**
   * For a failed requirement: the known mistake the run's diagnosis names for its failures (by the pattern of the
   * merchant's answers), when it names one.
   */
  readonly named?: string;
  /** fail when a check failed; pass when every applicable check passed; advisory for advisory-only requirements. */
  readonly result: CheckResult;
  readonly checks: readonly CheckOutcome[];
}

/** CERTIFIED or NOT CERTIFIED. */
export type CertificationVerdict = 'CERTIFIED' | 'NOT CERTIFIED';

/** The result of a certification run. */
export interface CertificationResult {
  readonly kit: { readonly name: string; readonly version: string };
  /** ISO date and time the run started. */
  readonly date: string;
  readonly seed: number;
  /** SHA-256 of the plan at the reference time: the hash of the cases used. */
  readonly planHash: string;
  /** SHA-256 of the vector files the cases came from. */
  readonly vectorSetHash: string;
  readonly merchant: {
    readonly appId: string;
    readonly notifyUrl: string;
    readonly returnUrl: string;
    readonly deliverTo: string;
    readonly returnDeliverTo: string;
  };
  readonly timeoutMs: number;
  /** --accept-body: the notify endpoint's accepting body. */
  readonly acceptBody?: string;
  /** --return-refusal-body: the text of the return endpoint's refusal page. */
  readonly returnRefusalBody?: string;
  /** --return-refusal-location: where the return endpoint redirects a refusal. */
  readonly returnRefusalLocation?: string;
  readonly verdict: CertificationVerdict;
  /** Why the verdict is NOT CERTIFIED (empty when CERTIFIED). */
  readonly reasons: readonly string[];
  /** Whether any call got an HTTP answer (a merchant that connects and never answers did not). */
  readonly answered: boolean;
  /** How many calls ended each way other than accepted/refused (5xx, timeouts, resets…). */
  readonly robustness: Readonly<Partial<Record<Handling, number>>>;
  /** What advisory, acceptable and not-applicable checks found, one line each. */
  readonly notes: readonly string[];
  readonly requirements: readonly RequirementResult[];
  readonly totals: Readonly<Record<CheckResult, number>>;
  /** The merchant-role run the certification maps: what the standard reports are written from. */
  readonly run: RunResult;
}

/**
 * Certifies a merchant's webhook and return-redirect handling (spec §5.5, §5.6, §6): runs every
 * merchant case, one call at a time in case order, and maps the requirements' results.
 * @param options - credentials, registered and delivery URLs, seed, timeout, what counts as acceptance per endpoint
 * @returns the result, verdict and reasons included; never throws for merchant behaviour
 * @example const r = await runCertification({ appId, appSecret, notifyUrl, returnUrl, seed: 1 }); r.verdict
 */
export async function runCertification(options: CertifyOptions): Promise<CertificationResult> {
  const set = options.set ?? loadVectorSet();
  const startedAt = (options.now ?? Date.now)();
  const timeoutMs = options.timeoutMs ?? 5000;
  const subject = createMerchantSubject({ ...options, timeoutMs, now: () => startedAt });
  let run: RunResult;
  try {
    run = await runCases({
      set,
      subject,
      target: {
        kind: 'merchant',
        description:
          `merchant at ${options.deliverTo ?? options.notifyUrl} ` +
          `and ${options.returnDeliverTo ?? options.returnUrl}`,
      },
      selection: { only: ['area:merchant'], skip: [] },
      // in case order, one at a time: a replay follows the call it repeats
      concurrency: 1,
      ...(options.onCase ? { onCase: options.onCase } : {}),
      ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await subject.close?.();
  }
  return certificationOf(run, set, { ...options, timeoutMs });
}

/**
 * Maps a merchant-role run to a certification: each requirement fails when one of its checks
 * failed or errored, passes when every applicable check passed, is advisory when all its checks
 * are; the verdict is CERTIFIED when no requirement failed and the merchant answered at all.
 * @param run - a run of the merchant cases
 * @param set - the vector set they came from (requirements, the cases' fields)
 * @param options - the certification's options (for the plan hash and the summary)
 * @returns the certification
 * @example
 * certificationOf(result.run, set, {
 *   appId,
 *   appSecret,
 *   notifyUrl,
 *   returnUrl,
 *   seed: 1,
 *   timeoutMs: 500,
 * }).verdict // result.verdict
 */
export function certificationOf(
  run: RunResult,
  set: VectorSet,
  options: CertifyOptions & { readonly timeoutMs: number },
): CertificationResult {
  const cases = liveCases(set)
    .map((l) => l.case)
    .filter((c): c is MerchantCase => c.kind === 'merchant');
  const results = new Map(run.cases.map((r) => [r.id, r]));
  // a failed requirement names the mistake the run's leading cause among its failures is (the triage)
  const causeOf = causesByCheck(run);
  const rank = new Map<string, number>();
  const requirements: RequirementResult[] = Object.entries(set.requirements)
    .map(([id, q]) => {
      const checks = cases
        .filter((c) => c.requirement === id && results.has(c.id))
        .map((c) => checkOutcome(c, results.get(c.id) as CaseResult));
      const named = checks
        .filter((c) => c.judgement.result === 'fail')
        .map((c) => causeOf.get(c.id))
        .filter((x) => x !== undefined)
        .sort((a, b) => a.rank - b.rank)[0];
      if (named) rank.set(id, named.rank);
      return {
        id,
        title: q.title,
        sections: q.spec.map((s) => `§${s}`),
        readings: q.readings,
        ...(q.mistake !== undefined ? { mistake: q.mistake } : {}),
        ...(named ? { named: named.mistake } : {}),
        result: requirementResult(checks),
        checks,
      };
    })
    .filter((q) => q.checks.length > 0);
  const all = requirements.flatMap((r) => r.checks);
  const answered = all.some((c) => c.outcome?.kind === 'response');
  const robustness: Partial<Record<Handling, number>> = {};
  for (const c of all) {
    const h = c.judgement.handling;
    if (h !== 'not-sent' && h !== 'accepted' && h !== 'refused') robustness[h] = (robustness[h] ?? 0) + 1;
  }
  const reasons: string[] = [];
  // a merchant not reached: no call was sent, nothing is certified
  if (run.aborted) reasons.push(run.aborted.message);
  if (run.stopped) reasons.push(`${run.stopped.reason}: ${run.stopped.notRun} of the checks did not run`);
  const sent = all.filter((c) => c.judgement.handling !== 'not-sent').length;
  if (!answered && sent > 0)
    reasons.push(
      `the merchant answered none of the ${sent} calls sent (${Object.entries(robustness)
        .map(([h, n]) => `${n} ${h}`)
        .join(', ')})`,
    );
  // the failed requirements, the one whose failures the run's leading cause explains first: a known mistake
  // the pattern of the merchant's answers names (the triage), else the one the requirement itself names
  const failing = requirements
    .filter((r) => r.result === 'fail')
    .sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
  for (const r of failing) {
    const failed = r.checks.filter((c) => c.judgement.result === 'fail');
    const example = failed.find((c) => r.named !== undefined && causeOf.get(c.id)?.mistake === r.named) ?? failed[0];
    reasons.push(
      `${r.id} (${r.sections.join(', ')}${r.readings.length ? `; ${r.readings.join(', ')}` : ''}): ${r.title} — ` +
        `${failed.length} of ${r.checks.length} checks failed${mistakeNamed(r.named ?? r.mistake)}, ` +
        `e.g. ${example?.id}: ${example?.judgement.reason}`,
    );
  }
  const notes = all
    .filter(
      (c) =>
        c.expect === 'advisory' ||
        c.expect === 'acceptable' ||
        c.judgement.result === 'not-applicable' ||
        c.judgement.result === 'advisory',
    )
    .map((c) => {
      const handling = c.judgement.handling === 'not-sent' ? 'not applicable' : c.judgement.handling;
      return `${c.id}: ${handling} — ${c.judgement.reason}`;
    });
  const totals: Record<CheckResult, number> = { pass: 0, fail: 0, advisory: 0, 'not-applicable': 0 };
  for (const c of all) totals[c.judgement.result]++;
  return {
    kit: { name: KIT_NAME, version: kitVersion() },
    date: run.startedAt,
    seed: options.seed,
    planHash: planHash(cases, options, options.seed),
    vectorSetHash: set.hash,
    merchant: {
      appId: options.appId,
      notifyUrl: options.notifyUrl,
      returnUrl: options.returnUrl,
      deliverTo: options.deliverTo ?? options.notifyUrl,
      returnDeliverTo: options.returnDeliverTo ?? options.returnUrl,
    },
    timeoutMs: options.timeoutMs,
    ...(options.acceptBody !== undefined ? { acceptBody: options.acceptBody } : {}),
    ...(options.returnRefusalBody !== undefined ? { returnRefusalBody: options.returnRefusalBody } : {}),
    ...(options.returnRefusalLocation !== undefined ? { returnRefusalLocation: options.returnRefusalLocation } : {}),
    verdict: reasons.length === 0 ? 'CERTIFIED' : 'NOT CERTIFIED',
    reasons,
    answered,
    robustness,
    notes,
    requirements,
    totals,
    run,
  };
}

// --- internal ---

/** Each failed check's cause, as the run's triage names it: the known mistake and the cause's rank (0 leads). */
function causesByCheck(run: RunResult): Map<string, { readonly mistake: string; readonly rank: number }> {
  const byCheck = new Map<string, { mistake: string; rank: number }>();
  triage(run.cases).forEach((cause, rank) => {
    if (cause.mistake === null) return;
    for (const id of cause.cases) if (!byCheck.has(id)) byCheck.set(id, { mistake: cause.mistake, rank });
  });
  return byCheck;
}

/** ", the known mistake <id> (<its page's title>)", or nothing when the requirement names none. */
function mistakeNamed(id: string | undefined): string {
  if (id === undefined) return '';
  const title = mistakeTitle(id);
  return `, the known mistake ${id}${title !== undefined ? ` (${title})` : ''}`;
}

function checkOutcome(c: MerchantCase, r: CaseResult): CheckOutcome {
  const expect: Expectation = expectationOf(c);
  const op = r.ops[0];
  const answer =
    op && typeof op.got === 'object' && op.got !== null && 'result' in op.got
      ? (op.got as unknown as { result: MerchantAnswer }).result
      : undefined;
  const reason = op?.message ?? r.message;
  // an advisory check (R12) never fails the certification, answered or not: what happened is in the notes and the
  // robustness counts; a check passed with an advisory (R16: a 5xx counted as a refusal) is reported as advisory,
  // never failed
  const passed = r.status === 'pass' || r.status === 'skip';
  const result: CheckResult =
    r.status === 'skip'
      ? 'not-applicable'
      : c.advisory
        ? 'advisory'
        : !passed
          ? 'fail'
          : r.advisory
            ? 'advisory'
            : 'pass';
  const handling: Handling | 'not-sent' = answer?.handling ?? 'not-sent';
  return {
    id: c.id,
    title: c.comment,
    expect,
    ...(answer ? { call: answer.call, outcome: answer.outcome } : {}),
    judgement: {
      result,
      handling,
      reason: result === 'not-applicable' ? reason.replace(/^unsupported: (not applicable: )?/, '') : reason,
    },
  };
}

function requirementResult(checks: readonly CheckOutcome[]): CheckResult {
  const results = checks.map((c) => c.judgement.result);
  if (results.includes('fail')) return 'fail';
  if (results.includes('pass')) return 'pass';
  if (results.includes('advisory')) return 'advisory';
  return 'not-applicable';
}
