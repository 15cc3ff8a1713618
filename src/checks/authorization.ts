/**
 * Authorization cases (spec 5.3, R8): parse must give one of the answers R8 allows for the
 * header (a refusal, or one of the accepted sets of values — the case lists them); format must
 * give a header that parses back to the same items.
 * @module
 */
import { ITEM_NAMES, parseAuthorization } from '../scheme/authorization.js';
import { judgeParserAnswer, parserAnswer, type HeaderAnswers } from '../scheme/header-answers.js';
import type { Json } from '../subjects/subject.js';
import type { AuthorizationCase } from '../vectors/types.js';
import { callOp, defineCheck, nonResult } from './check.js';
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
      if (typeof header !== 'string')
        return { op, status: 'fail', expected, got, message: 'no header string in the answer' };
      if (header === expected) return { op, status: 'pass', expected, got, message: 'header as expected' };
      const back = parseAuthorization(header, { strict: true });
      if (!back.ok)
        return { op, status: 'fail', expected, got, message: `header does not follow 5.3 strictly: ${back.message}` };
      const wrong = ITEM_NAMES.find((n) => back.items[n] !== items[n]);
      if (wrong)
        return {
          op,
          status: 'fail',
          expected,
          got,
          message: `item ${wrong} is ${JSON.stringify(back.items[wrong])}, not ${JSON.stringify(items[wrong])}`,
        };
      return {
        op,
        status: 'pass',
        expected,
        got,
        message: 'header carries the items in another order (5.3 allows any order)',
      };
    }
    const allowed = caseAnswers(c);
    const expected: Json =
      c.result === 'invalid'
        ? { refuse: c.expected.problem?.kind ?? 'refuse' }
        : c.result === 'valid'
          ? { ...allowed.accepted[0] }
          : { either: allowed.accepted.map((a) => ({ ...a })) };
    const answer = await callOp(subject, op, { header: c.inputs.header }, c.id);
    const other = nonResult(op, expected, answer);
    if (other) return other;
    const got = answer as unknown as Json;
    if (!('rejected' in answer) && !('result' in answer))
      return { op, status: 'error', expected, got, message: 'answer is none of result, rejected, unsupported' };
    const judged = judgeParserAnswer(allowed, parserAnswer(answer));
    if (!judged.ok) return { op, status: 'fail', expected, got, message: judged.reason };
    const did =
      judged.choice === 'refused'
        ? `refused${'rejected' in answer ? ` (${answer.rejected.reason})` : ''}`
        : 'accepted with values R8 allows';
    if (c.result === 'acceptable')
      return {
        op,
        status: 'pass',
        expected,
        got,
        choice: judged.choice,
        message: `acceptable case: the implementation ${did}`,
      };
    return { op, status: 'pass', expected, got, message: `${did}, as expected` };
  },
});

/**
 * The answers an authorization.parse case allows, as the case states them.
 * @param c - an authorization.parse case
 * @returns valid: its one answer; invalid: a refusal only; acceptable: a refusal or any listed answer
 * @example caseAnswers(vectorCase('authorization.missing-appid')).refusable
 */
export function caseAnswers(c: Extract<AuthorizationCase, { op: 'authorization.parse' }>): HeaderAnswers {
  const strict = parseAuthorization(c.inputs.header, { strict: true });
  const { items, answers } = c.expected;
  if (c.result === 'invalid') return { refusable: true, accepted: [], strict };
  const accepted = answers ?? (items ? [items] : []);
  return { refusable: c.result === 'acceptable', accepted: accepted.map((a) => ({ ...a })), strict };
}
