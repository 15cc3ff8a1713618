/**
 * The merchant zoo: broken merchants, one realistic bug each, the way developers of each
 * language write it. Node members are the sample merchant (examples/sample-merchant) with ONE
 * step swapped; Python members are one merchant written from the docs alone
 * (python/merchant.py) with MERCHANT_MISTAKE switching on one bug. Certification must refuse
 * each at every seed, its first reason naming `mistake` — written here by the member's author,
 * never taken from the kit.
 */
import { fileURLToPath } from 'node:url';
import type { MerchantOptions, RunningMerchant } from '../../../examples/sample-merchant/merchant.mjs';
import { startMerchantProcess } from '../../_merchant-process.js';
import * as acceptsEverything from './accepts-everything.js';
import * as decodedTwice from './decoded-twice.js';
import * as emptySign from './empty-sign.js';
import * as encodedPayment from './encoded-payment.js';
import * as firstPayment from './first-payment.js';
import * as fixedOrder from './fixed-order.js';
import * as landedUrl from './landed-url.js';
import * as lastPayment from './last-payment.js';
import * as prefixSign from './prefix-sign.js';
import * as requestUrl from './request-url.js';
import * as reserializedBody from './reserialized-body.js';
import * as strictFields from './strict-fields.js';
import * as uncheckedAppId from './unchecked-appid.js';
import * as uncheckedRedirect from './unchecked-redirect.js';

export interface ZooMerchant {
  /** short id, unique per language: a Node member's file name, a Python member's MERCHANT_MISTAKE */
  readonly name: string;
  readonly language: 'node' | 'python';
  /** the bug, in one line */
  readonly bug: string;
  /** the known mistake (docs/mistakes/<id>.md) the certification's first reason and the run's first cause name, at every seed */
  readonly mistake: string;
  /** other known mistakes a reason of the certification must name (a bug that is two mistakes at once) */
  readonly alsoNamed?: readonly string[];
  start(options: MerchantOptions): Promise<RunningMerchant>;
}

/** The Python zoo's one merchant (correct without MERCHANT_MISTAKE). */
export const PYTHON_MERCHANT = fileURLToPath(new URL('./python/merchant.py', import.meta.url));
const python = (mistake: string) => (options: MerchantOptions) =>
  startMerchantProcess('python3', [PYTHON_MERCHANT], options, { MERCHANT_MISTAKE: mistake });

export const ZOO_MERCHANTS: readonly ZooMerchant[] = [
  {
    name: 'accepts-everything',
    language: 'node',
    bug: 'accepts every webhook and every redirect without checking',
    mistake: 'accepts-sign-mismatch',
    start: acceptsEverything.startDefectiveMerchant,
  },
  {
    name: 'reserialized-body',
    language: 'node',
    bug: 'express.json() before verifying: the webhook verified over JSON.stringify(req.body), not the raw bytes',
    mistake: 'body-reserialized',
    start: reserializedBody.startDefectiveMerchant,
  },
  {
    name: 'request-url',
    language: 'node',
    bug: 'uses the URL the webhook arrived on as part 4 instead of the registered notifyUrl',
    mistake: 'delivery-url',
    start: requestUrl.startDefectiveMerchant,
  },
  {
    name: 'strict-fields',
    language: 'node',
    bug: 'refuses webhook payloads with fields outside a fixed list',
    mistake: 'refuses-unknown-fields',
    start: strictFields.startDefectiveMerchant,
  },
  {
    name: 'unchecked-redirect',
    language: 'node',
    bug: 'does not verify the return redirect at all',
    mistake: 'accepts-sign-mismatch',
    start: uncheckedRedirect.startDefectiveMerchant,
  },
  {
    name: 'encoded-payment',
    language: 'node',
    bug: 'verifies the redirect over the still percent-encoded payment value',
    mistake: 'payment-encoded',
    start: encodedPayment.startDefectiveMerchant,
  },
  {
    name: 'decoded-twice',
    language: 'node',
    bug: 'decodes the payment value of the redirect twice before verifying (a framework decodes it, then urldecode again)',
    mistake: 'payment-decoded-twice',
    start: decodedTwice.startDefectiveMerchant,
  },
  {
    name: 'landed-url',
    language: 'node',
    bug: 'uses the URL it landed on, gateway-added parameters included, as part 4 of the redirect',
    mistake: 'landed-url',
    start: landedUrl.startDefectiveMerchant,
  },
  {
    name: 'fixed-order',
    language: 'node',
    bug: 'reads the Authorization items by position (appId, sign, timestamp, nonce), not by name',
    mistake: 'items-by-position',
    start: fixedOrder.startDefectiveMerchant,
  },
  {
    name: 'prefix-sign',
    language: 'node',
    bug: "compares the sign case-insensitively over the length of the sign it received (PHP's strncasecmp, Java's startsWith)",
    mistake: 'sign-compared-as-prefix',
    start: prefixSign.startDefectiveMerchant,
  },
  {
    name: 'empty-sign',
    language: 'node',
    bug: 'compares over the received length and never refuses an empty value: sign= gets every forged call in',
    mistake: 'sign-compared-as-prefix',
    alsoNamed: ['accepts-empty-value'],
    start: emptySign.startDefectiveMerchant,
  },
  {
    name: 'last-payment',
    language: 'node',
    bug: "reads the redirect's parameters as PHP's $_GET does, the last occurrence of a repeated one",
    mistake: 'accepts-redirect-parameter',
    start: lastPayment.startDefectiveMerchant,
  },
  {
    name: 'first-payment',
    language: 'node',
    bug: "reads the redirect's parameters as Go's r.URL.Query().Get and URLSearchParams.get do, the first occurrence of a repeated one",
    mistake: 'accepts-redirect-parameter',
    start: firstPayment.startDefectiveMerchant,
  },
  {
    name: 'unchecked-appid',
    language: 'node',
    bug: 'never compares the appId of the Authorization header with its own',
    mistake: 'accepts-app-id-mismatch',
    start: uncheckedAppId.startDefectiveMerchant,
  },
  // Python: one merchant from the docs, one bug switched on per member (python/merchant.py). It has seven more
  // (args-last, json-dumps-compact, raw-payment, landed-url, unverified-return, host-header-url,
  // items-by-position): the Node members above make the same mistakes, so they are left out of the suite's time
  {
    name: 'args-get-first',
    language: 'python',
    bug: "reads the redirect's parameters Flask-style, parse_qs(q)['payment'][0]: the first occurrence, never checked to be the only one",
    mistake: 'accepts-redirect-parameter',
    start: python('args-get-first'),
  },
  {
    name: 'json-dumps',
    language: 'python',
    bug: 'verifies the webhook over json.dumps(json.loads(raw)) (Python\'s defaults: ", " and ": ", \\u escapes)',
    mistake: 'body-reserialized',
    start: python('json-dumps'),
  },
  {
    name: 'strip-body',
    language: 'python',
    bug: 'verifies the webhook over the body .strip()ped',
    mistake: 'body-trimmed',
    start: python('strip-body'),
  },
  {
    name: 'utf8-sig',
    language: 'python',
    bug: 'decodes the body with "utf-8-sig" (a BOM dropped) and re-encodes it before verifying',
    mistake: 'body-bom-dropped',
    start: python('utf8-sig'),
  },
  {
    name: 'unquote-twice',
    language: 'python',
    bug: 'decodes the payment value with parse_qs and then unquote_plus again',
    mistake: 'payment-decoded-twice',
    start: python('unquote-twice'),
  },
  {
    name: 'empty-skips-check',
    language: 'python',
    bug: "PHP's if (!empty($sign) && !hash_equals($expected, $sign)) fail; ported: an empty sign skips the comparison",
    mistake: 'accepts-empty-value',
    start: python('empty-skips-check'),
  },
  {
    name: 'strict-model',
    language: 'python',
    bug: 'checks the webhook payload against a closed model (pydantic extra="forbid"): an unknown field refused',
    mistake: 'refuses-unknown-fields',
    start: python('strict-model'),
  },
  {
    name: 'startswith',
    language: 'python',
    bug: 'compares the sign with expected.startswith(sign.lower()) (an empty sign refused apart)',
    mistake: 'sign-compared-as-prefix',
    start: python('startswith'),
  },
  {
    name: 'no-appid-check',
    language: 'python',
    bug: "never compares the header's appId with its own, on either endpoint",
    mistake: 'accepts-app-id-mismatch',
    start: python('no-appid-check'),
  },
];
