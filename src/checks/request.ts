/**
 * Request cases (spec 5.1–5.3): the gateway's verification of a signed request.
 * @module
 */
import { toBase64 } from '../scheme/bytes.js';
import { bodyBytes } from '../vectors/fields.js';
import { callOp, defineCheck, judgeValid } from './check.js';

/** The check of request cases. */
export const requestCheck = defineCheck({
  kind: 'request',
  operations: () => ['request.verify'],
  async run(c, op, subject) {
    const { body: _b, bodyB64: _b64, ...rest } = c.inputs;
    return judgeValid(
      op,
      c.result,
      await callOp(subject, op, { ...rest, bodyB64: toBase64(bodyBytes(c.inputs)) }, c.id),
    );
  },
});
