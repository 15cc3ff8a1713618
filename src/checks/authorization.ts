/**
 * Authorization cases (spec 5.3, R8): parse must return the four values verbatim or
 * refuse; format must give a header that parses back to the same items.
 * @module
 */
import { ITEM_NAMES, parseAuthorization } from '../scheme/authorization.js';
import type { Json } from '../subjects/subject.js';
import { callOp, defineCheck, judge, nonResult } from './check.js';
import type { OpOutcome } from './outcome.js';

/** The check of authorization cases. */
export const authorizationCheck = defineCheck({
  kind: 'authorization',
  operations: (c) => [c.op],
  async run(c, op, subject): Promise<OpOutcome> {
    if (c.op === 'authorization.format') {
      const items = c.inputs.items;
      const expected = c.expected.header;
      const answer = await callOp(subject, op, { ...items }, c.id);
      const other = nonResult(op, expected, answer);
      if (other) return other;
      const got = answer as unknown as Json;
      const header = 'result' in answer ? answer.result['header'] : undefined;
      if (typeof header !== 'string') return { op, status: 'fail', expected, got, message: 'no header string in the answer' };
      if (header === expected) return { op, status: 'pass', expected, got, message: 'header as expected' };
      const back = parseAuthorization(header, { strict: true });
      if (!back.ok) return { op, status: 'fail', expected, got, message: `header does not follow 5.3 strictly: ${back.message}` };
      const wrong = ITEM_NAMES.find((n) => back.items[n] !== items[n]);
      if (wrong) return { op, status: 'fail', expected, got, message: `item ${wrong} is ${JSON.stringify(back.items[wrong])}, not ${JSON.stringify(items[wrong])}` };
      return { op, status: 'pass', expected, got, message: 'header carries the items in another order (5.3 allows any order)' };
    }
    const expected: Json = c.expected.items ? { ...c.expected.items } : { refuse: c.expected.problem?.kind ?? 'refuse' };
    const answer = await callOp(subject, op, { header: c.inputs.header }, c.id);
    const other = nonResult(op, expected, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if ('rejected' in answer) return judge(op, c.result, false, got, answer.rejected.reason);
    if (!('result' in answer)) return { op, status: 'error', expected, got, message: 'answer is none of result, rejected, unsupported' };
    const items = c.expected.items;
    if (items) {
      const wrong = ITEM_NAMES.find((n) => answer.result[n] !== items[n]);
      if (wrong) return { op, status: 'fail', expected, got, message: `accepted, but ${wrong} is ${JSON.stringify(answer.result[wrong])}, not ${JSON.stringify(items[wrong])}` };
    }
    return judge(op, c.result, true, got);
  },
});
