/**
 * `runCertification`: plays the gateway against a merchant's notify and return
 * endpoints, check by check in plan order, and judges each answer. Replay checks are
 * advisory only (R12). The result is data; {@link writeCertificationReports} writes it.
 * @module
 */
import { KIT_NAME, kitVersion } from '../version.js';
import { judge, type CheckResult, type Handling, type Judgement } from './judge.js';
import { buildPlan, planHash, type Expectation, type HttpCall, type PlanOptions } from './plan.js';
import { createSender, type SendOutcome } from './send.js';

/** Options of {@link runCertification}. */
export interface CertifyOptions extends PlanOptions {
  /** Limit for one call (default 5000). */
  readonly timeoutMs?: number;
  /** With it, an accepting answer is a 2xx whose body equals this text. */
  readonly acceptBody?: string;
  /** The clock (default Date.now): a fixed clock gives byte-identical calls for a seed. */
  readonly now?: () => number;
  /** Called after each check, for progress. */
  readonly onCheck?: (check: CheckOutcome) => void;
}

/** One check as run. */
export interface CheckOutcome {
  readonly id: string;
  readonly title: string;
  readonly expect: Expectation;
  readonly call: HttpCall;
  /** Absent when the check was not applicable (not sent). */
  readonly outcome?: SendOutcome;
  readonly judgement: Judgement;
}

/** One requirement as run. */
export interface RequirementResult {
  readonly id: string;
  readonly title: string;
  readonly sections: readonly string[];
  readonly readings: readonly string[];
  /** fail when a check failed; pass when every applicable check passed; advisory for advisory-only requirements. */
  readonly result: CheckResult;
  readonly checks: readonly CheckOutcome[];
}

/** CERTIFIED or NOT CERTIFIED. */
export type Verdict = 'CERTIFIED' | 'NOT CERTIFIED';

/** The result of a certification run. */
export interface CertificationResult {
  readonly kit: { readonly name: string; readonly version: string };
  /** ISO date and time the run started. */
  readonly date: string;
  readonly seed: number;
  /** SHA-256 of the plan at the reference time: the hash of the cases used. */
  readonly planHash: string;
  readonly merchant: {
    readonly appId: string;
    readonly notifyUrl: string;
    readonly returnUrl: string;
    readonly deliverTo: string;
    readonly returnDeliverTo: string;
  };
  readonly timeoutMs: number;
  readonly acceptBody?: string;
  readonly verdict: Verdict;
  /** Why the verdict is NOT CERTIFIED (empty when CERTIFIED). */
  readonly reasons: readonly string[];
  /** Whether any call got an HTTP answer. */
  readonly reachable: boolean;
  /** How many calls ended each way other than accepted/refused (5xx, timeouts, resets…). */
  readonly robustness: Readonly<Partial<Record<Handling, number>>>;
  /** What advisory and acceptable checks found, one line each. */
  readonly notes: readonly string[];
  readonly requirements: readonly RequirementResult[];
  readonly totals: Readonly<Record<CheckResult, number>>;
}

/**
 * Certifies a merchant's webhook and return-redirect handling (spec §5.5, §5.6, §6).
 * @param options - credentials, registered and delivery URLs, seed, timeout, accept body
 * @returns the result, verdict and reasons included; never throws for merchant behaviour
 * @example const r = await runCertification({ appId, appSecret, notifyUrl, returnUrl, seed: 1 }); r.verdict
 */
export async function runCertification(options: CertifyOptions): Promise<CertificationResult> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const timeoutMs = options.timeoutMs ?? 5000;
  const plan = buildPlan(options, startedAt);
  const sender = createSender(timeoutMs);
  const requirements: RequirementResult[] = [];
  try {
    for (const r of plan.requirements) {
      const checks: CheckOutcome[] = [];
      for (const c of r.checks) {
        let done: CheckOutcome;
        if (c.notApplicable !== undefined) {
          done = { id: c.id, title: c.title, expect: c.expect, call: c.call, judgement: { result: 'not-applicable', handling: 'not-sent', reason: c.notApplicable } };
        } else {
          const outcome = await sender.send(c.call);
          done = { id: c.id, title: c.title, expect: c.expect, call: c.call, outcome, judgement: judge(c.expect, outcome, options.acceptBody) };
        }
        checks.push(done);
        options.onCheck?.(done);
      }
      requirements.push({ id: r.id, title: r.title, sections: r.sections, readings: r.readings, result: requirementResult(checks), checks });
    }
  } finally {
    await sender.close();
  }

  const all = requirements.flatMap((r) => r.checks);
  const reachable = all.some((c) => c.outcome?.kind === 'response');
  const robustness: Partial<Record<Handling, number>> = {};
  for (const c of all) {
    const h = c.judgement.handling;
    if (h !== 'not-sent' && h !== 'accepted' && h !== 'refused') robustness[h] = (robustness[h] ?? 0) + 1;
  }
  const reasons: string[] = [];
  if (!reachable) reasons.push('the merchant could not be reached: no call got an HTTP answer');
  for (const r of requirements.filter((r) => r.result === 'fail')) {
    const failed = r.checks.filter((c) => c.judgement.result === 'fail');
    reasons.push(`${r.id} (${r.sections.join(', ')}${r.readings.length ? `; ${r.readings.join(', ')}` : ''}): ${r.title} — ${failed.length} of ${r.checks.length} checks failed, e.g. ${failed[0]?.id}: ${failed[0]?.judgement.reason}`);
  }
  const notes = all.filter((c) => c.expect === 'advisory' || c.expect === 'acceptable' || c.judgement.result === 'not-applicable').map((c) => `${c.id}: ${c.judgement.handling === 'not-sent' ? 'not applicable' : c.judgement.handling} — ${c.judgement.reason}`);
  const totals: Record<CheckResult, number> = { pass: 0, fail: 0, advisory: 0, 'not-applicable': 0 };
  for (const c of all) totals[c.judgement.result]++;
  return {
    kit: { name: KIT_NAME, version: kitVersion() },
    date: new Date(startedAt).toISOString(),
    seed: options.seed,
    planHash: planHash(options),
    merchant: {
      appId: options.appId,
      notifyUrl: options.notifyUrl,
      returnUrl: options.returnUrl,
      deliverTo: options.deliverTo ?? options.notifyUrl,
      returnDeliverTo: options.returnDeliverTo ?? options.returnUrl,
    },
    timeoutMs,
    ...(options.acceptBody !== undefined ? { acceptBody: options.acceptBody } : {}),
    verdict: reasons.length === 0 ? 'CERTIFIED' : 'NOT CERTIFIED',
    reasons,
    reachable,
    robustness,
    notes,
    requirements,
    totals,
  };
}

// --- internal ---

function requirementResult(checks: readonly CheckOutcome[]): CheckResult {
  const results = checks.map((c) => c.judgement.result);
  if (results.includes('fail')) return 'fail';
  if (results.includes('pass')) return 'pass';
  if (results.includes('advisory')) return 'advisory';
  return 'not-applicable';
}
