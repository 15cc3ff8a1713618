/**
 * Webhook cases (spec 5.5, R10): the merchant's verification of a webhook call.
 * The delivery URL is informational and is not sent to the subject.
 * @module
 */
import { toBase64 } from '../scheme/bytes.js';
import { bodyBytes } from '../vectors/fields.js';
import { callOp, defineCheck, judgeValid } from './check.js';

/** The check of webhook cases. */
export const webhookCheck = defineCheck({
  kind: 'webhook',
  operations: () => ['webhook.verify'],
  async run(c, op, subject) {
    const { body: _b, bodyB64: _b64, deliveryUrl: _d, ...rest } = c.inputs;
    return judgeValid(
      op,
      c.result,
      await callOp(subject, op, { ...rest, bodyB64: toBase64(bodyBytes(c.inputs)) }, c.id),
    );
  },
});
