/**
 * Diagnosis of verifiers of signed messages (requests, responses, webhooks; §5.3–§5.5)
 * that accept what they must refuse. For a sign made over another content, the header's
 * sign is matched against the contents of the known mistakes (a verifier that accepts
 * it builds its content with that mistake); for a header R8 refuses, the header
 * problem is named; otherwise the refusal the case expected.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { parseAuthorization } from '../scheme/authorization.js';
import { sign } from '../scheme/sign.js';
import type { Diagnosis } from './diagnosis.js';
import { bodyBytes } from '../vectors/fields.js';
import type { RequestCase, ResponseCase, WebhookCase } from '../vectors/types.js';
import { accepted, ofMistake, refOf, refusalExpected, resultOf } from './common.js';
import { findMistakes, type ByteParts } from './mistakes.js';
import { REFUSALS } from './refusals.js';

/** A case of a signed message a verifier checks. */
export type MessageCase = RequestCase | ResponseCase | WebhookCase;

/**
 * Why a verifier accepted a message the case expected it to refuse.
 * @param c - the case
 * @param outcome - the failed operation's outcome
 * @returns the diagnoses, most specific first; empty when the verifier refused (a
 *   refusal of a valid message is one bit, nothing to diagnose)
 */
export function diagnoseMessage(c: MessageCase, outcome: OpOutcome): Diagnosis[] {
  if (!accepted(resultOf(outcome.got))) return [];
  const problem = c.expected.problem;
  if (problem?.kind === 'sign-mismatch' || problem?.kind === 'malformed-sign') {
    const found = signedOverMistake(c);
    if (found.length > 0) return found;
  }
  if (problem?.kind === 'malformed-authorization' && problem.header !== undefined && REFUSALS[problem.header]) {
    return [refusalExpected(problem.header, '§5.3, R8')];
  }
  return problem && REFUSALS[problem.kind] ? [refusalExpected(problem.kind, refOf(c))] : [];
}

// --- internal ---

function signedOverMistake(c: MessageCase): Diagnosis[] {
  // read as leniently as R8 lets a parser (empty elements ignored, names folded): the sign is what is diagnosed
  const parsed = c.inputs.authorization
    ? parseAuthorization(c.inputs.authorization, { ignoreEmpty: true, foldNames: true })
    : undefined;
  if (!parsed?.ok) return [];
  const { timestamp, nonce, sign: headerSign } = parsed.items;
  const url = c.kind === 'webhook' ? c.inputs.notifyUrl : c.inputs.url;
  const parts: ByteParts = {
    appId: c.inputs.appId,
    appSecret: c.inputs.appSecret,
    method: c.inputs.method,
    url,
    timestamp,
    nonce,
    body: bodyBytes(c.inputs),
  };
  const out: Diagnosis[] = [];
  const rightSign = sign(parts);
  const got = headerSign.toLowerCase();
  // the right sign cut short, or with digits added: compared over the length of one of the two (strncasecmp,
  // startsWith)
  if (got !== rightSign && (rightSign.startsWith(got) || got.startsWith(rightSign))) {
    const accepted =
      got.length < 64 ? `the first ${got.length} digits of the right sign` : 'the right sign with digits added';
    out.push({
      mistake: 'sign-compared-as-prefix',
      message:
        `you accept ${accepted}: the sign is compared over the length of one of the two, ` +
        'not as 64 digits (§5.2, R7)',
      ref: '§5.2, R7',
    });
  }
  if (
    c.kind === 'webhook' &&
    c.inputs.deliveryUrl &&
    sign({ ...parts, url: c.inputs.deliveryUrl }) === headerSign.toLowerCase()
  ) {
    out.push({
      mistake: 'delivery-url',
      message:
        'you accept the sign of the content in which part 4 is the ' +
        'URL the call arrived on, not the notifyUrl as submitted',
      ref: '§5.5, R10',
    });
  }
  out.push(...findMistakes(parts, headerSign).map((m) => ofMistake(m, 'you accept')));
  return out;
}
