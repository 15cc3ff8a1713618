/**
 * What the readings allow a merchant to do with a certification call, computed with the
 * same judgement every verify vector is held to ({@link verifyAnswers}: every parse of the
 * header R8 allows, R7's hex case, R9–R11's parts). The plan's checks state their intent;
 * {@link checkExpectations} makes sure each one agrees with the readings.
 * @module
 */
import { redirectValues } from '../scheme/redirect.js';
import { verifyAnswers, type VerifyAnswers } from '../scheme/verify-answers.js';
import type { Expectation, HttpCall, Plan, PlanOptions } from './plan-types.js';

/**
 * The expectation the readings give a webhook or return-redirect call.
 * @param call - the call as the plan sends it (a POST is a webhook, a GET a redirect)
 * @param options - the merchant's credentials and registered URLs
 * @returns accept, refuse or acceptable
 * @example readingsExpectation(plan.requirements[0].checks[0].call, options) // 'accept'
 */
export function readingsExpectation(call: HttpCall, options: Pick<PlanOptions, 'appId' | 'appSecret' | 'notifyUrl' | 'returnUrl'>): Exclude<Expectation, 'advisory'> {
  const { appId, appSecret } = options;
  let answers: VerifyAnswers;
  if (call.method === 'POST') {
    const header = call.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    answers = verifyAnswers({ appId, appSecret, method: 'POST', url: options.notifyUrl, body: call.body ?? '' }, header);
  } else {
    const values = redirectValues(call.url);
    answers = 'problem' in values ? { mayAccept: false, mayRefuse: true } : verifyAnswers({ appId, appSecret, method: 'GET', url: options.returnUrl, body: `payment=${values.payment}` }, values.authorization);
  }
  if (!answers.mayAccept) return 'refuse';
  return answers.mayRefuse ? 'acceptable' : 'accept';
}

/**
 * Checks that every check of a plan expects what the readings give (advisory checks, R12,
 * are judged by no reading of R7–R11 and are left alone).
 * @param plan - the plan
 * @param options - the merchant's credentials and registered URLs
 * @returns the plan, unchanged
 * @throws {Error} naming the check, when the plan and the readings disagree (a kit bug)
 * @example checkExpectations(buildPlan(options, Date.now()), options)
 */
export function checkExpectations(plan: Plan, options: PlanOptions): Plan {
  for (const r of plan.requirements) {
    for (const c of r.checks) {
      if (c.expect === 'advisory' || c.notApplicable !== undefined) continue;
      const readings = readingsExpectation(c.call, options);
      if (readings !== c.expect) throw new Error(`certification check ${c.id} expects ${c.expect}, but the readings (R7–R11) say ${readings}: a kit bug, please report it`);
    }
  }
  return plan;
}
