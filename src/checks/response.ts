/**
 * Response cases (spec 5.4, R9): the client's verification of a gateway response.
 * @module
 */
import { toBase64 } from '../scheme/bytes.js';
import { bodyBytes } from '../vectors/fields.js';
import { callOp, defineCheck, judgeValid } from './check.js';

/** The check of response cases. */
export const responseCheck = defineCheck({
  kind: 'response',
  operations: () => ['response.verify'],
  async run(c, op, subject) {
    const { body: _b, bodyB64: _b64, ...rest } = c.inputs;
    return judgeValid(
      op,
      c.result,
      await callOp(subject, op, { ...rest, bodyB64: toBase64(bodyBytes(c.inputs)) }, c.id),
    );
  },
});
