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
 *
 * Every header counted reaches the server: one the HTTP client (undici) refuses goes byte for
 * byte over a socket of its own ({@link sendRaw}), one the wire cannot carry (CR, LF) is counted
 * as not sendable and never sent; each is judged as every reading its receiver may make of its
 * bytes ({@link wireValue}, {@link wireExpectation}).
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
import { sendRaw } from './raw-http.js';
import { wireValue } from './wire.js';
import { Pgv2kitError } from '../errors.js';

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
 * @returns the run, with the shrunk finding (as {@link fuzzParser} gives it), the advisories and
 *   what became of the headers generated (`wire`: sent by path, not sendable; `runs` counts both)
 * @example
 * const r = await fuzzHttp({ kind: 'gateway', url: gateway.baseUrl, appId, appSecret, seed: 1, runs: 20 });
 * r.finding // undefined
 */
export async function fuzzHttp(
  options: FuzzHttpOptions,
): Promise<FuzzResult & { readonly advisories: HttpAdvisories; readonly wire: WireCounts }> {
  let count = 0;
  let example: string | undefined;
  let closed = 0;
  let closedExample: { header: string; message: string } | undefined;
  // each header's path, in the order the headers started: the run's first `runs` are the headers it counts (the
  // engine starts them in order; what comes after is shrinking and the finding checked again)
  const paths: Array<HeaderPath | undefined> = [];
  const result = await fuzzWith(
    async (h) => {
      const slot = paths.push(undefined) - 1;
      const { header, reason, advisory, path, noAnswer } = await checkHttp(options, h);
      paths[slot] = path;
      if (advisory) {
        count++;
        example ??= header;
      }
      if (noAnswer !== undefined) {
        closed++;
        closedExample ??= { header, message: noAnswer };
      }
      return { header, judged: onTheWire(header), reason };
    },
    // a live endpoint (perhaps a shared sandbox) gets a few requests at a time, never a flood
    { window: 8, ...options },
    100,
  );
  return {
    ...result,
    advisories: {
      serverErrors: count,
      ...(example !== undefined ? { example, message: SERVER_ERROR_ADVISORY } : {}),
      closedWithoutAnswer: closed,
      ...(closedExample !== undefined ? { closedExample } : {}),
    },
    wire: wireCounts(paths.slice(0, result.runs)),
  };
}

/** The 5xx answers {@link fuzzHttp} counted as refusals (R16), and connections closed as refusals: never a finding. */
export interface HttpAdvisories {
  /** Requests answered with a 5xx where a refusal was allowed (shrinking's requests included). */
  readonly serverErrors: number;
  /** The first such header. */
  readonly example?: string;
  /** {@link SERVER_ERROR_ADVISORY}, when there was one. */
  readonly message?: string;
  /**
   * Raw-socket requests (a header with a control character HTTP lets a server refuse) answered by closing or resetting
   * the connection: a refusal where one was allowed (shrinking's requests included).
   */
  readonly closedWithoutAnswer: number;
  /** The first such header, and what happened. */
  readonly closedExample?: { readonly header: string; readonly message: string };
}

/**
 * What became of the headers a run generated: `generated` = `sent` + `notSendable`, `sent` = `client` + `raw`.
 * Only `sent` headers reached the server ("headers tried"); one not sendable is never counted as passed.
 */
export interface WireCounts {
  readonly generated: number;
  readonly sent: number;
  /** Sent by the HTTP client (undici, keep-alive). */
  readonly client: number;
  /** Sent byte for byte over a socket of their own: the HTTP client refused the value (src/fuzz/wire.ts). */
  readonly raw: number;
  readonly notSendable: number;
  /** The headers not sendable by why (the character class, `NOT_SENDABLE` of src/fuzz/wire.ts). */
  readonly notSendableBy: Readonly<Record<string, number>>;
}

/**
 * A header the run generated, judged as what its receiver may read: every reading of {@link wireValue} (NUL read as
 * SP, a UTF-8 value read as Latin-1), and a message HTTP lets the receiver refuse (a control character) is never one
 * that must be accepted. A header not sendable is judged as written (it is never sent).
 * @param header - the header as generated
 * @param signed - the items the request was signed with
 * @returns accept (must answer 200), refuse (never an acceptance: R16), or either
 * @example wireExpectation(`${authorization}\u0001`, parseAuthorization(authorization).items) // 'either'
 */
export function wireExpectation(header: string, signed: AuthorizationItems): 'accept' | 'refuse' | 'either' {
  const wire = wireValue(header);
  if (!wire.sendable) return httpExpectation(header, signed);
  const each = wire.readings.map((value) => httpExpectation(value, signed));
  if (each.every((e) => e === 'refuse')) return 'refuse';
  if (each.every((e) => e === 'accept') && !wire.messageMayBeRefused) return 'accept';
  return 'either';
}

/**
 * What an endpoint must do with a header sent on a request signed with `signed`: it may
 * accept when one answer R8 allows carries the signed values (the sign in upper-case hex
 * too, R7), and may refuse when R8 allows a refusal or an answer with other values.
 * @param header - the header sent
 * @param signed - the items the request was signed with
 * @returns accept (must answer 200), refuse (never an acceptance: R16), or either
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

function wireCounts(paths: ReadonlyArray<HeaderPath | undefined>): WireCounts {
  const by: Record<string, number> = {};
  let client = 0;
  let raw = 0;
  for (const p of paths) {
    if (p === undefined) continue;
    if ('notSendable' in p) by[p.notSendable] = (by[p.notSendable] ?? 0) + 1;
    else if (p.sent === 'raw') raw++;
    else client++;
  }
  const notSendable = Object.values(by).reduce((a, b) => a + b, 0);
  return { generated: client + raw + notSendable, sent: client + raw, client, raw, notSendable, notSendableBy: by };
}

/** An answer in a finding: its status, and its body (clipped) when --accept-body makes the body count. */
function answerWords(status: number, text: string, acceptBody: string | undefined): string {
  if (acceptBody === undefined) return String(status);
  return `${status}, body ${JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)}`;
}

/** How a header went: by the HTTP client, over the raw socket, or not at all (with the class that stopped it). */
type HeaderPath = { readonly sent: 'client' | 'raw' } | { readonly notSendable: string };

/** Thrown from the header's form to stop a request whose header the wire cannot carry (never leaves this file). */
class NotSendable extends Pgv2kitError {
  override readonly name = 'NotSendable';
  override readonly code = 'PGV2_FUZZ_NOT_SENDABLE';
}

/** The answer as the judging needs it, from either path. */
interface Answer {
  readonly status: number;
  readonly body: Uint8Array;
}

async function checkHttp(
  options: FuzzHttpOptions,
  h: FuzzHeader,
): Promise<{ header: string; reason?: string; advisory?: true; path: HeaderPath; noAnswer?: string }> {
  let header = '';
  let signedItems: AuthorizationItems | undefined;
  let wire: ReturnType<typeof wireValue> | undefined;
  const body = options.kind === 'gateway' ? GATEWAY_FUZZ_BODY : MERCHANT_FUZZ_BODY;
  const timeoutMs = options.timeoutMs ?? 5000;
  let r: Answer;
  let path: HeaderPath = { sent: 'client' };
  try {
    r = await signedRequest({
      method: 'POST',
      // R10: a webhook signs the notifyUrl as registered (as written), wherever it is delivered
      url: signedUrlOf(options),
      ...(options.kind === 'merchant' && options.notifyUrl !== undefined ? { deliverTo: options.url } : {}),
      appId: options.appId,
      appSecret: options.appSecret,
      body,
      timeoutMs,
      mutate: {
        kind: 'authorization',
        form: (items) => {
          signedItems = items;
          header = fuzzHeaderText({
            ...h,
            items: { appId: items.appId, sign: items.sign, timestamp: items.timestamp, nonce: items.nonce },
          });
          wire = wireValue(header);
          // a CR or LF would end the field line: another request, never sent (src/fuzz/wire.ts)
          if (!wire.sendable) throw new NotSendable(wire.reason);
          return header;
        },
      },
    });
  } catch (e) {
    if (e instanceof NotSendable) return { header, path: { notSendable: e.message } };
    if (e instanceof ClientError) return { header, path, reason: `no answer (${e.code}): ${e.message}` };
    // undici refuses the value (a control character, one above U+00FF): the same request, over a raw socket
    if (!(e instanceof RangeError) || wire?.sendable !== true || signedItems === undefined) throw e;
    path = { sent: 'raw' };
    const outcome = await sendRaw({
      method: 'POST',
      url: options.kind === 'merchant' ? options.url : signedUrlOf(options),
      headers: [
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json'],
        ['Authorization', wire.bytes],
      ],
      body: Buffer.from(body, 'utf8'),
      timeoutMs,
    });
    if (outcome.kind === 'no-answer') {
      const expect = wireExpectation(header, signedItems);
      // a connection closed (or reset) on a message HTTP lets the server refuse is its refusal; never for a genuine one
      if (expect !== 'accept' && (outcome.reason === 'closed' || outcome.reason === 'reset'))
        return { header, path, noAnswer: outcome.message };
      return { header, path, reason: `no answer (${outcome.reason}, raw socket): ${outcome.message}` };
    }
    r = outcome;
  }
  /* c8 ignore next -- form always runs before sending */
  if (signedItems === undefined) return { header, path };
  return { header, path, ...judgeHttp(options, header, signedItems, r) };
}

/**
 * The code of a gateway's envelope (2.3): `OK` when the body carries none (a 2xx without an envelope is taken as
 * an acceptance), else the code it says.
 */
function envelopeCode(text: string): string {
  try {
    const v = JSON.parse(text) as unknown;
    const code = typeof v === 'object' && v !== null ? (v as { code?: unknown }).code : undefined;
    return typeof code === 'string' ? code : 'OK';
  } catch {
    return 'OK';
  }
}

/** The answer to one header judged: a finding's reason, an advisory (R16), or nothing wrong. */
function judgeHttp(
  options: FuzzHttpOptions,
  header: string,
  signedItems: AuthorizationItems,
  r: Answer,
): { reason?: string; advisory?: true } {
  const expect = wireExpectation(header, signedItems);
  // a gateway's 2xx is an acceptance unless its envelope's code is not OK (R16, 2.3, 7: a refusal may be a
  // signed 200), and a genuine request must get its 200 (R9); a merchant's notify endpoint reads as
  // certification reads it: any 2xx, or a 2xx with --accept-body
  const text = Buffer.from(r.body).toString('utf8');
  const accepted =
    options.kind === 'gateway'
      ? r.status >= 200 && r.status < 300 && envelopeCode(text) === 'OK' && (expect !== 'accept' || r.status === 200)
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
      reason:
        `a genuinely signed, valid header must be accepted (${mustAcceptRule(header)}) ` +
        `but ${judged.problem ?? ''}`,
    };
  if (expect === 'accept' && !accepted)
    return { reason: `a genuinely signed, valid header must be accepted (${mustAcceptRule(header)}) but got ${got}` };
  if (judged.advisory) return { advisory: true };
  if (!judged.ok) {
    const want = oracle(onTheWire(header));
    const strict = want.answers.strict;
    const why =
      want.verdict === 'must-refuse'
        ? `R8: ${strict.ok ? 'no reading accepts it' : strict.message}`
        : 'no reading gives the values that were signed';
    return { reason: `must be refused (${why}) but got ${got}` };
  }
  return {};
}
