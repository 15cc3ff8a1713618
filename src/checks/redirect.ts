/**
 * Redirect cases (spec 5.6, R11): the merchant's verification of the return redirect;
 * a redirect it accepts must also yield the decoded payment text.
 * @module
 */
import { callOp, defineCheck, judgeValid } from './check.js';

/** The check of redirect cases. */
export const redirectCheck = defineCheck({
  kind: 'redirect',
  operations: () => ['redirect.verify'],
  async run(c, op, subject) {
    const answer = await callOp(subject, op, { ...c.inputs }, c.id);
    const outcome = judgeValid(op, c.result, answer);
    const payment = c.expected.payment;
    if (outcome.status !== 'pass' || !('result' in answer) || answer.result['valid'] !== true || payment === undefined)
      return outcome;
    const got = answer.result['payment'];
    if (got === payment) return outcome;
    return {
      ...outcome,
      status: 'fail',
      message: `accepted, but payment is ${JSON.stringify(got)}, not the decoded ${JSON.stringify(payment)} (R11)`,
    };
  },
});
