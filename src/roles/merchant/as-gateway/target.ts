/**
 * The merchant role's two shapes: the merchant under test (credentials, registered URLs,
 * where calls go) and one exact HTTP call the kit sends it.
 * @module
 */

/** The merchant under test: its credentials, the URLs it registered, and where calls go. */
export interface MerchantTarget {
  readonly appId: string;
  /** Never printed. */
  readonly appSecret: string;
  /** notifyUrl as the merchant registered it (signed as part 4, R10). */
  readonly notifyUrl: string;
  /** returnUrl as the merchant registered it (signed as part 4, R11). */
  readonly returnUrl: string;
  /** Where webhooks are actually sent (default: notifyUrl). */
  readonly deliverTo?: string;
  /** Where redirects are actually sent, before the added parameters (default: returnUrl). */
  readonly returnDeliverTo?: string;
}

/** One exact HTTP call: sent as written, headers in order, body bytes = UTF-8 of `body`. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
  /** What the signature of the call covers (never sent: shown beside a failing call, as `pgv2kit explain` would). */
  readonly signed?: SignedParts;
}

/** The parts a call's signature covers where a merchant goes wrong, and its content with the secret masked. */
export interface SignedParts {
  /** The endpoint's URL as the merchant registered it (notifyUrl or returnUrl). */
  readonly registered: string;
  /** Part 4: the URL signed (the registered notifyUrl or returnUrl, unless the case signs another). */
  readonly url: string;
  /** Part 7: the body signed (the webhook's body, or `payment=<decoded value>` of a redirect). */
  readonly body: string;
  /** The seven parts, each followed by LF (§5.1), part 2 masked with `maskSecret`. */
  readonly content: string;
}
