/**
 * Builds the HTTP call of one merchant-role case (vectors/merchant/): a webhook POST or a
 * return-redirect GET, signed correctly with the merchant's credentials and registered URLs
 * (R10, R11), then changed in the ways the case's inputs state. Payloads and nonces come from
 * a PRNG seeded by the run's seed and the case id, so a case's call does not change when other
 * cases are added; the clock is the builder's. Each call comes with what the readings allow a
 * merchant to do with it ({@link readingsExpectation}), which the merchant check holds the
 * case's expectation to.
 * @module
 */
import { createHash } from 'node:crypto';
import type { ItemName } from '../../../scheme/authorization.js';
import { decodeQueryComponent } from '../../../scheme/redirect.js';
import { contentHead } from '../../../scheme/content.js';
import { maskSecret } from '../../../scheme/mask.js';
import { sign } from '../../../scheme/sign.js';
import { changeLastDigit } from '../../../scheme/tamper.js';
import type { MerchantInputs, MerchantOperation } from '../../../vectors/types.js';
import { writeAuthorization, type ForgeryValues } from './authorization-forms.js';
import { readingsExpectation, type ReadingsExpectation } from './expectation.js';
import { RESERIALIZE } from './reserialize.js';
import { compactJson, createRng, makePayment, nonCanonicalJson, webhookPayload, type Rng } from './payloads.js';
import type { HttpCall, MerchantTarget, SignedParts } from './target.js';

export type { HttpCall, MerchantTarget, SignedParts } from './target.js';

/** A built call and what the readings allow, or why the case cannot be made with these URLs. */
export type BuiltCall =
  { readonly call: HttpCall; readonly readings: ReadingsExpectation } | { readonly notApplicable: string };

/** What a case gives the builder. */
export interface CallSpec {
  readonly id: string;
  readonly op: MerchantOperation;
  readonly inputs: MerchantInputs;
}

/** Builds the calls of a run; remembers them, so a replay sends an earlier call again. */
export interface CallBuilder {
  build(spec: CallSpec): BuiltCall;
}

/** Age of the "old timestamp" replay calls (R12): seven days. */
export const OLD_TIMESTAMP_MS = 7 * 24 * 3600 * 1000;

/**
 * Creates the builder of a run.
 * @param target - the merchant
 * @param seed - the run's seed
 * @param now - the clock put in the timestamps (milliseconds)
 * @returns the builder
 * @example
 * createCallBuilder({ appId, appSecret, notifyUrl, returnUrl }, 1, Date.now()).build(
 *   vectorCase('merchant.webhook.valid.1'),
 * ).readings // 'accept'
 */
export function createCallBuilder(target: MerchantTarget, seed: number, now: number): CallBuilder {
  const built = new Map<string, HttpCall>();
  return {
    build(spec) {
      let result: BuiltCall;
      if (spec.inputs.replayOf !== undefined) {
        const earlier = built.get(spec.inputs.replayOf);
        if (!earlier)
          return {
            notApplicable: `the call of ${spec.inputs.replayOf} was not sent in this run, so it cannot be sent again`,
          };
        result = { call: earlier, readings: readingsExpectation(earlier, target) };
      } else {
        const b = new Builder(target, createRng(caseSeed(seed, spec.id)), now);
        const made = spec.op === 'merchant.webhook' ? b.webhook(spec.inputs) : b.redirect(spec.inputs);
        if (typeof made === 'string') return { notApplicable: made };
        result = { call: made, readings: readingsExpectation(made, target) };
      }
      built.set(spec.id, result.call);
      return result;
    },
  };
}

/**
 * The PRNG seed of one case: the run's seed and the case id, hashed.
 * @param seed - the run's seed
 * @param id - the case id
 * @returns an unsigned 32-bit integer
 * @example caseSeed(1, 'merchant.webhook.valid.1') === caseSeed(1, 'merchant.webhook.valid.1') // true
 */
export function caseSeed(seed: number, id: string): number {
  return createHash('sha256').update(`${seed}:${id}`).digest().readUInt32BE(0);
}

/**
 * Appends parameters to a URL as the gateway does (R11): `?` or `&`, then name=value pairs.
 * @param base - the URL
 * @param params - names and values, in order
 * @param encoding - form (`+` for space) or percent (`%20`)
 * @returns the URL with the parameters
 * @example addQuery('https://m.test/r?a=1', [['b', 'x y']], 'form') // 'https://m.test/r?a=1&b=x+y'
 */
export function addQuery(
  base: string,
  params: ReadonlyArray<readonly [string, string]>,
  encoding: 'form' | 'percent',
): string {
  const enc = encoding === 'form' ? formEncode : encodeURIComponent;
  const query = params.map(([n, v]) => `${enc(n)}=${enc(v)}`).join('&');
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}${query}`;
}

// --- internal ---

function formEncode(s: string): string {
  return new URLSearchParams([['', s]]).toString().slice(1);
}

/** What `sent.body` does to the body after signing. */
const SENT_BODY: Record<NonNullable<NonNullable<MerchantInputs['sent']>['body']>, (text: string) => string> = {
  'one-digit': changeLastDigit,
  'trailing-lf': (text) => `${text}\n`,
  'white-space': (text) => text.replace(':', ': '),
  padded: (text) => ` ${text} `,
  bom: (text) => `\uFEFF${text}`,
};

/** Part 7's payment value when the signature covers another text than the decoded value. */
const SIGNED_PAYMENT: Record<
  NonNullable<NonNullable<MerchantInputs['signed']>['payment']>,
  (payment: string) => string
> = {
  'still-encoded': formEncode,
  're-encoded': encodeURIComponent,
  'decoded-once-more': (payment) => decodeQueryComponent(payment) ?? `${payment} `,
};

/** A parameter once, or twice (the genuine value and a forged one, in the order asked). */
function twice(
  name: string,
  genuine: string,
  forged: string,
  order: 'forged-first' | 'genuine-first' | undefined,
): Array<[string, string]> {
  if (order === undefined) return [[name, genuine]];
  return order === 'forged-first'
    ? [
        [name, forged],
        [name, genuine],
      ]
    : [
        [name, genuine],
        [name, forged],
      ];
}

class Builder {
  private readonly otherAppId: string;
  constructor(
    private readonly t: MerchantTarget,
    private readonly rng: Rng,
    private readonly now: number,
  ) {
    this.otherAppId = `${t.appId}X`;
  }

  /**
   * The items of a signature over these parts, with the signed changes the inputs ask for, and
   * the other values a forged Authorization may use (`otherBody`: the part 7 of another message).
   */
  private items(
    signed: MerchantInputs['signed'],
    method: 'GET' | 'POST',
    url: string,
    body: string,
    otherBody: string,
  ): { items: Record<ItemName, string>; values: ForgeryValues; parts: SignedParts } {
    const appId = signed?.appId ? this.otherAppId : this.t.appId;
    const timestamp = String(signed?.timestamp ? this.now - OLD_TIMESTAMP_MS : this.now);
    const nonce = this.rng.word(24);
    const appSecret = signed?.secret ? `${this.t.appSecret}-wrong` : this.t.appSecret;
    const parts = { appId, appSecret, method, url, timestamp, nonce };
    // otherNonce has a "-", which no signed nonce (letters and digits) has: never the genuine one
    const values = {
      otherAppId: this.otherAppId,
      otherContentSign: sign({ ...parts, body: otherBody }),
      otherNonce: `${this.rng.word(23)}-`,
    };
    // what the signature covers, for a report of a failing call: the secret never written out
    const content = `${contentHead({ ...parts, appSecret: maskSecret(appSecret), body })}${body}\n`;
    return {
      items: { appId, sign: sign({ ...parts, body }), timestamp, nonce },
      values,
      parts: { registered: method === 'POST' ? this.t.notifyUrl : this.t.returnUrl, url, body, content },
    };
  }

  webhook(i: MerchantInputs): HttpCall | string {
    const deliverTo = this.t.deliverTo ?? this.t.notifyUrl;
    if (i.signed?.url === 'delivery' && deliverTo === this.t.notifyUrl)
      return 'the delivery URL is the notifyUrl (give --deliver-to to make this check)';
    const payload = webhookPayload(this.rng, {
      ...(i.payment?.unknownFields ? { unknown: true } : {}),
      ...(i.payment?.attach !== undefined ? { attach: i.payment.attach } : {}),
    });
    const text = i.json === 'non-canonical' ? nonCanonicalJson(payload) : compactJson(payload);
    const signedBody = i.signed?.body ? RESERIALIZE[i.signed.body](JSON.parse(text)) : text;
    const { items, values, parts } = this.items(
      i.signed,
      'POST',
      i.signed?.url === 'delivery' ? deliverTo : this.t.notifyUrl,
      signedBody,
      changeLastDigit(signedBody),
    );
    const authorization = writeAuthorization(items, i.authorization, values);
    const headers: Array<[string, string]> = [['content-type', 'application/json; charset=utf-8']];
    if (authorization !== undefined) headers.push(['authorization', authorization]);
    return {
      method: 'POST',
      url: deliverTo,
      headers,
      body: i.sent?.body ? SENT_BODY[i.sent.body](text) : text,
      signed: parts,
    };
  }

  redirect(i: MerchantInputs): HttpCall {
    const p = makePayment(this.rng, i.payment?.attach);
    const payment = compactJson(p);
    const added: Array<[string, string]> = [
      ['paymentNo', p.paymentNo],
      ['merchantTradeNo', p.merchantTradeNo],
    ];
    const signedUrl =
      i.signed?.url === 'with-added-params'
        ? addQuery(this.t.returnUrl, [...added, ['payment', payment]], 'form')
        : i.signed?.url === 'with-ids'
          ? addQuery(this.t.returnUrl, added, 'form')
          : this.t.returnUrl;
    const signedPayment = i.signed?.payment ? SIGNED_PAYMENT[i.signed.payment](payment) : payment;
    const { items, values, parts } = this.items(
      i.signed,
      'GET',
      signedUrl,
      `payment=${signedPayment}`,
      `payment=${changeLastDigit(payment)}`,
    );
    const authorization = writeAuthorization(items, i.authorization, values);
    const forged = changeLastDigit(payment);
    const sent = i.sent?.payment ? forged : payment;
    const params: Array<[string, string]> = [...added, ...twice('payment', sent, forged, i.sent?.paymentTwice)];
    if (authorization !== undefined) {
      const forgedAuthorization = writeAuthorization(items, { ...i.authorization, sign: 'last-digit' }, values) ?? '';
      params.push(...twice('authorization', authorization, forgedAuthorization, i.sent?.authorizationTwice));
    }
    return {
      method: 'GET',
      url: addQuery(this.t.returnDeliverTo ?? this.t.returnUrl, params, i.encoding ?? 'form'),
      headers: [],
      signed: parts,
    };
  }
}
