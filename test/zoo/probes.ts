/**
 * Probe cases: vector cases the vector set lacks, built here (in memory, never written
 * to vectors/) to show a zoo member's bug that no published vector can see. The zoo test
 * runs them through the real runner: the reference must pass them, the member fail them.
 * @module
 */
import { formatAuthorization } from '../../src/scheme/authorization.js';
import { sign } from '../../src/scheme/sign.js';
import type { RedirectCase, RequestCase, ResponseCase, VectorCase, WebhookCase } from '../../src/vectors/types.js';

const MERCHANT = { appId: 'app_7f3a9c', appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' } as const;
const OTHER_APP_ID = 'app_2b91d0';

/** Signs with the merchant's own credentials, then puts another appId in the header. */
function swappedHeader(method: string, url: string, body: string, nonce: string): string {
  const timestamp = '1725150000777';
  const s = sign({ ...MERCHANT, method, url, timestamp, nonce, body });
  return formatAuthorization({ appId: OTHER_APP_ID, sign: s, timestamp, nonce });
}

const base = {
  spec: ['5.3', '5.4'],
  readings: ['R9'],
  flags: ['AppIdMismatch'],
  result: 'invalid' as const,
  expected: { problem: { kind: 'app-id-mismatch' } },
};

const REQUEST_URL = 'https://pg.example.com/pg/v2/file/generateUploadUrl';
const REQUEST_BODY = '{"filename":"evidence-0901.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
const RESPONSE_BODY = '{"code":"OK","errorMessage":null,"data":{"uploadNo":"1725150000-9f2c"}}';
const NOTIFY_URL = 'https://shop.example.net/pg/notify';
const WEBHOOK_BODY = '{"paymentNo":"PAY2024061109150001","status":"PENDING"}';
const RETURN_URL = 'https://shop.example.net/checkout/return';
const PAYMENT = '{"amount":"128.50","currency":"USD","status":"PENDING"}';

/**
 * The header's appId is another merchant's, but the sign is the merchant's own over its own
 * appId: a verifier that skips the R9 appId check and builds part 1 from its credentials
 * accepts. (Every app-id-mismatch vector is signed with the other merchant's secret.)
 */
export const APP_ID_SWAPPED: readonly VectorCase[] = [
  {
    ...base,
    id: 'request.zoo-probe.app-id-swapped',
    kind: 'request',
    comment: "The header's appId is swapped for another merchant's; the sign is over this merchant's own credentials.",
    inputs: { ...MERCHANT, method: 'POST', url: REQUEST_URL, authorization: swappedHeader('POST', REQUEST_URL, REQUEST_BODY, 'probe-req'), body: REQUEST_BODY },
  } satisfies RequestCase,
  {
    ...base,
    id: 'response.zoo-probe.app-id-swapped',
    kind: 'response',
    comment: "A 200 whose header's appId is swapped for another merchant's; the sign is over this merchant's own credentials.",
    inputs: { ...MERCHANT, method: 'POST', url: REQUEST_URL, status: 200, authorization: swappedHeader('POST', REQUEST_URL, RESPONSE_BODY, 'probe-res'), body: RESPONSE_BODY },
  } satisfies ResponseCase,
  {
    ...base,
    id: 'webhook.zoo-probe.app-id-swapped',
    kind: 'webhook',
    comment: "A webhook whose header's appId is swapped for another merchant's; the sign is over this merchant's own credentials.",
    inputs: { ...MERCHANT, notifyUrl: NOTIFY_URL, method: 'POST', authorization: swappedHeader('POST', NOTIFY_URL, WEBHOOK_BODY, 'probe-hook'), body: WEBHOOK_BODY },
  } satisfies WebhookCase,
  {
    ...base,
    id: 'redirect.zoo-probe.app-id-swapped',
    kind: 'redirect',
    comment: "A redirect whose authorization's appId is swapped for another merchant's; the sign is over this merchant's own credentials.",
    inputs: {
      ...MERCHANT,
      returnUrl: RETURN_URL,
      redirectUrl: `${RETURN_URL}?payment=${encodeURIComponent(PAYMENT)}&authorization=${encodeURIComponent(swappedHeader('GET', RETURN_URL, `payment=${PAYMENT}`, 'probe-redirect'))}`,
    },
  } satisfies RedirectCase,
];

/** A response or webhook whose sign covers `signedBody` while the receiver is given `body`. */
function signedOver(kind: 'response' | 'webhook', id: string, comment: string, flags: string[], body: string, signedBody: string): VectorCase {
  const timestamp = '1718610000777';
  const nonce = `probe-${kind}-${flags[0] ?? 'x'}`;
  const url = kind === 'response' ? REQUEST_URL : NOTIFY_URL;
  const authorization = formatAuthorization({ appId: MERCHANT.appId, sign: sign({ ...MERCHANT, method: 'POST', url, timestamp, nonce, body: signedBody }), timestamp, nonce });
  const common = { id, comment, spec: ['5.4', '5.5'], readings: ['R3', 'R9'], flags, result: 'invalid' as const, expected: { problem: { kind: 'sign-mismatch' } } };
  if (kind === 'response') return { ...common, kind, inputs: { ...MERCHANT, method: 'POST', url, status: 200, authorization, body } } satisfies ResponseCase;
  return { ...common, kind, inputs: { ...MERCHANT, notifyUrl: url, method: 'POST', authorization, body } } satisfies WebhookCase;
}

const PRETTY_RESPONSE = '{\n  "code": "OK",\n  "errorMessage": null,\n  "data": {\n    "merchantAttach": "S\\u00e3o Paulo",\n    "status": "PENDING"\n  }\n}';
const PRETTY_WEBHOOK = '{"paymentNo": "PAY2024061109150001", "merchantAttach": "cr\\u00eape", "status": "PENDING"}';
const reserialized = (text: string): string => JSON.stringify(JSON.parse(text));

/**
 * The receiver is given the bytes the gateway sent, but the sign covers their
 * re-serialized JSON: a verifier that re-serializes before verifying accepts. (The
 * vectors response.body-reserialized and webhook.body-reserialized give the verifier the
 * already re-serialized bytes and a sign over the original ones: every verifier that
 * refuses a changed body refuses them, re-serializing or not.)
 */
export const SIGNED_OVER_RESERIALIZED: readonly VectorCase[] = [
  signedOver('response', 'response.zoo-probe.signed-over-reserialized', 'The sign covers JSON.stringify(JSON.parse(body)); the client is given the bytes sent.', ['BodyReserialized', 'RawResponse'], PRETTY_RESPONSE, reserialized(PRETTY_RESPONSE)),
  signedOver('webhook', 'webhook.zoo-probe.signed-over-reserialized', 'The sign covers JSON.stringify(JSON.parse(body)); the merchant is given the bytes sent.', ['BodyReserialized', 'NotifyUrlAsSubmitted'], PRETTY_WEBHOOK, reserialized(PRETTY_WEBHOOK)),
];

/** The response probe alone (for a member that only verifies responses). */
export const RESPONSE_SIGNED_OVER_RESERIALIZED: readonly VectorCase[] = SIGNED_OVER_RESERIALIZED.filter((c) => c.kind === 'response');

/**
 * The receiver is given a body ending in LF, but the sign covers the body without it: a
 * verifier that trims the body before verifying accepts. (response.final-lf-stripped and
 * webhook.final-lf-stripped give the verifier the already trimmed body and a sign over
 * the body with its LF: a trimming verifier has nothing to trim and refuses them.)
 */
export const SIGNED_OVER_TRIMMED: readonly VectorCase[] = [
  signedOver('response', 'response.zoo-probe.signed-over-trimmed', 'The sign covers the body without its final LF; the client is given the body with it.', ['BodyTrimmed', 'BodyEndsWithLF'], `${PRETTY_RESPONSE}\n`, PRETTY_RESPONSE),
  signedOver('webhook', 'webhook.zoo-probe.signed-over-trimmed', 'The sign covers the body without its final LF; the merchant is given the body with it.', ['BodyTrimmed', 'BodyEndsWithLF'], `${PRETTY_WEBHOOK}\n`, PRETTY_WEBHOOK),
];
