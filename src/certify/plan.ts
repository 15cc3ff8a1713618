/**
 * The certification plan: the requirements a merchant's endpoints must meet, as data.
 * Each requirement names its spec sections and readings and holds its checks; each
 * check is one exact HTTP call and what the merchant must do with it. The plan is
 * built deterministically from the seed, the credentials, the URLs and the clock.
 * @module
 */
import { createHash } from 'node:crypto';
import { formatAuthorization, ITEM_NAMES, type ItemName } from '../scheme/authorization.js';
import { sign } from '../scheme/sign.js';
import { checkExpectations } from './expectation.js';
import { compactJson, createRng, makePayment, NON_ASCII_TEXTS, nonCanonicalJson, QUERY_HOSTILE_TEXTS, webhookPayload, type Rng } from './payloads.js';
import type { HttpCall, Plan, PlanOptions, PlannedCheck, Requirement } from './plan-types.js';

export type { Expectation, HttpCall, Plan, PlanOptions, PlannedCheck, Requirement } from './plan-types.js';

/** The clock the plan hash is computed at: the hash does not depend on the time of the run. */
export const REFERENCE_TIME = 1_767_225_600_000;

/** Age of the "old timestamp" replay calls (R12): seven days. */
export const OLD_TIMESTAMP_MS = 7 * 24 * 3600 * 1000;

/**
 * Builds the plan.
 * @param options - credentials, URLs, seed
 * @param now - the clock (milliseconds) put in the timestamps
 * @returns the requirements and their checks, in the order they are sent
 * @example buildPlan({ appId, appSecret, notifyUrl, returnUrl, seed: 1 }, Date.now()).requirements.length
 */
export function buildPlan(options: PlanOptions, now: number): Plan {
  const rng = createRng(options.seed);
  const b = new Builder(options, rng, now);
  return checkExpectations({ seed: options.seed, requirements: [...webhookRequirements(b), ...redirectRequirements(b)] }, options);
}

/**
 * The "hash of the cases used": SHA-256 (hex) of the plan built at {@link REFERENCE_TIME},
 * with a delivery URL that differs from the registered one replaced by a fixed stand-in.
 * It depends on the seed, the credentials and the registered URLs, never on the time of
 * the run nor on where the calls are delivered (a local port).
 * @param options - as for {@link buildPlan}
 * @returns 64 hex digits
 * @example planHash(options) === planHash(options) // true
 */
export function planHash(options: PlanOptions): string {
  const stable: PlanOptions = {
    ...options,
    deliverTo: options.deliverTo !== undefined && options.deliverTo !== options.notifyUrl ? 'https://delivery.invalid/webhook' : options.notifyUrl,
    returnDeliverTo: options.returnDeliverTo !== undefined && options.returnDeliverTo !== options.returnUrl ? 'https://delivery.invalid/return' : options.returnUrl,
  };
  return createHash('sha256').update(JSON.stringify(buildPlan(stable, REFERENCE_TIME))).digest('hex');
}

// --- internal ---

interface SignInput {
  readonly appId?: string;
  readonly appSecret?: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body: string;
  readonly timestamp?: string;
}

class Builder {
  readonly webhookUrl: string;
  readonly redirectBase: string;
  constructor(
    readonly o: PlanOptions,
    readonly rng: Rng,
    readonly now: number,
  ) {
    this.webhookUrl = o.deliverTo ?? o.notifyUrl;
    this.redirectBase = o.returnDeliverTo ?? o.returnUrl;
  }

  nonce(): string {
    return this.rng.word(24);
  }

  /** The items of a correct signature over the given parts (any part may be overridden). */
  items(input: SignInput): Record<ItemName, string> {
    const appId = input.appId ?? this.o.appId;
    const timestamp = input.timestamp ?? String(this.now);
    const nonce = this.nonce();
    const s = sign({ appId, appSecret: input.appSecret ?? this.o.appSecret, method: input.method, url: input.url, timestamp, nonce, body: input.body });
    return { appId, sign: s, timestamp, nonce };
  }

  webhook(body: string, authorization: string | undefined): HttpCall {
    const headers: Array<[string, string]> = [['content-type', 'application/json; charset=utf-8']];
    if (authorization !== undefined) headers.push(['authorization', authorization]);
    return { method: 'POST', url: this.webhookUrl, headers, body };
  }

  /** A webhook signed correctly over `body` (the notifyUrl as part 4), with `change` applied to the items. */
  signedWebhook(body: string, change: (items: Record<ItemName, string>) => string = (i) => formatAuthorization(i)): HttpCall {
    return this.webhook(body, change(this.items({ method: 'POST', url: this.o.notifyUrl, body })));
  }

  redirect(payment: string, authorization: string | undefined, encoding: 'form' | 'percent', paymentNo: string, tradeNo: string): HttpCall {
    const params: Array<[string, string]> = [['paymentNo', paymentNo], ['merchantTradeNo', tradeNo], ['payment', payment]];
    if (authorization !== undefined) params.push(['authorization', authorization]);
    return { method: 'GET', url: addQuery(this.redirectBase, params, encoding), headers: [] };
  }
}

/** Appends parameters to a URL as the gateway does (R11): `?` or `&`, then name=value pairs. */
export function addQuery(base: string, params: ReadonlyArray<readonly [string, string]>, encoding: 'form' | 'percent'): string {
  const enc = encoding === 'form' ? (s: string) => new URLSearchParams([['', s]]).toString().slice(1) : encodeURIComponent;
  const query = params.map(([n, v]) => `${enc(n)}=${enc(v)}`).join('&');
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}${query}`;
}

function changeOneByte(body: string): string {
  const at = body.search(/[0-9](?=[^0-9]*$)/);
  if (at < 0) return `${body} `;
  return `${body.slice(0, at)}${(Number(body[at]) + 1) % 10}${body.slice(at + 1)}`;
}

function flipHex(s: string): string {
  const c = s[10] === '0' ? '1' : '0';
  return `${s.slice(0, 10)}${c}${s.slice(11)}`;
}

function req(id: string, title: string, sections: string[], readings: string[], checks: PlannedCheck[]): Requirement {
  return { id, title, sections, readings, checks };
}

function webhookRequirements(b: Builder): Requirement[] {
  const body = (unknown = false, attach?: string) => compactJson(webhookPayload(b.rng, { unknown, ...(attach ? { attach } : {}) }));
  const valid1 = b.signedWebhook(body());
  const valid2 = b.signedWebhook(body());
  const orders: ItemName[][] = [['nonce', 'timestamp', 'sign', 'appId'], ['sign', 'appId', 'nonce', 'timestamp'], ['timestamp', 'nonce', 'appId', 'sign']];
  const nonCanonical = nonCanonicalJson(webhookPayload(b.rng, { unknown: true, attach: NON_ASCII_TEXTS[1] }));
  const reserialized = nonCanonicalJson(webhookPayload(b.rng, { unknown: true }));
  const deliveryDiffers = b.webhookUrl !== b.o.notifyUrl;
  const wrongAppId = `${b.o.appId}X`;

  return [
    req('webhook.valid', 'Valid signed webhooks are accepted', ['§5.5', '§6'], ['R10'], [
      { id: 'webhook.valid.1', title: 'signed POST, compact JSON of the §2.5 payment fields', expect: 'accept', call: valid1 },
      { id: 'webhook.valid.2', title: 'another signed POST, compact JSON', expect: 'accept', call: valid2 },
    ]),
    req('webhook.header-order', 'Authorization items in any order are accepted', ['§5.3'], ['R8'], orders.map((order) => ({
      id: `webhook.header-order.${order.join('-')}`,
      title: `items in the order ${order.join(', ')}`,
      expect: 'accept' as const,
      call: b.signedWebhook(body(), (i) => formatAuthorization(i, order)),
    }))),
    req('webhook.additions', 'Payloads with fields nobody has seen before are accepted', ['§5.5', '§6'], ['R15'], [
      { id: 'webhook.additions.compact', title: 'unknown fields (nested object, null, array, empty string), compact JSON', expect: 'accept', call: b.signedWebhook(body(true)) },
    ]),
    req('webhook.non-ascii', 'Non-ASCII text is signed and verified as UTF-8 bytes', ['§5.1', '§5.2'], ['R3'], NON_ASCII_TEXTS.slice(0, 3).map((text, n) => ({
      id: `webhook.non-ascii.${n + 1}`,
      title: `merchantAttach ${JSON.stringify(text)} as raw UTF-8`,
      expect: 'accept' as const,
      call: b.signedWebhook(body(n === 0, text)),
    }))),
    req('webhook.raw-bytes', 'Verification uses the original body bytes (non-canonical JSON accepted)', ['§5.4', '§5.5'], ['R1', 'R3', 'R15'], [
      { id: 'webhook.raw-bytes.non-canonical', title: 'keys reversed, tabs and spaces, \\u escapes, final LF', expect: 'accept', call: b.signedWebhook(nonCanonical) },
    ]),
    req('webhook.body-changed', 'A body changed after signing is refused', ['§5.1', '§5.5'], ['R3'], [
      (() => {
        const text = body();
        const call = b.signedWebhook(text);
        return { id: 'webhook.body-changed.one-byte', title: 'one digit of the body changed after signing', expect: 'refuse' as const, call: { ...call, body: changeOneByte(text) } };
      })(),
    ]),
    req('webhook.reserialized', 'A signature over the re-serialized body is refused', ['§5.4', '§5.5'], ['R3'], [
      {
        id: 'webhook.reserialized.compact',
        title: 'non-canonical body sent, signature over its compact re-serialization',
        expect: 'refuse',
        call: b.webhook(reserialized, formatAuthorization(b.items({ method: 'POST', url: b.o.notifyUrl, body: compactJson(JSON.parse(reserialized)) }))),
      },
    ]),
    req('webhook.wrong-sign', 'A wrong sign is refused', ['§5.2', '§5.5'], [], [
      (() => {
        const text = body();
        return { id: 'webhook.wrong-sign.secret', title: 'signed with another secret', expect: 'refuse' as const, call: b.webhook(text, formatAuthorization(b.items({ method: 'POST', url: b.o.notifyUrl, body: text, appSecret: `${b.o.appSecret}-wrong` }))) };
      })(),
      (() => {
        const text = body();
        return { id: 'webhook.wrong-sign.one-digit', title: 'one hex digit of the sign changed', expect: 'refuse' as const, call: b.signedWebhook(text, (i) => formatAuthorization({ ...i, sign: flipHex(i.sign) })) };
      })(),
      { id: 'webhook.wrong-sign.zeros', title: 'sign of 64 zeros', expect: 'refuse', call: b.signedWebhook(body(), (i) => formatAuthorization({ ...i, sign: '0'.repeat(64) })) },
      { id: 'webhook.wrong-sign.short', title: 'sign of 63 digits', expect: 'refuse', call: b.signedWebhook(body(), (i) => formatAuthorization({ ...i, sign: i.sign.slice(1) })) },
    ]),
    req('webhook.wrong-app-id', 'Another appId is refused', ['§5.3', '§5.4'], ['R9'], [
      (() => {
        const text = body();
        return { id: 'webhook.wrong-app-id.consistent', title: 'appId of another merchant, signature over that appId', expect: 'refuse' as const, call: b.webhook(text, formatAuthorization(b.items({ method: 'POST', url: b.o.notifyUrl, body: text, appId: wrongAppId }))) };
      })(),
      { id: 'webhook.wrong-app-id.header-only', title: 'appId item of another merchant, signature over the right appId', expect: 'refuse', call: b.signedWebhook(body(), (i) => formatAuthorization({ ...i, appId: wrongAppId })) },
    ]),
    req('webhook.delivery-url', 'A signature over the delivery URL instead of the notifyUrl is refused', ['§5.5'], ['R10'], [
      (() => {
        const text = body();
        return {
          id: 'webhook.delivery-url.signed',
          title: `signature with part 4 = the URL the call arrives on (${b.webhookUrl}) instead of the notifyUrl`,
          expect: 'refuse' as const,
          call: b.webhook(text, formatAuthorization(b.items({ method: 'POST', url: b.webhookUrl, body: text }))),
          ...(deliveryDiffers ? {} : { notApplicable: 'the delivery URL is the notifyUrl (give --deliver-to to make this check)' }),
        };
      })(),
    ]),
    req('webhook.header-items', 'A missing or duplicate Authorization item is refused', ['§5.3'], ['R8'], [
      ...ITEM_NAMES.map((name) => ({
        id: `webhook.header-items.missing-${name}`,
        title: `item ${name} missing`,
        expect: 'refuse' as const,
        call: b.signedWebhook(body(), (i) => `V2_SHA256 ${ITEM_NAMES.filter((n) => n !== name).map((n) => `${n}=${i[n]}`).join(',')}`),
      })),
      { id: 'webhook.header-items.duplicate-sign', title: 'item sign twice (a wrong value, then the right one)', expect: 'refuse', call: b.signedWebhook(body(), (i) => `${formatAuthorization({ ...i, sign: '0'.repeat(64) })},sign=${i.sign}`) },
      { id: 'webhook.header-items.duplicate-nonce', title: 'item nonce twice, same value', expect: 'refuse', call: b.signedWebhook(body(), (i) => `${formatAuthorization(i)},nonce=${i.nonce}`) },
    ]),
    req('webhook.scheme', 'Another scheme or no Authorization is refused', ['§5.3', '§5.5'], ['R8'], [
      { id: 'webhook.scheme.v1', title: 'scheme V1_SHA256, items right', expect: 'refuse', call: b.signedWebhook(body(), (i) => formatAuthorization(i).replace('V2_SHA256', 'V1_SHA256')) },
      { id: 'webhook.scheme.bearer', title: 'Authorization: Bearer <sign>', expect: 'refuse', call: b.signedWebhook(body(), (i) => `Bearer ${i.sign}`) },
      { id: 'webhook.scheme.none', title: 'no Authorization header', expect: 'refuse', call: b.webhook(body(), undefined) },
    ]),
    req('webhook.hex-case', 'Upper-case hex sign (either way, reported)', ['§5.2'], ['R7'], [
      { id: 'webhook.hex-case.upper', title: 'the right sign in upper-case hex', expect: 'acceptable', call: b.signedWebhook(body(), (i) => formatAuthorization({ ...i, sign: i.sign.toUpperCase() })) },
    ]),
    req('webhook.replay', 'Replay protection (advisory)', ['§5.5'], ['R12'], [
      { id: 'webhook.replay.same-call', title: 'the call of webhook.valid.1 sent again', expect: 'advisory', call: valid1 },
      { id: 'webhook.replay.old-timestamp', title: 'valid signature, timestamp seven days old', expect: 'advisory', call: (() => { const text = body(); return b.webhook(text, formatAuthorization(b.items({ method: 'POST', url: b.o.notifyUrl, body: text, timestamp: String(b.now - OLD_TIMESTAMP_MS) }))); })() },
    ]),
  ];
}

function redirectRequirements(b: Builder): Requirement[] {
  type Enc = 'form' | 'percent';
  /** A redirect: the payment JSON, signed correctly, `change` applied before it is sent. */
  const redirect = (
    attach: string | undefined,
    encoding: Enc,
    change: (r: { payment: string; items: Record<ItemName, string> }) => { payment: string; authorization: string | undefined } = (r) => ({ payment: r.payment, authorization: formatAuthorization(r.items) }),
    signOver: (payment: string) => Omit<SignInput, 'timestamp'> = (payment) => ({ method: 'GET', url: b.o.returnUrl, body: `payment=${payment}` }),
    timestamp?: string,
  ): HttpCall => {
    const p = makePayment(b.rng, attach);
    const payment = compactJson(p);
    const items = b.items({ ...signOver(payment), ...(timestamp ? { timestamp } : {}) });
    const sent = change({ payment, items });
    return b.redirect(sent.payment, sent.authorization, encoding, p.paymentNo, p.merchantTradeNo);
  };
  const withQuery = b.o.returnUrl.includes('?');
  const valid1 = redirect(undefined, 'form');
  return [
    req('redirect.valid', `Valid return redirects are accepted (returnUrl ${withQuery ? 'with' : 'without'} its own query)`, ['§5.6', '§6'], ['R11'], [
      { id: 'redirect.valid.form', title: 'GET returnUrl + paymentNo, merchantTradeNo, payment, authorization (form encoding, "+" for space)', expect: 'accept', call: valid1 },
      { id: 'redirect.valid.percent', title: 'the same, percent encoding (%20 for space)', expect: 'accept', call: redirect(undefined, 'percent') },
    ]),
    req('redirect.special-chars', 'Payment values with "+", "&", "=", "%", spaces and non-ASCII are accepted', ['§5.6'], ['R11'], QUERY_HOSTILE_TEXTS.map((text, n) => ({
      id: `redirect.special-chars.${n + 1}`,
      title: `merchantAttach ${JSON.stringify(text)} (${n % 2 === 0 ? 'form' : 'percent'} encoding)`,
      expect: 'accept' as const,
      call: redirect(text, n % 2 === 0 ? 'form' : 'percent'),
    }))),
    req('redirect.payment-tampered', 'A payment value changed after signing is refused', ['§5.6'], ['R11'], [
      { id: 'redirect.payment-tampered.amount', title: 'one digit of the payment value changed after signing', expect: 'refuse', call: redirect(undefined, 'form', (r) => ({ payment: changeOneByte(r.payment), authorization: formatAuthorization(r.items) })) },
    ]),
    req('redirect.authorization-tampered', 'A changed or missing authorization is refused', ['§5.6', '§5.3'], ['R8', 'R11'], [
      { id: 'redirect.authorization-tampered.sign', title: 'one hex digit of the sign changed', expect: 'refuse', call: redirect(undefined, 'form', (r) => ({ payment: r.payment, authorization: formatAuthorization({ ...r.items, sign: flipHex(r.items.sign) }) })) },
      { id: 'redirect.authorization-tampered.app-id', title: 'appId item of another merchant', expect: 'refuse', call: redirect(undefined, 'form', (r) => ({ payment: r.payment, authorization: formatAuthorization({ ...r.items, appId: `${b.o.appId}X` }) })) },
      { id: 'redirect.authorization-tampered.missing', title: 'no authorization parameter', expect: 'refuse', call: redirect(undefined, 'form', (r) => ({ payment: r.payment, authorization: undefined })) },
    ]),
    req('redirect.signed-with-added-params', 'A signature over the URL with the added parameters is refused', ['§5.6'], ['R11'], [
      {
        id: 'redirect.signed-with-added-params.url',
        title: 'part 4 = returnUrl with paymentNo, merchantTradeNo and payment added',
        expect: 'refuse',
        call: (() => {
          const p = makePayment(b.rng);
          const payment = compactJson(p);
          const url = addQuery(b.o.returnUrl, [['paymentNo', p.paymentNo], ['merchantTradeNo', p.merchantTradeNo], ['payment', payment]], 'form');
          return b.redirect(payment, formatAuthorization(b.items({ method: 'GET', url, body: `payment=${payment}` })), 'form', p.paymentNo, p.merchantTradeNo);
        })(),
      },
    ]),
    req('redirect.still-encoded', 'A signature over the still-encoded payment value is refused', ['§5.6'], ['R11'], [
      { id: 'redirect.still-encoded.form', title: 'part 7 = payment=<the value as encoded in the query>', expect: 'refuse', call: redirect('a b+c', 'form', undefined, (payment) => ({ method: 'GET', url: b.o.returnUrl, body: `payment=${new URLSearchParams([['', payment]]).toString().slice(1)}` })) },
    ]),
    req('redirect.replay', 'Replay protection (advisory)', ['§5.6'], ['R12'], [
      { id: 'redirect.replay.same-call', title: 'the redirect of redirect.valid.form sent again (a reload)', expect: 'advisory', call: valid1 },
      { id: 'redirect.replay.old-timestamp', title: 'valid signature, timestamp seven days old', expect: 'advisory', call: redirect(undefined, 'form', undefined, undefined, String(b.now - OLD_TIMESTAMP_MS)) },
    ]),
  ];
}
