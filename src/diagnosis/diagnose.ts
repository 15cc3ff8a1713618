/**
 * Diagnosis: when an implementation's answer is wrong, find the known mistake that
 * reproduces it ("your sign equals the sign of the content without its final LF").
 * Signs and contents are matched against the catalogue of {@link MISTAKES}; for
 * verifiers that accept what they must refuse, the header's sign is matched the same
 * way (a verifier that accepts the sign of a mistaken content builds its content with
 * that mistake), and the refusal the case expected is named.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { parseAuthorization } from '../scheme/authorization.js';
import { bytesEqual, fromBase64 } from '../scheme/bytes.js';
import { decodeQueryComponent, queryParameters } from '../scheme/redirect.js';
import { sign } from '../scheme/sign.js';
import type { Json } from '../subjects/subject.js';
import { bodyBytes } from '../vectors/fields.js';
import type { RedirectCase, SignatureCase, VectorCase } from '../vectors/types.js';
import type { Diagnosis } from '../runner/result.js';
import { findMistakes, mistakenContents, type ByteParts, type Mistake } from './mistakes.js';

/**
 * The known mistakes that explain a failed operation.
 * @param c - the case
 * @param outcome - the operation's outcome (only `fail` outcomes are diagnosed)
 * @returns the diagnoses, most specific first; empty when nothing in the catalogue fits
 * @example diagnose(c, outcome)[0]?.message // 'your sign equals the sign of the content in which the LF after part 7 (the body) was left out'
 */
export function diagnose(c: VectorCase, outcome: OpOutcome): Diagnosis[] {
  if (outcome.status !== 'fail') return [];
  const result = resultOf(outcome.got);
  switch (c.kind) {
    case 'signature':
      return diagnoseSignature(c, outcome, result);
    case 'request':
    case 'response':
    case 'webhook':
      return accepted(result) ? diagnoseAcceptedMessage(c) : [];
    case 'redirect':
      return diagnoseRedirect(c, result);
    case 'authorization':
      return c.op === 'authorization.parse' && c.result === 'invalid' && result ? [refusalExpected(c.expected.problem?.kind ?? 'refuse', 'R8')] : [];
    case 'upload':
      return [];
  }
}

/** Titles of the refusals a verifier or parser must make, by the reference's problem kind. */
export const REFUSALS: Record<string, string> = {
  'no-authorization': 'you accept a message without Authorization',
  'malformed-authorization': 'your header parser accepts a header R8 refuses',
  'app-id-mismatch': "you do not check that the header's appId is your own (R9)",
  'malformed-sign': 'you accept a sign that is not 64 hex digits (R7)',
  'uppercase-sign': 'you accept upper-case hex (allowed by R7; only reported)',
  'sign-mismatch': 'you accept a sign that does not match the content',
  'status-not-verified': 'you accept a response whose status is not 200 as authentic (R9)',
  'redirect-parameter': 'you accept a redirect without exactly one payment and one authorization parameter (R11)',
  'redirect-encoding': 'you accept a redirect parameter that is not valid percent-encoded UTF-8 (R11)',
  'empty-header': 'your parser accepts an empty header (R8)',
  'wrong-scheme': 'your parser accepts another scheme than V2_SHA256 (R8)',
  'no-items': 'your parser accepts a header without items (R8)',
  'malformed-item': 'your parser accepts an item that is not name=value (R8)',
  'empty-value': 'your parser accepts an item with an empty value (R8)',
  'duplicate-item': 'your parser accepts a duplicated item instead of refusing it (R8)',
  'missing-item': 'your parser accepts a header with an item missing (R8)',
};

// --- internal ---

function diagnoseSignature(c: SignatureCase, outcome: OpOutcome, result: Record<string, Json> | undefined): Diagnosis[] {
  const parts = partsOf(c);
  if (outcome.op === 'signature.sign') {
    const got = result?.['sign'];
    if (typeof got !== 'string') return [];
    if (got !== c.expected.sign && got.toLowerCase() === c.expected.sign) {
      return [{ mistake: 'uppercase-hex', message: 'your sign is the right digest in upper-case hex: signers emit lower case (5.2, R7)', ref: '5.2, R7' }];
    }
    return findMistakes(parts, got).map((m) => ofMistake(m, 'your sign equals the sign of the content in which'));
  }
  if (outcome.op === 'signature.content') {
    const got = result?.['contentB64'];
    if (typeof got !== 'string') return [];
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(got);
    } catch {
      return [];
    }
    return mistakenContents(parts)
      .filter(({ content }) => bytesEqual(content, bytes))
      .map(({ mistake }) => ofMistake(mistake, 'your content is the content in which'));
  }
  if (outcome.op === 'request.verify' && accepted(result) && c.candidate) {
    return findMistakes(parts, c.candidate.sign).map((m) => ofMistake(m, 'you accept the sign of the content in which'));
  }
  return [];
}

function diagnoseAcceptedMessage(c: Extract<VectorCase, { kind: 'request' | 'response' | 'webhook' }>): Diagnosis[] {
  const kind = c.expected.problem?.kind;
  const out: Diagnosis[] = [];
  const header = c.inputs.authorization;
  const parsed = header ? parseAuthorization(header) : undefined;
  if (kind === 'sign-mismatch' && parsed?.ok) {
    const { timestamp, nonce, sign: headerSign } = parsed.items;
    const url = c.kind === 'webhook' ? c.inputs.notifyUrl : c.inputs.url;
    const parts: ByteParts = { appId: c.inputs.appId, appSecret: c.inputs.appSecret, method: c.inputs.method, url, timestamp, nonce, body: bodyBytes(c.inputs) };
    if (c.kind === 'webhook' && c.inputs.deliveryUrl && sign({ ...parts, url: c.inputs.deliveryUrl }) === headerSign.toLowerCase()) {
      out.push({ mistake: 'delivery-url', message: 'you verify over the URL the call arrived on, not the notifyUrl as submitted (5.5, R10)', ref: '5.5, R10' });
    }
    out.push(...findMistakes(parts, headerSign).map((m) => ofMistake(m, 'you accept the sign of the content in which')));
  }
  if (kind && REFUSALS[kind] && out.length === 0) out.push(refusalExpected(kind, refOf(c)));
  return out;
}

function diagnoseRedirect(c: RedirectCase, result: Record<string, Json> | undefined): Diagnosis[] {
  if (!result) return [];
  const params = queryParameters(c.inputs.redirectUrl);
  const rawPayment = params.find(([n]) => n === 'payment')?.[1];
  if (c.result !== 'invalid' && result['valid'] === true && rawPayment !== undefined) {
    const got = result['payment'];
    if (got === rawPayment) return [{ mistake: 'payment-not-decoded', message: 'your payment is the value still query-encoded: decode it (percent-decoding as UTF-8, "+" as space) (R11)', ref: 'R11' }];
    if (typeof got === 'string' && got.replace(/\+/g, ' ') === c.expected.payment) {
      return [{ mistake: 'plus-not-space', message: 'your payment keeps "+" where the query means a space (R11)', ref: 'R11' }];
    }
    return [];
  }
  if (c.result !== 'invalid' || result['valid'] !== true) return [];
  const auth = params.find(([n]) => n === 'authorization')?.[1];
  const parsed = auth ? parseAuthorization(decode(auth)) : undefined;
  const kind = c.expected.problem?.kind;
  if (kind !== 'sign-mismatch' || !parsed?.ok || rawPayment === undefined) return kind && REFUSALS[kind] ? [refusalExpected(kind, 'R11')] : [];
  const { timestamp, nonce, sign: headerSign } = parsed.items;
  const base = { appId: c.inputs.appId, appSecret: c.inputs.appSecret, method: 'GET', url: c.inputs.returnUrl, timestamp, nonce, body: `payment=${decode(rawPayment)}` };
  const wanted = headerSign.toLowerCase();
  const variants: Array<[string, string, object]> = [
    ['payment-encoded', 'you verify over the payment value still query-encoded, not the decoded value (R11)', { body: `payment=${rawPayment}` }],
    ['landed-url', 'you verify over the URL the payer landed on, not the returnUrl as submitted (5.6, R11)', { url: c.inputs.redirectUrl.split('#')[0] }],
    ['returnurl-without-query', 'you verify over the returnUrl without its own query (R11)', { url: c.inputs.returnUrl.split('?')[0] }],
    ['redirect-method', 'you verify with another method than GET (R11)', { method: 'POST' }],
  ];
  const found = variants.filter(([, , change]) => sign({ ...base, ...change }) === wanted).map(([mistake, message]) => ({ mistake, message, ref: 'R11' }));
  return found.length > 0 ? found : [refusalExpected(kind, 'R11')];
}

function partsOf(c: SignatureCase): ByteParts {
  const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
  return { appId, appSecret, method, url, timestamp, nonce, body: bodyBytes(c.inputs) };
}

function resultOf(got: Json): Record<string, Json> | undefined {
  if (typeof got !== 'object' || got === null || Array.isArray(got)) return undefined;
  const r = got['result'];
  return typeof r === 'object' && r !== null && !Array.isArray(r) ? r : undefined;
}

function accepted(result: Record<string, Json> | undefined): boolean {
  return result !== undefined && (result['valid'] === true || result['valid'] === undefined);
}

function ofMistake(m: Mistake, lead: string): Diagnosis {
  return { mistake: m.id, message: `${lead} ${m.description}`, ref: m.ref };
}

function refusalExpected(kind: string, ref: string): Diagnosis {
  return { mistake: `accepts-${kind}`, message: REFUSALS[kind] ?? `you accept what must be refused (${kind})`, ref };
}

function refOf(c: VectorCase): string {
  return c.readings.join(', ') || c.spec.join(', ');
}

function decode(raw: string): string {
  return decodeQueryComponent(raw) ?? raw;
}
