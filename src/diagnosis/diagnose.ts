/**
 * Diagnosis: when an implementation's answer is wrong, find the known mistake that
 * reproduces it ("your sign equals the sign of the content in which the LF after part 7
 * (the body) was left out"). Each vector kind has its area:
 *
 * - signature cases (./signature.ts): signs and contents against the catalogue of
 *   {@link MISTAKES}, a verifier's acceptance against the candidate's mistake;
 * - request, response, webhook cases (./message.ts) and redirects (./redirect.ts): the
 *   sign a verifier accepted against the contents of known mistakes, the header problem
 *   or the refusal the case expected;
 * - authorization cases (./authorization.ts): the refusal a parser missed, or the wrong
 *   parser whose values it returned;
 * - upload cases (./upload.ts): the form as the upload address checks it; lengths
 *   counted in UTF-16 units.
 *
 * A refusal of a valid case is one bit and is not diagnosed, except where the case
 * itself says what a refusal means (the UTF-16 length of an upload request).
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import type { Diagnosis } from './diagnosis.js';
import type { VectorCase } from '../vectors/types.js';
import { diagnoseAuthorization } from './authorization.js';
import { diagnoseMerchant } from './merchant.js';
import { diagnoseMessage } from './message.js';
import type { MISTAKES } from './mistakes.js';
import { diagnoseRedirect } from './redirect.js';
import { diagnoseSignature } from './signature.js';
import { diagnoseUpload } from './upload.js';

export { REFUSALS } from './refusals.js';

/**
 * The known mistakes that explain a failed operation.
 * @param c - the case
 * @param outcome - the operation's outcome (only `fail` outcomes are diagnosed)
 * @returns the diagnoses, most specific first; empty when nothing in the catalogue fits
 */
export async function diagnose(c: VectorCase, outcome: OpOutcome): Promise<Diagnosis[]> {
  if (outcome.status !== 'fail') return [];
  switch (c.kind) {
    case 'signature':
      return diagnoseSignature(c, outcome);
    case 'request':
    case 'response':
    case 'webhook':
      return diagnoseMessage(c, outcome);
    case 'redirect':
      return diagnoseRedirect(c, outcome);
    case 'authorization':
      return diagnoseAuthorization(c, outcome);
    case 'upload':
      return diagnoseUpload(c, outcome);
    case 'merchant':
      // a forged call the merchant accepted, by the forgery (the run's pattern decides: merchantPattern)
      return diagnoseMerchant(c, outcome);
    case 'client':
    case 'gateway':
      // the gateway's record (client role) or the server's answer (gateway role) is in the message
      return [];
  }
}
