/**
 * The zoo: defective implementations, one bug each, and what the kit must say about
 * each of them when the real runner runs the whole vector set against it.
 *
 * For every member:
 * - `mustFail`: the cases the bug concerns, read from the vectors (ids, or a rule over the
 *   case as the vector file gives it); each must end `failed`, never `error`, and no other
 *   case may fail: the failures are exactly these. Counted from the vector data by the rule,
 *   never pinned, so a new case the rule selects is expected to fail and any other is not
 *   (adding a vector needs no edit here), while a change in the runner or the checks shows;
 * - `mayFail`: the cases the bug could reach (default: the cases that run one of the
 *   operations it reaches, `routed`): mustFail stays within them;
 * - `diagnosis`: the known mistake the runner must name on the failures of the given
 *   operations (of the given `cases`, where a bug shows as different mistakes on
 *   different cases). A yes/no operation that refused a valid case cannot be diagnosed
 *   from its answer (one bit) and is not required to be, unless the entry says
 *   `refusals` (the case itself says what a refusal means); `undiagnosed` pins failures
 *   the catalogue cannot explain (they must stay unexplained until the registry is
 *   updated, so an improvement shows too).
 *
 * Bugs the vectors cannot see belong in the vectors, not here: a member whose bug no
 * case catches is a gap in the vector set (the app-id-swapped-own-signature and
 * signed-over-… cases came from such members).
 * @module
 */
import { decodeQueryComponent } from '../../src/scheme/redirect.js';
import type { Operation } from '../../src/protocol/operations.js';
import type { Subject } from '../../src/subjects/subject.js';
import type { VectorCase } from '../../src/vectors/types.js';
import {
  bodyPart,
  headerOf,
  isGenuineMessage,
  itemPairs,
  itemsOutOfSpecOrder,
  redirectParam,
  textParts,
  urlPart,
  utf8Text,
  wholeQueryParam,
} from './cases.js';
import { parseAuthorization } from '../../src/scheme/authorization.js';
import * as appIdNotChecked from './members/app-id-not-checked.js';
import * as bodyReserialized from './members/body-reserialized.js';
import * as bodyTextConverted from './members/body-text-converted.js';
import * as bodyTrimmed from './members/body-trimmed.js';
import * as crlfSeparators from './members/crlf-separators.js';
import * as headerByPosition from './members/header-by-position.js';
import * as headerDuplicateLastWins from './members/header-duplicate-last-wins.js';
import * as headerFoldedFirstWins from './members/header-folded-first-wins.js';
import * as headerMissingAsEmpty from './members/header-missing-as-empty.js';
import * as headerSplitLastEquals from './members/header-split-last-equals.js';
import * as hexUnpadded from './members/hex-unpadded.js';
import * as latin1Content from './members/latin1-content.js';
import * as receivedBodyTextConverted from './members/received-body-text-converted.js';
import * as noFinalLf from './members/no-final-lf.js';
import * as redirectLandedUrl from './members/redirect-landed-url.js';
import * as redirectPaymentDecodedTwice from './members/redirect-payment-decoded-twice.js';
import * as redirectPaymentEncoded from './members/redirect-payment-encoded.js';
import * as redirectQueryDecodedWhole from './members/redirect-query-decoded-whole.js';
import * as redirectPaymentReturnedEncoded from './members/redirect-payment-returned-encoded.js';
import * as redirectPlusKept from './members/redirect-plus-kept.js';
import * as redirectReturnUrlWithoutQuery from './members/redirect-return-url-without-query.js';
import * as responseAnyStatus from './members/response-any-status.js';
import * as responseReserialized from './members/response-reserialized.js';
import * as secretOmitted from './members/secret-omitted.js';
import * as signBase64 from './members/sign-base64.js';
import * as uploadFileFirst from './members/upload-file-first.js';
import * as uploadKnownFieldsOnly from './members/upload-known-fields-only.js';
import * as uploadUtf16Length from './members/upload-utf16-length.js';
import * as largeBodyLfDropped from './members/large-body-lf-dropped.js';
import * as largeBodyUnverified from './members/large-body-unverified.js';
import * as uppercaseHex from './members/uppercase-hex.js';
import * as wrongSecret from './members/wrong-secret.js';
import * as urlPathOnly from './members/url-path-only.js';
import * as urlQueryDropped from './members/url-query-dropped.js';

/** Where the bug lives. */
export type Area = 'signing' | 'header' | 'verification' | 'redirect' | 'upload';

/** Cases, by id or by a predicate over the case as the vector file gives it. */
export type CaseSelector = readonly string[] | ((c: VectorCase) => boolean);

/** A diagnosis the runner must give. */
export interface ExpectedDiagnosis {
  /** The mistake id (src/diagnosis). */
  readonly mistake: string;
  /** The operations whose failures must carry it. */
  readonly ops: readonly Operation[];
  /** The cases whose failures must carry it (default: every failed case). */
  readonly cases?: CaseSelector;
  /** Also refusals of valid cases: the diagnosis is read from the case, not from a one-bit answer. */
  readonly refusals?: boolean;
  /** Failures of those operations the catalogue cannot explain today (pinned: they must stay unexplained). */
  readonly undiagnosed?: CaseSelector;
  /** Why, where it is not obvious. */
  readonly note?: string;
}

/** A member module: `createSubject()`, and the operations its bug reaches. */
export interface MemberModule {
  createSubject(): Subject;
  readonly routed: readonly Operation[];
}

/** One member of the zoo. */
export interface ZooMember {
  /** Also the module's file name: test/zoo/members/<name>.ts */
  readonly name: string;
  /** The bug, in one line. */
  readonly bug: string;
  readonly area: Area;
  readonly module: MemberModule;
  readonly mustFail: CaseSelector;
  /** Default: the cases that run one of `module.routed`. */
  readonly mayFail?: CaseSelector;
  readonly diagnosis?: readonly ExpectedDiagnosis[];
  /** The mistake the run's first cause must name (src/runner/triage.ts), when it is none of the diagnoses': a run-level cause. */
  readonly cause?: string;
  /** What else to know: cases the bug reaches beyond the obvious ones, diagnosis gaps. */
  readonly note?: string;
}

// --- predicates over cases ---

const signatureCase = (c: VectorCase): boolean => c.kind === 'signature';

/** Cases whose content a signer builds (signature cases) or a verifier must rebuild to accept (genuine messages). */
const contentCase = (c: VectorCase): boolean => signatureCase(c) || isGenuineMessage(c);

const hasQuery = (c: VectorCase): boolean => urlPart(c)?.includes('?') ?? false;

/** A body whose JSON.parse + JSON.stringify differs from the bytes (JSON.parse reads a Buffer as UTF-8, lossily). */
const reserializationChanges = (c: VectorCase): boolean => {
  const body = bodyPart(c);
  if (body === undefined) return false;
  const text = Buffer.from(body).toString('utf8');
  try {
    return Buffer.compare(Buffer.from(JSON.stringify(JSON.parse(text)), 'utf8'), Buffer.from(body)) !== 0;
  } catch {
    return false;
  }
};

/** A body (part 7) that is not UTF-8. */
const notUtf8Body = (c: VectorCase): boolean => {
  const body = bodyPart(c);
  return body !== undefined && utf8Text(body) === undefined;
};

const trimChanges = (c: VectorCase): boolean => {
  const body = bodyPart(c);
  const text = body === undefined ? undefined : utf8Text(body);
  return text !== undefined && text.trim() !== text;
};

const texts = (c: VectorCase): string[] => {
  const body = bodyPart(c);
  const text = body === undefined ? undefined : utf8Text(body);
  return [...textParts(c), ...(text === undefined ? [] : [text])];
};

/** A content with a character beyond ASCII: its Latin-1 bytes differ from its UTF-8 bytes. */
const nonAsciiContent = (c: VectorCase): boolean => texts(c).some((t) => /[^\x00-\x7f]/.test(t));

/** A content with a character beyond U+00FF: Latin-1 cannot hold it. */
const beyondLatin1 = (c: VectorCase): boolean => texts(c).some((t) => /[^\x00-\xff]/.test(t));

/** The header a parser is given has an item value holding "=". */
const equalsInValue = (c: VectorCase): boolean => {
  const header = headerOf(c);
  return header !== undefined && itemPairs(header).some(([, value]) => value.includes('='));
};

/** A sign (64 hex digits) with a byte below 0x10: a "0" in the first digit of a pair. */
const hasLowByte = (sign: string | undefined): boolean => sign !== undefined && /^(?:[0-9a-f]{2})*0/i.test(sign);

/** The right sign of a case (a signature case's expected sign, a genuine message's header sign) has a byte below 0x10. */
const rightSignHasLowByte = (c: VectorCase): boolean => {
  if (c.kind === 'signature') return hasLowByte(c.expected.sign);
  const header = headerOf(c);
  return isGenuineMessage(c) && header !== undefined && hasLowByte(itemPairs(header).find(([n]) => n === 'sign')?.[1]);
};

const isRedirect = (c: VectorCase): boolean => c.kind === 'redirect';
const paymentEncoded = (c: VectorCase): boolean => {
  const raw = redirectParam(c, 'payment');
  return raw !== undefined && raw !== decodeQueryComponent(raw);
};

/** Decoding the payment value a second time changes it (or fails: a "%" that starts no escape). */
const paymentChangesDecodedAgain = (c: VectorCase): boolean => {
  const raw = redirectParam(c, 'payment');
  const once = raw === undefined ? undefined : decodeQueryComponent(raw);
  return once !== undefined && decodeQueryComponent(once) !== once;
};

/** Decoding the whole query before splitting it gives another payment or authorization value than splitting first. */
const wholeQueryDecodingChanges = (c: VectorCase): boolean =>
  (['payment', 'authorization'] as const).some((name) => {
    const raw = redirectParam(c, name);
    return wholeQueryParam(c, name) !== (raw === undefined ? undefined : decodeQueryComponent(raw));
  });

const validRedirect = (c: VectorCase): boolean => c.kind === 'redirect' && c.result === 'valid';

const or =
  (...ps: Array<(c: VectorCase) => boolean>) =>
  (c: VectorCase): boolean =>
    ps.some((p) => p(c));
const and =
  (...ps: Array<(c: VectorCase) => boolean>) =>
  (c: VectorCase): boolean =>
    ps.every((p) => p(c));
const not =
  (p: (c: VectorCase) => boolean) =>
  (c: VectorCase): boolean =>
    !p(c);
const ids =
  (...list: string[]) =>
  (c: VectorCase): boolean =>
    list.includes(c.id);

/** The response and webhook signed over the body without its final LF (a verifier that drops or strips that LF accepts them). */
const SIGNED_WITHOUT_FINAL_LF = [
  'response.signed-over-body-without-final-lf',
  'webhook.signed-over-body-without-final-lf',
];

/** The request and response signed over their body with U+FFFD for each byte that is not UTF-8 (a verifier that decodes the body as text first accepts them). */
const SIGNED_OVER_FFFD = [
  'request.signed-over-invalid-utf8-replaced-fffd',
  'response.signed-over-invalid-utf8-replaced-fffd',
];

const SIGNING_DIAGNOSED: readonly Operation[] = [
  'signature.content',
  'signature.sign',
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
];

// --- the members ---

/** Every member of the zoo. */
export const ZOO: readonly ZooMember[] = [
  // signers: the content builder is shared by signing and every verification, as in a real SDK,
  // so mayFail (the routed operations) spans signature, request, response, webhook and redirect cases.
  {
    name: 'no-final-lf',
    bug: 'the signer joins the parts with LF: no LF after the body (§5.1, R1)',
    area: 'signing',
    module: noFinalLf,
    // every content differs: every signature case fails (content and sign), every genuine message is refused;
    // and its verifier accepts the two messages signed over a body ending in LF without that LF
    mustFail: or(contentCase, ids(...SIGNED_WITHOUT_FINAL_LF)),
    diagnosis: [{ mistake: 'no-final-lf', ops: SIGNING_DIAGNOSED }],
  },
  {
    name: 'crlf-separators',
    bug: 'the signer ends each part with CR LF instead of LF (§5.1)',
    area: 'signing',
    module: crlfSeparators,
    mustFail: contentCase,
    diagnosis: [{ mistake: 'crlf-separators', ops: SIGNING_DIAGNOSED }],
  },
  {
    name: 'secret-omitted',
    bug: 'the signer leaves part 2, the AppSecret, out of the content (§5.1)',
    area: 'signing',
    module: secretOmitted,
    mustFail: contentCase,
    diagnosis: [{ mistake: 'secret-left-out', ops: SIGNING_DIAGNOSED }],
  },
  {
    name: 'url-path-only',
    bug: 'the signer puts path and query in part 4 instead of the full URL (R4)',
    area: 'signing',
    module: urlPathOnly,
    mustFail: contentCase, // every URL of the vectors has scheme://host
    diagnosis: [{ mistake: 'url-path-only', ops: SIGNING_DIAGNOSED }],
  },
  {
    name: 'url-query-dropped',
    bug: 'the signer drops the query string from part 4 (R4)',
    area: 'signing',
    module: urlQueryDropped,
    // contents whose URL (url, notifyUrl, returnUrl) has a query, and the two vectors signed
    // over the URL without its query, which this SDK's verifier accepts
    mustFail: or(
      and(contentCase, hasQuery),
      ids('webhook.signed-over-notify-url-without-query', 'redirect.signed-without-return-url-query'),
    ),
    diagnosis: [
      {
        mistake: 'url-without-query',
        ops: ['signature.content', 'signature.sign', 'request.verify', 'response.verify', 'webhook.verify'],
      },
      {
        mistake: 'returnurl-without-query',
        ops: ['redirect.verify'],
        note: 'the redirect names the same mistake after the returnUrl',
      },
    ],
  },
  {
    name: 'wrong-secret',
    bug: 'the SDK signs and verifies with the secret of its own configuration (a test secret fixed in the code), not the secret it is given (§5.1)',
    area: 'signing',
    module: wrongSecret,
    mustFail: contentCase,
    // every content differs in part 2: no case can say why, the run does (every genuine message refused)
    diagnosis: [
      {
        mistake: 'credentials-or-url',
        ops: ['signature.content', 'signature.sign'],
        undiagnosed: signatureCase,
        note: 'a run-level cause: the triage names it, no single diagnosis',
      },
    ],
    cause: 'credentials-or-url',
  },
  {
    name: 'uppercase-hex',
    bug: 'the signer writes the digest in upper-case hex (§5.2, R7); its verifier compares digests as bytes',
    area: 'signing',
    module: uppercaseHex,
    mustFail: signatureCase, // signature.sign of every signature case; nothing else
    diagnosis: [{ mistake: 'uppercase-hex', ops: ['signature.sign'] }],
  },
  {
    name: 'hex-unpadded',
    bug: 'the signer writes each digest byte with toString(16), no padStart: a byte below 0x10 loses its leading zero (§5.2); its verifier compares signs as text',
    area: 'signing',
    module: hexUnpadded,
    // signature cases and genuine messages whose right digest has a byte below 0x10 (the sign, and the refusal of
    // the genuine sign); and the request signed with the unpadded digest, which its verifier accepts
    mustFail: or(rightSignHasLowByte, ids('request.sign-hex-unpadded')),
    diagnosis: [{ mistake: 'hex-unpadded', ops: ['signature.sign', 'request.verify'] }],
  },
  {
    name: 'sign-base64',
    bug: 'the signer writes the digest in base64, not hex (§5.2); its verifier compares signs as text',
    area: 'signing',
    module: signBase64,
    // every sign it writes, every genuine message it verifies; and the request signed in base64, which it accepts
    mustFail: or(signatureCase, isGenuineMessage, ids('request.sign-base64')),
    diagnosis: [{ mistake: 'sign-base64', ops: ['signature.sign', 'request.verify'] }],
  },
  {
    name: 'body-reserialized',
    bug: 'the signer signs JSON.stringify(JSON.parse(body)) instead of the bytes sent (§5.1, R3)',
    area: 'signing',
    module: bodyReserialized,
    // contents whose body re-serializes to other bytes; and its verifier accepts the messages signed over the
    // re-serialized body, the webhook signed without its final LF (a compact body: re-serializing drops just that LF),
    // and the messages signed over the body with U+FFFD in place of its bad bytes (JSON.parse reads the bytes so)
    mustFail: or(
      and(contentCase, reserializationChanges),
      ids(
        'response.signed-over-reserialized-body',
        'webhook.signed-over-reserialized-body',
        'webhook.signed-over-body-without-final-lf',
        ...SIGNED_OVER_FFFD,
      ),
    ),
    diagnosis: [
      { mistake: 'body-reserialized', ops: SIGNING_DIAGNOSED, cases: not(notUtf8Body) },
      {
        mistake: 'body-reserialized-lossy',
        ops: SIGNING_DIAGNOSED,
        cases: notUtf8Body,
        note: 'a body that is not UTF-8 is read with U+FFFD in place of its bad bytes before JSON.parse',
      },
    ],
  },
  {
    name: 'body-trimmed',
    bug: 'the signer trims the body (String.prototype.trim: white space, line ends, a BOM) (R3)',
    area: 'signing',
    module: bodyTrimmed,
    // contents whose body trim changes; and its verifier accepts the two messages signed without the body's final LF
    mustFail: or(and(contentCase, trimChanges), ids(...SIGNED_WITHOUT_FINAL_LF)),
    diagnosis: [{ mistake: 'body-trimmed', ops: SIGNING_DIAGNOSED }],
  },
  {
    name: 'latin1-content',
    bug: 'the signer encodes the content as Latin-1 instead of UTF-8 (§5.2, R3)',
    area: 'signing',
    module: latin1Content,
    mustFail: and(contentCase, nonAsciiContent),
    diagnosis: [
      { mistake: 'latin1', ops: SIGNING_DIAGNOSED, cases: not(beyondLatin1) },
      {
        mistake: 'latin1-low-byte',
        ops: SIGNING_DIAGNOSED,
        cases: beyondLatin1,
        note: "characters above U+00FF (a BOM, combining marks, CJK) keep the low byte of each UTF-16 unit in Node's latin1",
      },
    ],
  },
  {
    name: 'body-text-converted',
    bug: 'the signer signs the body decoded as text and encoded back (body.toString()): bytes that are not UTF-8 become U+FFFD (§5.1, R3)',
    area: 'signing',
    module: bodyTextConverted,
    // contents whose body is not UTF-8: the signature cases' content and sign, the genuine messages
    // (refused, one bit), and the signs over the converted body, which its verifier accepts
    mustFail: or(and(contentCase, notUtf8Body), ids(...SIGNED_OVER_FFFD)),
    diagnosis: [{ mistake: 'body-invalid-utf8-replaced-fffd', ops: SIGNING_DIAGNOSED }],
    note: "the vector's body is compact JSON, so body-reserialized-lossy builds the same content and is named too",
  },

  // header parsing: the parser is shared by authorization.parse and every verifier
  {
    name: 'header-by-position',
    bug: 'the header parser checks the four names are there, then reads the values by position in spec order (§5.3, R8)',
    area: 'header',
    module: headerByPosition,
    // headers a correct parser accepts whose items are not in the spec's order: valid and acceptable
    // parse cases (accepted with wrong values), and genuine messages (refused: the sign is read from another item)
    mustFail: (c) => {
      const header = headerOf(c);
      if (header === undefined || !itemsOutOfSpecOrder(header)) return false;
      // acceptable headers count where this SDK's lenient base parser (the kit's) accepts them:
      // where it refuses (white space beside "=", a duplicate after trimming) refusing passes
      return c.kind === 'authorization'
        ? c.result === 'valid' || (c.result === 'acceptable' && parseAuthorization(header).ok)
        : isGenuineMessage(c);
    },
    // the verifiers' failures are refusals of genuine messages (one bit); the parses return the values by position
    diagnosis: [{ mistake: 'items-by-position', ops: ['authorization.parse'] }],
  },
  {
    name: 'header-split-last-equals',
    bug: 'the header parser splits items at the last "=" instead of the first (R8)',
    area: 'header',
    module: headerSplitLastEquals,
    // valid headers with "=" inside a value: refused (signature cases: their request.verify)
    mustFail: and((c) => c.result === 'valid', equalsInValue),
    note: 'every failure is a refusal of a valid header (one bit): this parser leaves the "=" in the name, so the item is missing. The catalogue\'s value-split-at-last-equals explains the parser that keeps the name and returns a cut value instead.',
  },
  {
    name: 'header-duplicate-last-wins',
    bug: 'the header parser accepts a duplicated item, the last value winning (R8)',
    area: 'header',
    module: headerDuplicateLastWins,
    // webhook.header-duplicate-item repeats sign with a wrong LAST value: last-wins refuses it on the sign
    // authorization.duplicate-after-trim: this parser trims, so it sees appId twice and must refuse (R8 (a))
    mustFail: [
      'authorization.duplicate-appid-same-value',
      'authorization.duplicate-sign',
      'authorization.duplicate-timestamp',
      'authorization.duplicate-nonce',
      'redirect.header-duplicate-sign',
      'authorization.duplicate-after-trim',
    ],
    // the verifier's case names the header problem (malformed-authorization, header: duplicate-item), as the parser's does
    diagnosis: [{ mistake: 'accepts-duplicate-item', ops: ['authorization.parse', 'redirect.verify'] }],
  },
  {
    name: 'header-folded-first-wins',
    bug: 'the header parser folds item names (R8 (e)) but keeps the first of two names equal only after folding, instead of refusing (R8)',
    area: 'header',
    module: headerFoldedFirstWins,
    // authorization.duplicate-recased-twice (Sign=, SIGN=): a duplicate once folded, so it must refuse
    mustFail: ['authorization.duplicate-after-folding', 'authorization.duplicate-recased-twice'],
    diagnosis: [{ mistake: 'accepts-duplicate-item', ops: ['authorization.parse'] }],
  },
  {
    name: 'header-missing-as-empty',
    bug: 'the header parser takes a missing item as "" instead of refusing (R8)',
    area: 'header',
    module: headerMissingAsEmpty,
    // verifiers given a header with an item missing still refuse: the empty value breaks the sign
    mustFail: [
      'authorization.missing-appid',
      'authorization.missing-sign',
      'authorization.missing-timestamp',
      'authorization.missing-nonce',
      // a recased name (R8 (e)): a parser that compares names exactly sees the item missing and must refuse
      'authorization.name-recased-appid-folded-or-unknown',
      'authorization.name-snake-case-appid',
      'authorization.name-recased-nonce-folded-or-unknown',
      'authorization.names-upper-case',
      'authorization.duplicate-recased-twice',
      'authorization.name-long-s',
      'authorization.name-signature-for-sign',
      'authorization.name-ts-for-timestamp',
      'authorization.separator-semicolon',
      'authorization.separator-space',
      'authorization.separator-ampersand',
      // R8 variant cases: this parser keeps the white space before an item name or "=", so it sees
      // an item missing where a trimming parser would not; keeping it, it must refuse (R8 (a))
      'authorization.ws-before-equals',
      'authorization.ideographic-space-before-item',
      'authorization.bom-before-item',
      'authorization.tab-around-equals',
    ],
    diagnosis: [{ mistake: 'accepts-missing-item', ops: ['authorization.parse'] }],
  },

  // verification
  {
    name: 'app-id-not-checked',
    bug: "the verifier never compares the header's appId with the merchant's own (R9)",
    area: 'verification',
    module: appIdNotChecked,
    // the headers naming another appId over a sign made with the merchant's own credentials
    mustFail: [
      'request.app-id-swapped-own-signature',
      'response.app-id-swapped-own-signature',
      'webhook.app-id-swapped-own-signature',
      'redirect.app-id-swapped-own-signature',
    ],
    diagnosis: [
      {
        mistake: 'accepts-app-id-mismatch',
        ops: ['request.verify', 'response.verify', 'webhook.verify', 'redirect.verify'],
      },
    ],
    note: "the other app-id-mismatch cases are signed with the other merchant's secret: this verifier refuses them on the sign",
  },
  {
    name: 'response-any-status',
    bug: 'the client verifies responses of any status like a 200 (§5.4, R9)',
    area: 'verification',
    module: responseAnyStatus,
    // response.status-503-unsigned-error has no Authorization: refused anyway
    mustFail: ['response.status-400-signed-error', 'response.status-201-signed-success'],
    diagnosis: [{ mistake: 'accepts-status-not-verified', ops: ['response.verify'] }],
  },
  {
    name: 'response-reserialized',
    bug: 'the client verifies a response over its parsed and re-serialized JSON, not the raw bytes (§5.4)',
    area: 'verification',
    module: responseReserialized,
    // genuine responses whose bytes are not what JSON.stringify writes (refused), and the response signed
    // over its re-serialized body (accepted)
    // response.body-not-utf8 (issue 9): JSON.parse cannot give back bytes that are not UTF-8
    mustFail: [
      'response.pretty-printed-final-lf',
      'response.unicode-escapes-kept',
      'response.html-safe-escapes-kept',
      'response.crlf-pretty-printed',
      'response.signed-over-reserialized-body',
      'response.body-not-utf8',
    ],
    diagnosis: [{ mistake: 'body-reserialized', ops: ['response.verify'] }],
  },
  // beyond every vector: bodies over 8 KiB (the longest vector body is 4 KB); the properties catch them
  {
    name: 'large-body-lf-dropped',
    bug: 'the signer drops the LF after the body when the body is over 8 KiB (§5.1, R1)',
    area: 'signing',
    module: largeBodyLfDropped,
    mustFail: [],
    note: 'passes every vector; property.lf.content, property.lf.sign and property.verify.exact catch it (test/properties/properties.test.ts)',
  },
  {
    name: 'large-body-unverified',
    bug: 'the verifier skips the sign comparison for bodies over 8 KiB (§5.1–§5.4)',
    area: 'verification',
    module: largeBodyUnverified,
    mustFail: [],
    note: 'passes every vector; property.verify.exact catches it, over protocol v1 too (test/properties/properties.test.ts)',
  },
  {
    name: 'received-body-text-converted',
    bug: "the verifier converts the body it received to valid UTF-8 before verifying ('?' for bytes that are not UTF-8, PHP's mb_convert_encoding) (§5.4, R3)",
    area: 'verification',
    module: receivedBodyTextConverted,
    // genuine signs over a body that is not UTF-8: refused (one bit); signs over the body with '?' in place
    // of its bad bytes: accepted, and diagnosed (those with U+FFFD it refuses, rightly)
    mustFail: or(
      and(contentCase, (c) => c.result === 'valid', notUtf8Body),
      ids('signature.body-not-utf8-replaced-question-mark', 'webhook.signed-over-invalid-utf8-replaced-question-mark'),
    ),
    diagnosis: [
      {
        mistake: 'body-invalid-utf8-replaced-question-mark',
        ops: ['request.verify', 'webhook.verify'],
        cases: ids(
          'signature.body-not-utf8-replaced-question-mark',
          'webhook.signed-over-invalid-utf8-replaced-question-mark',
        ),
      },
    ],
  },

  // redirects
  {
    name: 'redirect-payment-encoded',
    bug: 'the redirect verifier verifies over the payment value still query-encoded, and returns it encoded (R11)',
    area: 'redirect',
    module: redirectPaymentEncoded,
    mustFail: or(
      and(isRedirect, (c) => c.result === 'valid', paymentEncoded),
      ids('redirect.signed-over-encoded-payment'),
    ),
    diagnosis: [{ mistake: 'payment-encoded', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-return-url-without-query',
    bug: "the redirect verifier drops the returnUrl's own query from part 4 (R11)",
    area: 'redirect',
    module: redirectReturnUrlWithoutQuery,
    mustFail: or(
      and(isRedirect, (c) => c.result === 'valid', hasQuery),
      ids('redirect.signed-without-return-url-query'),
    ),
    diagnosis: [{ mistake: 'returnurl-without-query', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-payment-returned-encoded',
    bug: 'the redirect verifier verifies over the decoded payment but returns the raw, encoded value (R11)',
    area: 'redirect',
    module: redirectPaymentReturnedEncoded,
    // every redirect it accepts, acceptable ones included (the payment text is checked whenever accepted)
    mustFail: and(isRedirect, (c) => c.result !== 'invalid', paymentEncoded),
    diagnosis: [{ mistake: 'payment-not-decoded', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-landed-url',
    bug: 'the redirect verifier puts the URL it landed on (its authorization parameter taken out) in part 4, not the returnUrl as submitted (§5.6, R11)',
    area: 'redirect',
    module: redirectLandedUrl,
    // every genuine redirect (refused: one bit), and the two signed over the landed URL, which it accepts
    mustFail: or(validRedirect, ids('redirect.signed-over-landed-url', 'redirect.signed-over-landed-url-own-query')),
    diagnosis: [{ mistake: 'landed-url', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-query-decoded-whole',
    bug: 'the redirect verifier decodes the whole query, then splits it at "&" and "=": an encoded "&" in the payment splits it (R11)',
    area: 'redirect',
    module: redirectQueryDecodedWhole,
    mustFail: or(and(validRedirect, wholeQueryDecodingChanges), ids('redirect.signed-over-whole-query-decoded')),
    diagnosis: [{ mistake: 'query-decoded-whole', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-payment-decoded-twice',
    bug: "the redirect verifier decodes the payment value again after the framework decoded it (PHP's urldecode($_GET['payment'])) (R11)",
    area: 'redirect',
    module: redirectPaymentDecodedTwice,
    mustFail: or(and(validRedirect, paymentChangesDecodedAgain), ids('redirect.signed-over-payment-decoded-twice')),
    diagnosis: [{ mistake: 'payment-decoded-twice', ops: ['redirect.verify'] }],
  },
  {
    name: 'redirect-plus-kept',
    bug: 'the redirect verifier decodes query values with decodeURIComponent alone: "+" stays "+" (R11)',
    area: 'redirect',
    module: redirectPlusKept,
    // valid redirects with a "+" in the payment or authorization value, and the two vectors signed over
    // the value with "+" kept (payment) or carrying an unencoded "+" (nonce), which it accepts
    mustFail: or(
      and(
        isRedirect,
        (c) => c.result === 'valid',
        (c) => [redirectParam(c, 'payment'), redirectParam(c, 'authorization')].some((v) => v?.includes('+')),
      ),
      ids('redirect.signed-with-plus-kept', 'redirect.nonce-plus-unencoded'),
    ),
    // the refusals are one bit; the two accepted ones are signed with "+" kept in the payment and in the nonce
    diagnosis: [
      {
        mistake: 'payment-plus-kept',
        ops: ['redirect.verify'],
        cases: (c) => redirectParam(c, 'payment')?.includes('+') ?? false,
      },
      {
        mistake: 'authorization-plus-kept',
        ops: ['redirect.verify'],
        cases: (c) => redirectParam(c, 'authorization')?.includes('+') ?? false,
      },
    ],
  },

  // the upload
  {
    name: 'upload-file-first',
    bug: 'the upload form puts the file part first, the formFields after it (§4.2, R14)',
    area: 'upload',
    module: uploadFileFirst,
    mustFail: (c) => c.kind === 'upload' && c.op === 'upload.form',
    diagnosis: [{ mistake: 'file-not-last', ops: ['upload.form'] }],
  },
  {
    name: 'upload-known-fields-only',
    bug: 'the upload form keeps only bucket, key, Content-Type, tagging, policy and x-amz-* entries (§4.2, R14, R15)',
    area: 'upload',
    module: uploadKnownFieldsOnly,
    mustFail: ['upload.form-oss-vendor-prefix', 'upload.form-unknown-entries', 'upload.form-integer-like-entry-names'],
    diagnosis: [{ mistake: 'field-missing', ops: ['upload.form'] }],
  },
  {
    name: 'upload-utf16-length',
    bug: 'upload.validate counts lengths in UTF-16 code units, not code points (R13)',
    area: 'upload',
    module: uploadUtf16Length,
    // 32 emoji: 64 code units. The other code-point cases are BMP text or already over the limit.
    mustFail: ['upload.filename-32-code-points-emoji'],
    // a refusal, diagnosed from the case: the filename is within 32 code points, over 32 UTF-16 units
    diagnosis: [{ mistake: 'utf16-length', ops: ['upload.validate'], refusals: true }],
  },
];

/**
 * Whether a selector selects a case.
 * @param selector - ids or a predicate
 * @param c - the case
 * @returns true when selected
 */
export function selects(selector: CaseSelector, c: VectorCase): boolean {
  return typeof selector === 'function' ? selector(c) : selector.includes(c.id);
}
