/**
 * The merchant role's subject: a merchant's notify and return endpoints under test, the
 * kit playing the gateway (`pgv2kit run --merchant`, `pgv2kit certify`). Each operation
 * builds the call of its case (src/roles/merchant/as-gateway/call.ts: signed correctly, then changed as the
 * case states), sends it exactly as built — one call at a time per case, a timeout per call,
 * redirects never followed — and answers with the call, what came back, what the merchant did
 * with it, and what the readings allow, for the merchant check (src/roles/merchant/check.ts).
 * @module
 */
import { createCallBuilder, type HttpCall, type MerchantTarget } from './as-gateway/call.js';
import { acceptanceWords, endpointOf, type AcceptanceRule } from './as-gateway/acceptance.js';
import { handlingOf, type Handling } from './as-gateway/handling.js';
import type { ReadingsExpectation } from './as-gateway/expectation.js';
import { createSender, type SendOutcome } from './as-gateway/send.js';
import type { MerchantInputs } from '../../vectors/types.js';
import type { Answer, Json, Subject, TargetNaming } from '../../subjects/subject.js';
import { httpImplementation } from '../../subjects/http-implementation.js';

/**
 * The merchant under test, how the run talks to it and how reports name it (default: `merchant <host of the
 * notifyUrl>`, no version).
 */
export interface MerchantSubjectOptions extends MerchantTarget, TargetNaming, AcceptanceRule {
  /** Seeds the payloads and nonces of every call (with the case id). */
  readonly seed: number;
  /** Limit for one call, connection to last body byte (default 5000). */
  readonly timeoutMs?: number;
  /** The clock put in the timestamps, read once when the subject is created (default Date.now). */
  readonly now?: () => number;
}

/** The answer of a merchant operation (`result`). */
export interface MerchantAnswer {
  readonly call: HttpCall;
  readonly outcome: SendOutcome;
  readonly handling: Handling;
  /** What the readings allow a merchant to do with the call. */
  readonly readings: ReadingsExpectation;
  /** What counts as acceptance at the endpoint called, in words (e.g. `a 2xx with body "SUCCESS"`). */
  readonly accepting: string;
}

/**
 * Creates the subject for a merchant.
 * @param options - credentials, registered and delivery URLs, seed, timeout, what counts as acceptance per endpoint
 * @returns a subject offering merchant.webhook and merchant.redirect; close() releases its connections
 * @example const subject = createMerchantSubject({ appId, appSecret, notifyUrl, returnUrl, seed: 1 });
 */
export function createMerchantSubject(options: MerchantSubjectOptions): Subject {
  const builder = createCallBuilder(options, options.seed, (options.now ?? Date.now)());
  const sender = createSender(options.timeoutMs ?? 5000);
  return {
    implementation: httpImplementation('merchant', options.notifyUrl, options),
    operations: ['merchant.webhook', 'merchant.redirect'],
    async call(op, input, caseId): Promise<Answer> {
      if (op !== 'merchant.webhook' && op !== 'merchant.redirect')
        return { unsupported: { reason: `${op} is not a merchant operation` } };
      const built = builder.build({ id: caseId, op, inputs: input as MerchantInputs });
      if ('notApplicable' in built) return { unsupported: { reason: `not applicable: ${built.notApplicable}` } };
      const outcome = await sender.send(built.call);
      const endpoint = endpointOf(op);
      const answer: MerchantAnswer = {
        call: built.call,
        outcome,
        handling: handlingOf(outcome, endpoint, options, options.returnUrl),
        readings: built.readings,
        accepting: acceptanceWords(endpoint, options),
      };
      return { result: answer as unknown as { [key: string]: Json } };
    },
    close: () => sender.close(),
  };
}
