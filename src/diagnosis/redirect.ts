/**
 * Diagnosis of return-redirect verifiers (§5.6, R11). An accepted genuine redirect whose
 * payment text is wrong: the payment left encoded or decoded with decodeURIComponent
 * alone. An accepted invalid redirect: the sign is matched against the contents a
 * verifier builds with one known redirect mistake (the payment still encoded, "+" kept
 * in the payment or the nonce, the landed URL, the whole query decoded before it was
 * split, the payment decoded twice, the returnUrl without its query, POST);
 * a header R8 refuses is named; otherwise the refusal the case expected.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { parseAuthorization } from '../scheme/authorization.js';
import type { SignatureParts } from '../scheme/parts.js';
import { decodeQueryComponent, queryParameters } from '../scheme/redirect.js';
import { utf8 } from '../scheme/bytes.js';
import { sign } from '../scheme/sign.js';
import type { Diagnosis } from './diagnosis.js';
import type { RedirectCase } from '../vectors/types.js';
import { decode, decodeUriOnly, refOf, refusalExpected, resultOf, type ResultObject } from './common.js';
import { differingMistakes, type MISTAKES } from './mistakes.js';
import { REFUSALS } from './refusals.js';

/**
 * The mistakes a redirect verifier can build its content with, each "in which …".
 * @example REDIRECT_MISTAKES['payment-plus-kept'].ref // 'R11'
 */
export const REDIRECT_MISTAKES = Object.freeze({
  'payment-encoded': { ref: 'R11', description: 'the payment value is still query-encoded, not decoded' },
  'payment-plus-kept': {
    ref: 'R11',
    description:
      'the payment value was decoded with decodeURIComponent alone: "+" stays "+" where the query means a space',
  },
  'authorization-plus-kept': {
    ref: 'R6, R11',
    description:
      'the authorization value was decoded with decodeURIComponent ' +
      'alone: the nonce keeps "+" where the query means a space',
  },
  'landed-url': {
    ref: '§5.6, R11',
    description:
      'part 4 is the URL the payer landed on (its authorization parameter taken out), not the returnUrl as submitted',
  },
  'query-decoded-whole': {
    ref: 'R11',
    description:
      'the whole query was decoded before it was split at "&": an encoded "&" in the payment value cut it short',
  },
  'payment-decoded-twice': {
    ref: 'R11',
    description: 'the payment value was decoded twice: a "%" or "+" it holds was decoded again',
  },
  'returnurl-without-query': { ref: 'R11', description: 'part 4 is the returnUrl without its own query' },
  'redirect-method': { ref: 'R11', description: 'part 3 is POST, not GET' },
}) satisfies Readonly<Record<string, { readonly ref: string; readonly description: string }>>;

/** A mistake of {@link REDIRECT_MISTAKES}. */
export type RedirectMistake = keyof typeof REDIRECT_MISTAKES;

/**
 * The known mistakes that explain a failed redirect verification.
 * @param c - the case
 * @param outcome - the failed operation's outcome
 * @returns the diagnoses; empty when the verifier refused (one bit) or nothing fits
 */
export function diagnoseRedirect(c: RedirectCase, outcome: OpOutcome): Diagnosis[] {
  const result = resultOf(outcome.got);
  if (result?.['valid'] !== true) return [];
  const params = queryParameters(c.inputs.redirectUrl);
  const rawPayment = params.find(([n]) => n === 'payment')?.[1];
  if (c.result !== 'invalid') return returnedPayment(c, result, rawPayment);
  const problem = c.expected.problem;
  const rawAuthorization = params.find(([n]) => n === 'authorization')?.[1];
  if (problem?.kind === 'sign-mismatch' && rawPayment !== undefined && rawAuthorization !== undefined) {
    const found = signedOverMistake(c, rawPayment, rawAuthorization);
    if (found.length > 0) return found;
  }
  if (problem?.kind === 'malformed-authorization' && problem.header !== undefined && REFUSALS[problem.header]) {
    return [refusalExpected(problem.header, '§5.3, R8')];
  }
  return problem && REFUSALS[problem.kind] ? [refusalExpected(problem.kind, refOf(c))] : [];
}

// --- internal ---

function returnedPayment(c: RedirectCase, result: ResultObject, rawPayment: string | undefined): Diagnosis[] {
  const got = result['payment'];
  if (rawPayment === undefined || typeof got !== 'string' || got === c.expected.payment) return [];
  if (got === rawPayment) {
    return [
      {
        mistake: 'payment-not-decoded',
        message:
          'your payment is the query value as it stands, in which ' +
          'nothing was decoded (percent-decoding as UTF-8, "+" as space)',
        ref: 'R11',
      },
    ];
  }
  if (got === decodeUriOnly(rawPayment)) {
    return [
      {
        mistake: 'plus-not-space',
        message:
          'your payment is the value decoded with decodeURIComponent ' +
          'alone, in which "+" stays "+" where the query means a space',
        ref: 'R11',
      },
    ];
  }
  return [];
}

function signedOverMistake(c: RedirectCase, rawPayment: string, rawAuthorization: string): Diagnosis[] {
  const built = variantsOf(c, rawPayment, rawAuthorization);
  if (!built) return [];
  const { base, headerSign, variants, plusBoth } = built;
  const wanted = headerSign.toLowerCase();
  const baseSign = sign(base);
  const matches = (change: Partial<SignatureParts> | 'refused'): boolean => {
    if (change === 'refused') return false;
    const s = sign({ ...base, ...change });
    return s !== baseSign && s === wanted;
  };
  let found = variants.filter(([, change]) => matches(change)).flatMap(([ids]) => ids);
  // a verifier that decodes both values with decodeURIComponent alone
  if (found.length === 0 && matches(plusBoth)) found = ['payment-plus-kept', 'authorization-plus-kept'];
  return found.map((id) => ({
    mistake: id,
    message: `you accept the sign of the content in which ${REDIRECT_MISTAKES[id].description}`,
    ref: REDIRECT_MISTAKES[id].ref,
  }));
}

/**
 * The mistakes that would make a verifier refuse this genuine redirect: the signer mistakes
 * and the redirect mistakes whose content differs from the right one for it, or whose
 * reading of the query fails.
 * @param c - a redirect case
 * @returns mistake ids (of {@link MISTAKES} and {@link REDIRECT_MISTAKES}); empty when the redirect has no single
 * payment and authorization
 * @example
 * redirectRefusalCauses(
 *   vectorCase('redirect.payment-spaces-plus'),
 * ) // e.g. ['payment-encoded', 'landed-url', 'redirect-method', …]
 */
export function redirectRefusalCauses(c: RedirectCase): string[] {
  const params = queryParameters(c.inputs.redirectUrl);
  const only = (name: string): string | undefined =>
    params.filter(([n]) => n === name).length === 1 ? params.find(([n]) => n === name)?.[1] : undefined;
  const [rawPayment, rawAuthorization] = [only('payment'), only('authorization')];
  const built =
    rawPayment === undefined || rawAuthorization === undefined
      ? undefined
      : variantsOf(c, rawPayment, rawAuthorization);
  if (!built) return [];
  const baseSign = sign(built.base);
  const own = built.variants
    .filter(([, change]) => change === 'refused' || sign({ ...built.base, ...change }) !== baseSign)
    .flatMap(([ids]) => ids);
  return [...differingMistakes({ ...built.base, body: utf8(built.base.body) }).map((m) => m.id), ...own];
}

/**
 * The right parts of a redirect, its header's sign, and the change each known redirect mistake makes to them
 * ('refused': its reading of the query fails).
 */
function variantsOf(
  c: RedirectCase,
  rawPayment: string,
  rawAuthorization: string,
):
  | {
      base: SignatureParts;
      headerSign: string;
      variants: Array<[readonly RedirectMistake[], Partial<SignatureParts> | 'refused']>;
      plusBoth: Partial<SignatureParts>;
    }
  | undefined {
  const parsed = parseAuthorization(decode(rawAuthorization));
  if (!parsed.ok) return undefined;
  const { timestamp, nonce, sign: headerSign } = parsed.items;
  const base: SignatureParts = {
    appId: c.inputs.appId,
    appSecret: c.inputs.appSecret,
    method: 'GET',
    url: c.inputs.returnUrl,
    timestamp,
    nonce,
    body: `payment=${decode(rawPayment)}`,
  };
  const plusPayment = { body: `payment=${decodeUriOnly(rawPayment)}` };
  const plusAuthorization = parseAuthorization(decodeUriOnly(rawAuthorization));
  const plusNonce = plusAuthorization.ok
    ? { timestamp: plusAuthorization.items.timestamp, nonce: plusAuthorization.items.nonce }
    : {};
  const variants: Array<[readonly RedirectMistake[], Partial<SignatureParts> | 'refused']> = [
    [['payment-encoded'], { body: `payment=${rawPayment}` }],
    [['payment-plus-kept'], plusPayment],
    [['authorization-plus-kept'], plusNonce],
    [['landed-url'], { url: withoutAuthorization(c.inputs.redirectUrl) }],
    [['query-decoded-whole'], payment(wholeQueryValue(c.inputs.redirectUrl, 'payment'))],
    [['payment-decoded-twice'], payment(decodeQueryComponent(decode(rawPayment)))],
    [['returnurl-without-query'], { url: c.inputs.returnUrl.split('?')[0] }],
    [['redirect-method'], { method: 'POST' }],
  ];
  return { base, headerSign, variants, plusBoth: { ...plusPayment, ...plusNonce } };
}

/**
 * The URL the payer landed on as a verifier reads its own request: the fragment never sent, the authorization parameter
 * (which cannot sign itself) taken out.
 */
function withoutAuthorization(redirectUrl: string): string {
  return (redirectUrl.split('#')[0] ?? redirectUrl).replace(
    /([?&])authorization=[^&]*(&|$)/,
    (_, before: string, after: string) => (after ? before : ''),
  );
}

/**
 * A parameter's value as read by a verifier that decodes the whole query (R11 decoding) and then splits it at "&" and
 * the first "=".
 */
function wholeQueryValue(redirectUrl: string, name: string): string | undefined {
  const noFragment = redirectUrl.split('#')[0] ?? redirectUrl;
  const q = noFragment.indexOf('?');
  const decoded = q < 0 ? undefined : decodeQueryComponent(noFragment.slice(q + 1));
  const found = (decoded ?? '').split('&').filter((pair) => pair.slice(0, pair.indexOf('=') + 1) === `${name}=`);
  return decoded === undefined || found.length !== 1 ? undefined : found[0]?.slice(name.length + 1);
}

/** Part 7 of a payment text; 'refused' when the mistaken reading gives none (the verifier refuses). */
function payment(text: string | undefined): Partial<SignatureParts> | 'refused' {
  return text === undefined ? 'refused' : { body: `payment=${text}` };
}
