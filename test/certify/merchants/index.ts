/**
 * The defective merchants: each is the sample merchant (examples/sample-merchant) with ONE
 * bug a real merchant makes. `requirement` is the requirement it must fail, written as data
 * so the certification engine can map it onto its own requirement names.
 */
import type { MerchantOptions, RunningMerchant } from '../../../examples/sample-merchant/merchant.mjs';
import * as acceptsEverything from './accepts-everything.js';
import * as decodedTwice from './decoded-twice.js';
import * as emptySign from './empty-sign.js';
import * as encodedPayment from './encoded-payment.js';
import * as fixedOrder from './fixed-order.js';
import * as landedUrl from './landed-url.js';
import * as lastPayment from './last-payment.js';
import * as prefixSign from './prefix-sign.js';
import * as requestUrl from './request-url.js';
import * as reserializedBody from './reserialized-body.js';
import * as strictFields from './strict-fields.js';
import * as uncheckedAppId from './unchecked-appid.js';
import * as uncheckedRedirect from './unchecked-redirect.js';

export const REQUIREMENTS = [
  'webhook: accepts genuine calls',
  'webhook: refuses forged calls',
  'webhook: notifyUrl as registered (R10)',
  'webhook: unknown fields (R15)',
  'redirect: accepts genuine redirects',
  'redirect: refuses forged redirects',
  'header: item order (R8)',
  'appId check (R9)',
] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

export interface DefectiveMerchant {
  /** short id, also the module's file name */
  name: string;
  /** the bug, in one line */
  bug: string;
  /** the requirement the certification must report as failed */
  requirement: Requirement;
  /** the known mistake (docs/mistakes/<id>.md) the certification's first reason must name, at every seed */
  mistake?: string;
  /** the known mistake the run's triage must name as the first cause of the merchant's failures (a merchant is a black box: named by the pattern of its answers) */
  diagnosed?: string;
  start(options: MerchantOptions): Promise<RunningMerchant>;
}

export const DEFECTIVE_MERCHANTS: readonly DefectiveMerchant[] = [
  { name: 'accepts-everything', bug: 'accepts every webhook and every redirect without checking', requirement: 'webhook: refuses forged calls', diagnosed: 'accepts-sign-mismatch', start: acceptsEverything.startDefectiveMerchant },
  { name: 'reserialized-body', bug: 'verifies the webhook over JSON.stringify(JSON.parse(body)) instead of the raw bytes', requirement: 'webhook: accepts genuine calls', diagnosed: 'body-reserialized', start: reserializedBody.startDefectiveMerchant },
  { name: 'request-url', bug: 'uses the URL the webhook arrived on as part 4 instead of the registered notifyUrl', requirement: 'webhook: notifyUrl as registered (R10)', diagnosed: 'delivery-url', start: requestUrl.startDefectiveMerchant },
  { name: 'strict-fields', bug: 'refuses webhook payloads with fields outside a fixed list', requirement: 'webhook: unknown fields (R15)', start: strictFields.startDefectiveMerchant },
  { name: 'unchecked-redirect', bug: 'does not verify the return redirect at all', requirement: 'redirect: refuses forged redirects', diagnosed: 'accepts-sign-mismatch', start: uncheckedRedirect.startDefectiveMerchant },
  { name: 'encoded-payment', bug: 'verifies the redirect over the still percent-encoded payment value', requirement: 'redirect: accepts genuine redirects', diagnosed: 'payment-encoded', start: encodedPayment.startDefectiveMerchant },
  { name: 'decoded-twice', bug: 'decodes the payment value of the redirect twice before verifying (a framework decodes it, then urldecode again)', requirement: 'redirect: accepts genuine redirects', diagnosed: 'payment-decoded-twice', start: decodedTwice.startDefectiveMerchant },
  { name: 'landed-url', bug: 'uses the URL it landed on, gateway-added parameters included, as part 4 of the redirect', requirement: 'redirect: accepts genuine redirects', start: landedUrl.startDefectiveMerchant },
  { name: 'fixed-order', bug: 'reads the Authorization items by position (appId, sign, timestamp, nonce), not by name', requirement: 'header: item order (R8)', start: fixedOrder.startDefectiveMerchant },
  { name: 'prefix-sign', bug: 'compares the sign case-insensitively over the length of the sign it received (strncasecmp, startsWith)', requirement: 'webhook: refuses forged calls', mistake: 'sign-compared-as-prefix', diagnosed: 'sign-compared-as-prefix', start: prefixSign.startDefectiveMerchant },
  { name: 'empty-sign', bug: 'compares over the received length and never refuses an empty value: sign= gets every forged call in', requirement: 'webhook: refuses forged calls', mistake: 'accepts-empty-value', start: emptySign.startDefectiveMerchant },
  { name: 'last-payment', bug: "reads the redirect's parameters as PHP's $_GET does, the last occurrence of a repeated one", requirement: 'redirect: refuses forged redirects', mistake: 'accepts-redirect-parameter', diagnosed: 'accepts-redirect-parameter', start: lastPayment.startDefectiveMerchant },
  { name: 'unchecked-appid', bug: 'never compares the appId of the Authorization header with its own', requirement: 'appId check (R9)', start: uncheckedAppId.startDefectiveMerchant },
];
