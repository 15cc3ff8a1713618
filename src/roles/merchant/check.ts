/**
 * Merchant-role cases (5.5, 5.6, 6; R7–R12, R15, R16): the merchant under test handles a
 * call the kit sent as the gateway. valid: it must accept the call (a 5xx fails it); invalid:
 * refuse it — any answer that does not read as acceptance at the endpoint called
 * (src/roles/merchant/as-gateway/acceptance.ts) — a 5xx counts as a refusal, reported as an advisory ("answered
 * with a server error, not a refusal", R16: {@link judgeAnswer}, the rule the gateway role and
 * fuzz use too); acceptable: either, the choice recorded; advisory: any answer, reported (R12). A call that got no
 * answer (a timeout, a reset, nothing listening) is an error of the case, never a refusal. The case's
 * expectation is held to what the readings allow for the call as built: where they disagree
 * the case is an error naming the kit bug, never a verdict on the merchant.
 * @module
 */
import { HANDLING_TITLES } from './as-gateway/handling.js';
import { judgeAnswer } from '../../refusal.js';
import type { HttpCall } from './as-gateway/target.js';
import type { MerchantAnswer } from './subject.js';
import type { Json } from '../../subjects/subject.js';
import { clip } from '../../scheme/text.js';
import type { MerchantCase } from '../../vectors/types.js';
import { callOp, defineCheck, nonResult } from '../../checks/check.js';
import type { OpOutcome } from '../../checks/outcome.js';

/** The check of merchant cases. */
export const merchantCheck = defineCheck({
  kind: 'merchant',
  operations: (c) => [c.op],
  async run(c, op, subject): Promise<OpOutcome> {
    const expectation = expectationOf(c);
    // results.json's words for it (a contract): `either` for acceptable, `anything` for advisory
    const expected = EXPECTED_IN_RESULTS[expectation];
    const answer = await callOp(subject, op, c.inputs as { [key: string]: Json }, c.id);
    const other = nonResult(op, expected, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if (!('result' in answer))
      return {
        op,
        status: 'error',
        expected,
        got,
        message: `the call could not be made: ${'rejected' in answer ? answer.rejected.reason : 'no result'}`,
      };
    const r = answer.result as unknown as MerchantAnswer;
    const sent = sentOf(r.call);
    if (expectation !== 'advisory' && r.readings !== expectation) {
      return {
        op,
        status: 'error',
        expected,
        got,
        sent,
        message:
          `a kit bug, please report it: the case expects ${expectation}, ` +
          `but the readings (R7–R11) allow ${r.readings} for the call as built`,
      };
    }
    const what =
      r.outcome.kind === 'response'
        ? `${HANDLING_TITLES[r.handling]}: status ${r.outcome.status}` +
          `${r.outcome.location !== undefined ? `, Location ${JSON.stringify(clip(r.outcome.location, 120))}` : ''}` +
          `${r.outcome.body ? `, body ${JSON.stringify(clip(r.outcome.body, 120))}` : ''}`
        : `${HANDLING_TITLES[r.handling]}: ${r.outcome.message}`;
    // advisory: any answer is reported, never failed; no answer at all is not a pass (nothing was judged)
    const answered = r.outcome.kind === 'response';
    if (expectation === 'advisory')
      return answered
        ? {
            op,
            status: 'pass',
            expected,
            got,
            ...(r.handling === 'accepted' || r.handling === 'refused' ? { choice: r.handling } : {}),
            message: `advisory: ${what}`,
          }
        : { op, status: 'error', expected, got, sent, message: `advisory, but no answer to report: ${what}` };
    // a timeout, a reset, nothing listening is no answer: an error of the case, never a refusal
    if (r.outcome.kind !== 'response') {
      const whatWasExpected =
        expectation === 'accept'
          ? mustAccept(r.accepting)
          : expectation === 'refuse'
            ? 'must be refused'
            : 'must be accepted or refused';
      return { op, status: 'error', expected, got, sent, message: `${what}; ${whatWasExpected}` };
    }
    // R16: a 5xx counts as a refusal (an advisory where a refusal is allowed, a failure for a genuine call)
    const j = judgeAnswer(
      expectation === 'acceptable' ? 'either' : expectation,
      r.outcome.status,
      r.handling === 'accepted',
    );
    const advisory = j.advisory ? { advisory: j.advisory } : {};
    const said = j.advisory ? `; ${j.advisory}` : '';
    if (expectation === 'acceptable')
      return {
        op,
        status: 'pass',
        expected,
        got,
        choice: j.counted,
        ...advisory,
        message: `${what} (either is acceptable; the merchant ${j.counted} it${said})`,
      };
    if (j.ok) return { op, status: 'pass', expected, got, ...advisory, message: `${what}${said}` };
    const whatIsRequired =
      expectation === 'accept'
        ? `${mustAccept(r.accepting)}${j.serverError ? ` — ${j.problem ?? ''}` : ''}`
        : `must be refused (accepted means ${r.accepting})`;
    return { op, status: 'fail', expected, got, sent, message: `${what}; ${whatIsRequired}` };
  },
});

/**
 * What a merchant case expects the merchant to do.
 * @param c - the case
 * @returns accept, refuse, acceptable (either answer, the choice recorded) or advisory (any answer, reported)
 * @example expectationOf({ result: 'invalid' }) // 'refuse'
 */
export function expectationOf(c: Pick<MerchantCase, 'result' | 'advisory'>): MerchantExpectation {
  if (c.advisory) return 'advisory';
  return c.result === 'valid' ? 'accept' : c.result === 'invalid' ? 'refuse' : 'acceptable';
}

/** What a merchant case expects: the certification's words (accept, refuse, acceptable, advisory). */
export type MerchantExpectation = 'accept' | 'refuse' | 'acceptable' | 'advisory';

// --- internal ---

/** A step's `expected` in results.json, unchanged since it was first written (a contract): see CONTRIBUTING's Words. */
const EXPECTED_IN_RESULTS: Readonly<Record<MerchantExpectation, string>> = {
  accept: 'accept',
  refuse: 'refuse',
  acceptable: 'either',
  advisory: 'anything',
};

/**
 * The call as sent, and what its signature covers (part 4, part 7, the content with the secret
 * masked), as `pgv2kit explain` shows them: the report of a failing case shows it.
 */
function sentOf(call: HttpCall): Json {
  const { signed, ...http } = call;
  const shown: { [key: string]: Json } = { method: http.method, url: http.url };
  if (http.headers.length) shown.headers = http.headers.map(([n, v]) => `${n}: ${v}`);
  if (http.body !== undefined) shown.body = http.body;
  if (signed) {
    shown[http.method === 'GET' ? 'returnUrl' : 'notifyUrl'] = signed.registered;
    shown.signed = { part4: signed.url, part7: signed.body, content: signed.content };
  }
  return shown;
}

function mustAccept(accepting: string): string {
  return `must be accepted (${accepting})`;
}
