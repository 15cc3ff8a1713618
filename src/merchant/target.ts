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
}
