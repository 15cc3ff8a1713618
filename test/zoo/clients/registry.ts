/**
 * The client zoo: defective merchant clients (test/zoo/clients/<name>.ts), one bug each,
 * and what the kit must say about each of them when the real runner runs the client-role
 * cases (vectors/client/*.yaml) against it, the reference gateway playing each case's
 * scenario (startClientGateway).
 *
 * For every member, `caught` lists the cases the bug must fail — chosen by reading the
 * vectors, never by the member looking at a case id — in groups, each with:
 * - `message`: words the check's failure message (src/checks/client.ts) carries for each
 *   case of the group, pinned exactly as the check writes them today;
 * - `recorded`: the gateway's own words for what the client did wrong, as its recorder
 *   holds them (a request's or an upload's `problem`); absent when the gateway saw nothing
 *   wrong (the client's mistake is on its own side: verification, the status it trusts);
 *   where it has them, the check's message quotes them ("the gateway saw: <path>: …" for a
 *   refused valid case, "(gateway: …)" for an invalid case the client let through).
 *
 * The failures must be exactly the cases of `caught` (no collateral failure), their number
 * is pinned in `expectedFailures`, and no case may end `error` or `skipped`.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import * as amountAsNumber from './amount-as-number.js';
import * as authorizationOnEveryRequest from './authorization-on-every-request.js';
import * as bodySignedNotSent from './body-signed-not-sent.js';
import * as filePartFirst from './file-part-first.js';
import * as formfieldNamesLowercased from './formfield-names-lowercased.js';
import * as formfieldsKnownOnly from './formfields-known-only.js';
import * as noResponseVerification from './no-response-verification.js';
import * as objectKeyUrlEncoded from './object-key-url-encoded.js';
import * as responseVerifiedAfterUpload from './response-verified-after-upload.js';
import * as responseVerifiedReserialized from './response-verified-reserialized.js';
import * as uploadStatusIgnored from './upload-status-ignored.js';
import * as urlPathSigned from './url-path-signed.js';

/** Cases a bug must fail, and the words they are caught with. */
export interface CaughtBy {
  /** Client case ids (vectors/client/*.yaml). */
  readonly cases: readonly string[];
  /** Words the check's failure message carries for each of these cases. */
  readonly message: string;
  /** The gateway recorder's words for what the client did (a request's or upload's `problem`), which the message quotes; absent: the gateway recorded no problem. */
  readonly recorded?: string;
}

/** One member of the client zoo. */
export interface ClientZooMember {
  /** Also the module's file name: test/zoo/clients/<name>.ts */
  readonly name: string;
  /** The bug, in one line. */
  readonly bug: string;
  readonly module: { createSubject(): Subject };
  readonly caught: readonly CaughtBy[];
  /** The number of failed cases, pinned (equal to the cases of `caught`: the failures are exactly those). */
  readonly expectedFailures: number;
  readonly note?: string;
}

/** Gaps of the check and the gateway the members show (the test pins today's behaviour). */
export const GAPS = {
  noUploadProblemAfterBadResponse:
    'the gateway stores the upload of a client that used credentials from a response it signed wrongly on purpose (response.signature tampered/foreign-app-id/wrong-secret/missing) and records no problem; the check names it ("uploaded although the credentials response did not verify") from the record of uploads',
  validRefusalUnexplained:
    'a valid case refused with nothing recorded (the client refused a genuine non-canonical response) gets "refused: <the client\'s own reason>": the check does not name the scenario (response bytes pretty / unicode-escapes) that the client failed to verify',
} as const;

/** The upload cases that reach the upload step with a valid response (every valid client.upload case). */
const VALID_UPLOADS = [
  'client.upload-pdf',
  'client.upload-jpg',
  'client.upload-jpeg',
  'client.upload-png',
  'client.upload-xls',
  'client.upload-xlsx',
  'client.upload-2mib',
  'client.response-pretty',
  'client.response-reordered',
  'client.response-unicode-escapes',
  'client.response-null-fields',
  'client.response-extra-fields',
  'client.formfields-extra-entries',
  'client.formfields-other-vendor',
  'client.formfields-special-values',
  'client.upload-no-authorization-on-upload',
] as const;

/** The valid client.createPayment cases. */
const VALID_PAYMENTS = ['client.create-payment', 'client.create-payment-response-pretty'] as const;

/** The upload cases whose credentials response does not verify (the client must refuse without uploading). */
const BAD_SIGNATURES = ['tampered', 'foreign-app-id', 'wrong-secret', 'missing'] as const;

/** What the gateway says about a request whose sign one of the known mistakes reproduces (src/gateway/request-auth.ts). */
const signMismatch = (summary: string, description: string, ref: string): string =>
  `sign does not match: ${summary} — ${description} (${ref})`;

const BODY_SIGNED_NOT_SENT = signMismatch(
  'body signed differs from body sent',
  'the body was parsed and serialized again (JSON.stringify) instead of signing the bytes sent',
  '§5.1, §5.4',
);
const PATH_SIGNED = signMismatch(
  'the path was signed instead of the full URL',
  'part 4 was the path and query only, without scheme://host',
  'R4',
);

/** Every member of the client zoo. */
export const CLIENT_ZOO: readonly ClientZooMember[] = [
  {
    name: 'no-response-verification',
    bug: 'the client never verifies a response: a 200 with code OK is used whatever its Authorization (§5.4, §7, R9)',
    module: noResponseVerification,
    // every case whose response does not verify; nothing else (every genuine response is used as it should be)
    caught: [
      ...BAD_SIGNATURES.map((s) => ({
        cases: [`client.response-signature-${s}`],
        message:
          'client.upload: succeeded, but the client must refuse: uploaded although the credentials response did not verify',
      })),
      {
        cases: ['client.create-payment-response-tampered'],
        message:
          "client.createPayment: succeeded, but the client must refuse: the payment response's signature is tampered",
      },
    ],
    expectedFailures: 5,
    note: `The gateway recorded nothing wrong: the file was stored. ${GAPS.noUploadProblemAfterBadResponse}.`,
  },
  {
    name: 'response-verified-reserialized',
    bug: 'the client verifies a response over JSON.stringify(JSON.parse(bytes)), not the bytes received (§5.4, R9)',
    module: responseVerifiedReserialized,
    // the genuine responses whose bytes JSON.stringify does not reproduce: pretty (indent, final LF) and unicode-escapes;
    // reordered, null-fields and extra-fields survive a parse + stringify byte for byte, so they pass;
    // the invalid signatures still do not verify over the re-serialized (compact, identical) bytes
    caught: [
      {
        cases: ['client.response-pretty', 'client.response-unicode-escapes'],
        message: 'client.upload: refused: credentials: the response signature does not verify',
      },
      {
        cases: ['client.create-payment-response-pretty'],
        message: 'client.createPayment: refused: payment: the response signature does not verify',
      },
    ],
    expectedFailures: 3,
    note: `The gateway saw nothing wrong. ${GAPS.validRefusalUnexplained}.`,
  },
  {
    name: 'formfields-known-only',
    bug: 'the upload forwards only bucket, key, Content-Type, tagging, policy and x-amz-* entries (§2.4, §4.2, R14, R15)',
    module: formfieldsKnownOnly,
    // extra entries: x-amz-meta-origin passes the x-amz-* filter, success_action_status is dropped;
    // another vendor: every x-oss-* entry is dropped, the signature is the first the upload address misses
    caught: [
      {
        cases: ['client.formfields-extra-entries'],
        message: 'the gateway saw: upload: formFields entry success_action_status missing',
        recorded: 'formFields entry success_action_status missing',
      },
      {
        cases: ['client.formfields-other-vendor'],
        message: 'the gateway saw: upload: formFields entry x-oss-signature missing',
        recorded: 'formFields entry x-oss-signature missing',
      },
    ],
    expectedFailures: 2,
  },
  {
    name: 'file-part-first',
    bug: 'the upload form puts the file part first, the formFields after it (§3, §4.2, R14)',
    module: filePartFirst,
    // every valid upload; the invalid ones are refused anyway (before the upload, or by the upload address)
    caught: [
      { cases: VALID_UPLOADS, message: 'the gateway saw: upload: file part not last', recorded: 'file part not last' },
    ],
    expectedFailures: 16,
  },
  {
    name: 'authorization-on-every-request',
    bug: "the SDK's HTTP stack (an OkHttp or axios interceptor) sends the merchant's Authorization header on every request, the upload included (§4.2, R14)",
    module: authorizationOnEveryRequest,
    // every valid upload; the invalid ones are refused anyway (before the upload, or by the upload address)
    caught: [
      {
        cases: VALID_UPLOADS,
        message: 'the gateway saw: upload: an Authorization header sent (R14: never sent to the upload address)',
        recorded: 'an Authorization header sent (R14: never sent to the upload address)',
      },
    ],
    expectedFailures: 16,
  },
  {
    name: 'formfield-names-lowercased',
    bug: 'the upload sends formFields names lower-cased, as header names (§4.2 "name and value exactly as returned", R14)',
    module: formfieldNamesLowercased,
    // only Content-Type has an upper-case letter: every valid upload with a contentType; client.upload-xlsx has none and passes
    caught: [
      {
        cases: VALID_UPLOADS.filter((id) => id !== 'client.upload-xlsx'),
        message: 'the gateway saw: upload: formFields entry Content-Type missing',
        recorded: 'formFields entry Content-Type missing',
      },
    ],
    expectedFailures: 15,
  },
  {
    name: 'amount-as-number',
    bug: 'the payment body carries amount as a JSON number (JSON.parse of the decimal string) (§2.5, §5.1 "body field types")',
    module: amountAsNumber,
    // the valid payments; the tampered-response payment is refused anyway
    caught: [
      {
        cases: VALID_PAYMENTS,
        message:
          'the gateway saw: /pg/v2/payment/create: amount breaks type: amount must be a string; got the number 25 (2.5)',
        recorded: 'amount breaks type: amount must be a string; got the number 25 (2.5)',
      },
    ],
    expectedFailures: 2,
  },
  {
    name: 'body-signed-not-sent',
    bug: 'the client signs the compact JSON and its transport sends the payload pretty-printed (§5.1 "must not be changed after signing", R3)',
    module: bodySignedNotSent,
    // every request it signs: every valid case (credentials and payment); the invalid ones are refused anyway
    caught: [
      {
        cases: VALID_UPLOADS,
        message: `the gateway saw: /pg/v2/file/generateUploadUrl: ${BODY_SIGNED_NOT_SENT}`,
        recorded: BODY_SIGNED_NOT_SENT,
      },
      {
        cases: VALID_PAYMENTS,
        message: `the gateway saw: /pg/v2/payment/create: ${BODY_SIGNED_NOT_SENT}`,
        recorded: BODY_SIGNED_NOT_SENT,
      },
    ],
    expectedFailures: 18,
  },
  {
    name: 'url-path-signed',
    bug: 'the client signs the path and query as part 4 instead of the full URL (§5.1, R4)',
    module: urlPathSigned,
    caught: [
      {
        cases: VALID_UPLOADS,
        message: `the gateway saw: /pg/v2/file/generateUploadUrl: ${PATH_SIGNED}`,
        recorded: PATH_SIGNED,
      },
      {
        cases: VALID_PAYMENTS,
        message: `the gateway saw: /pg/v2/payment/create: ${PATH_SIGNED}`,
        recorded: PATH_SIGNED,
      },
    ],
    expectedFailures: 18,
  },
  {
    name: 'response-verified-after-upload',
    bug: 'the client verifies the credentials response only after it has uploaded with them (§5.4, §7)',
    module: responseVerifiedAfterUpload,
    // the uploads whose credentials response does not verify; payments are verified before use and pass
    caught: [
      {
        cases: BAD_SIGNATURES.map((s) => `client.response-signature-${s}`),
        message:
          'client.upload: refused, but only after uploading: a response that does not verify must stop the upload (5.4, 7)',
      },
    ],
    expectedFailures: 4,
    note: `The file is stored; the gateway recorded nothing wrong. ${GAPS.noUploadProblemAfterBadResponse}.`,
  },
  {
    name: 'upload-status-ignored',
    bug: "the client does not look at the upload's status: the request went out, so the file is stored (§3, §4.2, §7)",
    module: uploadStatusIgnored,
    // the uploads the upload address refuses although the client sent them right
    caught: [
      {
        cases: ['client.upload-url-expired'],
        message:
          'client.upload: succeeded, but the client must refuse: the uploadUrl has expired (gateway: upload: uploadUrl expired)',
        recorded: 'uploadUrl expired',
      },
      {
        cases: ['client.upload-over-size-limit'],
        // the check describes the case by its comment (no scenario), then quotes the gateway
        message:
          'client.upload: succeeded, but the client must refuse: A file of 2,097,153 bytes, one over the limit: the client must report failure (refusing before or after the upload); nothing is stored. (gateway: upload: file over the size limit)',
        recorded: 'file over the size limit',
      },
    ],
    expectedFailures: 2,
  },
  {
    name: 'object-key-url-encoded',
    bug: 'the client percent-encodes the key entry as a URL path (encodeURI) before sending it (§4.2 "none … altered", R14)',
    module: objectKeyUrlEncoded,
    // only client.formfields-special-values has a key encodeURI changes (a space); every other key is path-safe
    caught: [
      {
        cases: ['client.formfields-special-values'],
        message: 'the gateway saw: upload: formFields entry key changed',
        recorded: 'formFields entry key changed',
      },
    ],
    expectedFailures: 1,
  },
];

/**
 * The cases a member must fail.
 * @param m - the member
 * @returns the case ids of its groups
 */
export function mustFail(m: ClientZooMember): string[] {
  return m.caught.flatMap((g) => [...g.cases]);
}
