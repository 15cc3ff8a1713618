/**
 * What the readings allow a merchant to do with a merchant-role call, computed with the
 * same judgement every verify vector is held to ({@link verifyAnswers}: every parse of the
 * header R8 allows, R7's hex case, R9–R11's parts). Merchant cases state their intent
 * (valid, invalid, acceptable); the merchant check holds each one to this, so a case that
 * contradicts the readings is reported as the kit bug it is, never judged.
 * @module
 */
import { redirectValues } from '../../../scheme/redirect.js';
import { verifyAnswers, type VerifyAnswers } from '../../../scheme/verify-answers.js';
import { httpFieldValue } from '../../../scheme/field-value.js';
import type { HttpCall, MerchantTarget } from './target.js';

/** What the readings allow: accept only, refuse only, or either. */
export type ReadingsExpectation = 'accept' | 'refuse' | 'acceptable';

/**
 * The expectation the readings give a webhook or return-redirect call.
 * @param call - the call as sent (a POST is a webhook, a GET a redirect)
 * @param target - the merchant's credentials and registered URLs
 * @returns accept, refuse or acceptable
 * @example
 * import { createCallBuilder } from './call.js';
 * const { call } = createCallBuilder({ appId, appSecret, notifyUrl, returnUrl }, 1, Date.now()).build(
 *   vectorCase('merchant.webhook.valid.1'),
 * );
 * readingsExpectation(call, { appId, appSecret, notifyUrl, returnUrl }) // 'accept'
 */
export function readingsExpectation(
  call: HttpCall,
  target: Pick<MerchantTarget, 'appId' | 'appSecret' | 'notifyUrl' | 'returnUrl'>,
): ReadingsExpectation {
  const { appId, appSecret } = target;
  let answers: VerifyAnswers;
  if (call.method === 'POST') {
    const header = call.headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    // an HTTP header: SP and HTAB around its value are not part of it (RFC 9110 §5.5)
    answers = verifyAnswers(
      { appId, appSecret, method: 'POST', url: target.notifyUrl, body: call.body ?? '' },
      header === undefined ? header : httpFieldValue(header),
    );
  } else {
    const values = redirectValues(call.url);
    answers =
      'problem' in values
        ? { mayAccept: false, mayRefuse: true }
        : verifyAnswers(
            { appId, appSecret, method: 'GET', url: target.returnUrl, body: `payment=${values.payment}` },
            values.authorization,
          );
  }
  if (!answers.mayAccept) return 'refuse';
  return answers.mayRefuse ? 'acceptable' : 'accept';
}
