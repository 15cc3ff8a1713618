/**
 * `pgv2kit fuzz --gateway` / `--merchant-notify`: fuzzes a live endpoint's Authorization
 * handling over real HTTP. Each request is genuinely signed (spec §5.1–§5.3); the drawn
 * header is rebuilt around the real signed items, so a header R8 requires to be accepted
 * carrying exactly the signed values is a genuinely valid one and must be accepted (the
 * gateway: 200, R9; a merchant's notify endpoint: as certification reads it, any 2xx or with
 * `acceptBody` a 2xx with that body); one R8 refuses, or one whose values differ from what was
 * signed, must never be accepted; nothing
 * may hang. A 5xx counts as a refusal (R16, {@link judgeAnswer}: the rule the gateway role
 * and certification use too): counted as an advisory where a refusal is allowed, a finding
 * where the header must be accepted.
 * @module
 */
import type { AuthorizationItems } from '../scheme/authorization.js';
import { ITEM_NAMES } from '../scheme/authorization.js';
import { ClientError } from '../client/errors.js';
import { judgeAnswer, SERVER_ERROR_ADVISORY } from '../refusal.js';
import { isAccepting } from '../roles/merchant/as-gateway/acceptance.js';
import { signedRequest } from '../client/signed-request.js';
import { fuzzHeaderText, type FuzzHeader } from './arbitraries.js';
import { headerAnswers, headerVerdict } from '../scheme/header-answers.js';
import { FIELD_VALUE_RULE, httpFieldValue } from '../scheme/field-value.js';
import { oracle } from './oracle.js';
import { fuzzWith, type FuzzResult } from './run.js';

/** Options of {@link fuzzHttp}. */
export interface FuzzHttpOptions {
  /** gateway: POST <url>/pg/v2/file/generateUploadUrl; merchant: POST <url> (where webhooks are delivered). */
  readonly kind: 'gateway' | 'merchant';
  readonly url: string;
  /** merchant: the notifyUrl as the merchant registered it, signed as part 4 (R10; default: `url`). */
  readonly notifyUrl?: string;
  /**
   * merchant: an accepting answer is a 2xx with this body (`--accept-body`, as certification reads the notify
   * endpoint); default: any 2xx.
   */
  readonly acceptBody?: string;
  readonly appId: string;
  /** Never printed. */
  readonly appSecret: string;
  readonly seed?: number;
  /** Requests to try at most (default 100). */
  readonly runs?: number;
  /** Stop trying new headers after this many milliseconds. */
  readonly timeMs?: number;
  /** Replay one counterexample path (with its seed). */
  readonly path?: string;
  /** Per-request timeout in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  readonly onRun?: (runs: number) => void;
}

/** The fixed, valid body of a credentials request (generateUploadUrl). */
export const GATEWAY_FUZZ_BODY =
  '{"filename":"evidence.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
/** The fixed webhook body sent to a merchant's notify endpoint. */
export const MERCHANT_FUZZ_BODY =
  '{"paymentNo":"P_FUZZ_1","merchantTradeNo":"T_FUZZ_1","status":"SUCCESS","amount":"10.00","currency":"USD"}';

/**
 * The URL part 4 of every request signs: the gateway endpoint's, or the merchant's notifyUrl as
 * registered (R10), which is the URL webhooks are sent to unless `notifyUrl` says otherwise.
 * @param options - kind, url, notifyUrl
 * @returns the URL signed
 * @example
 * signedUrlOf({
 *   kind: 'merchant',
 *   url: 'http://127.0.0.1:8080/n',
 *   notifyUrl: 'https://shop.example/n',
 * }) // 'https://shop.example/n'
 */
export function signedUrlOf(options: Pick<FuzzHttpOptions, 'kind' | 'url' | 'notifyUrl'>): string {
  if (options.kind === 'gateway') return `${options.url.replace(/\/+$/, '')}/pg/v2/file/generateUploadUrl`;
  return options.notifyUrl ?? options.url;
}

/**
 * Fuzzes the Authorization handling of a live gateway or merchant notify endpoint.
 * @param options - {@link FuzzHttpOptions}
 * @returns the run, with the shrunk finding (as {@link fuzzParser} gives it)
 * @example
 * const r = await fuzzHttp({ kind: 'gateway', url: gateway.baseUrl, appId, appSecret, seed: 1, runs: 20 });
 * r.finding // undefined
 */
export async function fuzzHttp(
  options: FuzzHttpOptions,
): Promise<FuzzResult & { readonly advisories: HttpAdvisories }> {
  let count = 0;
  let example: string | undefined;
  const result = await fuzzWith(
    async (h) => {
      const { header, reason, advisory } = await checkHttp(options, h);
      if (advisory) {
        count++;
        example ??= header;
      }
      return { header, judged: onTheWire(header), reason };
    },
    // a live endpoint (perhaps a shared sandbox) gets a few requests at a time, never a flood
    { window: 8, ...options },
    100,
  );
  return {
    ...result,
    advisories: { serverErrors: count, ...(example !== undefined ? { example, message: SERVER_ERROR_ADVISORY } : {}) },
  };
}

/** The 5xx answers {@link fuzzHttp} counted as refusals (R16): reported, never a finding. */
export interface HttpAdvisories {
  /** Requests answered with a 5xx where a refusal was allowed (shrinking's requests included). */
  readonly serverErrors: number;
  /** The first such header. */
  readonly example?: string;
  /** {@link SERVER_ERROR_ADVISORY}, when there was one. */
  readonly message?: string;
}

/**
 * What an endpoint must do with a header sent on a request signed with `signed`: it may
 * accept when one answer R8 allows carries the signed values (the sign in upper-case hex
 * too, R7), and may refuse when R8 allows a refusal or an answer with other values.
 * @param header - the header sent
 * @param signed - the items the request was signed with
 * @returns accept (must answer 200), refuse (never 2xx), or either
 * @example httpExpectation(authorization, parseAuthorization(authorization).items) // 'accept'
 */
export function httpExpectation(header: string, signed: AuthorizationItems): 'accept' | 'refuse' | 'either' {
  const answers = headerAnswers(onTheWire(header));
  const genuine = (a: AuthorizationItems): boolean =>
    ITEM_NAMES.every((n) => (n === 'sign' ? a.sign.toLowerCase() === signed.sign : a[n] === signed[n]));
  const mayAccept = answers.accepted.some(genuine);
  if (!mayAccept) return 'refuse';
  const mayRefuse = answers.refusable || answers.accepted.some((a) => !genuine(a) || a.sign !== signed.sign);
  return mayRefuse ? 'either' : 'accept';
}

/**
 * A header value as the receiver gets it: HTTP drops white space (SP, HTAB) around a
 * field value (RFC 9110 §5.5), so that is what the oracle judges.
 * @param header - the value sent
 * @returns the value received
 * @example onTheWire(' V2_SHA256 a=b\t') // 'V2_SHA256 a=b'
 */
export const onTheWire: (header: string) => string = httpFieldValue;

/**
 * Why a header must be accepted, cited by the rule that makes it so: RFC 9110 §5.5 when only
 * the SP/HTAB around the field value let a parser refuse the value as sent, else R8.
 * @param header - the header sent
 * @returns the rule, e.g. `RFC 9110 §5.5: the SP/HTAB around a field value are not part of it`
 * @example
 * mustAcceptRule(
 *   ' V2_SHA256 appId=a,sign=00,timestamp=1,nonce=n',
 * ) // 'RFC 9110 §5.5: the SP/HTAB around a field value are not part of it'
 */
export function mustAcceptRule(header: string): string {
  const wire = onTheWire(header);
  if (wire !== header && headerVerdict(headerAnswers(header)) !== 'must-accept')
    return `${FIELD_VALUE_RULE}: the SP/HTAB around a field value are not part of it`;
  return 'R8';
}

// --- internal ---

/** An answer in a finding: its status, and its body (clipped) when --accept-body makes the body count. */
function answerWords(status: number, text: string, acceptBody: string | undefined): string {
  if (acceptBody === undefined) return String(status);
  return `${status}, body ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`;
}

async function checkHttp(
  options: FuzzHttpOptions,
  h: FuzzHeader,
): Promise<{ header: string; reason?: string; advisory?: true }> {
  let header = '';
  let signedItems: AuthorizationItems | undefined;
  try {
    const r = await signedRequest({
      method: 'POST',
      // R10: a webhook signs the notifyUrl as registered (as written), wherever it is delivered
      url: signedUrlOf(options),
      ...(options.kind === 'merchant' && options.notifyUrl !== undefined ? { deliverTo: options.url } : {}),
      appId: options.appId,
      appSecret: options.appSecret,
      body: options.kind === 'gateway' ? GATEWAY_FUZZ_BODY : MERCHANT_FUZZ_BODY,
      timeoutMs: options.timeoutMs ?? 5000,
      mutate: {
        kind: 'authorization',
        form: (items) => {
          signedItems = items;
          header = fuzzHeaderText({
            ...h,
            items: { appId: items.appId, sign: items.sign, timestamp: items.timestamp, nonce: items.nonce },
          });
          return header;
        },
      },
    });
    /* c8 ignore next -- form always runs before sending */
    if (signedItems === undefined) return { header };
    const expect = httpExpectation(header, signedItems);
    // a gateway's 2xx is an acceptance, and a genuine request must get its 200 (R9); a merchant's notify
    // endpoint reads as certification reads it: any 2xx, or a 2xx with --accept-body
    const text = Buffer.from(r.body).toString('utf8');
    const accepted =
      options.kind === 'gateway'
        ? r.status >= 200 && r.status < 300 && (expect !== 'accept' || r.status === 200)
        : isAccepting(
            { status: r.status, body: text },
            'notify',
            options.acceptBody !== undefined ? { acceptBody: options.acceptBody } : {},
            signedUrlOf(options),
          );
    const got = answerWords(r.status, text, options.acceptBody);
    // R16: a 5xx counts as a refusal: an advisory where one is allowed, a finding for a header that must be accepted
    const judged = judgeAnswer(expect, r.status, accepted);
    if (expect === 'accept' && judged.serverError)
      return {
        header,
        reason:
          `a genuinely signed, valid header must be accepted (${mustAcceptRule(header)}) ` +
          `but ${judged.problem ?? ''}`,
      };
    if (expect === 'accept' && !accepted)
      return {
        header,
        reason: `a genuinely signed, valid header must be accepted (${mustAcceptRule(header)}) but got ${got}`,
      };
    if (judged.advisory) return { header, advisory: true };
    if (!judged.ok) {
      const want = oracle(onTheWire(header));
      const strict = want.answers.strict;
      const why =
        want.verdict === 'must-refuse'
          ? `R8: ${strict.ok ? 'no reading accepts it' : strict.message}`
          : 'no reading gives the values that were signed';
      return { header, reason: `must be refused (${why}) but got ${got}` };
    }
    return { header };
  } catch (e) {
    if (e instanceof ClientError) return { header, reason: `no answer (${e.code}): ${e.message}` };
    // A header HTTP cannot carry (undici refuses it): nothing was sent, nothing to judge.
    if (e instanceof RangeError) return { header };
    throw e;
  }
}
