/**
 * Live traffic as data (issue 26): one exchange seen by `pgv2kit proxy` or read from a HAR by `pgv2kit check` — the
 * request as its sender sent it, what the proxy forwarded, the answer, and for an upload the formFields issued.
 * Plain data, JSON-able but for the bodies, which are bytes exactly as they went on the wire (5.1, 5.4, R3): the
 * judge (./judge.ts) verifies over them and over the URL the sender addressed (R4), never over a re-serialisation.
 * @module
 */
import { API_PATHS } from '../gateway/api-judge.js';

/**
 * What an exchange is: an API request to the gateway (4.1, 4.3), an upload to an issued uploadUrl (4.2), a webhook
 * to the merchant's notifyUrl (5.5) or a return redirect to its returnUrl (5.6).
 */
export type LiveKind = 'api' | 'upload' | 'webhook' | 'redirect';

/** A request as one side sent it. */
export interface LiveMessage {
  /** The method as sent (R5). */
  readonly method: string;
  /** The full URL the sender addressed, as it sent it (R4): scheme, host, port, path and query. */
  readonly url: string;
  /** The header fields in the order received, names as written. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body's exact bytes (R3). */
  readonly body: Uint8Array;
}

/** A response as its sender answered. */
export interface LiveAnswer {
  readonly status: number;
  /** The header fields in the order received, names as written. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body's exact bytes (5.4: the original response bytes). */
  readonly body: Uint8Array;
}

/** The upload credentials the gateway issued, which an upload is judged against (4.2, R14). */
export interface IssuedUpload {
  readonly uploadUrl: string;
  /** The formFields entries in the order received (R14). */
  readonly formFields: ReadonlyArray<readonly [string, string]>;
  /** The filename the credentials request asked for (4.2: the file part carries it). */
  readonly filename: string;
  /** The contentType the credentials request asked for, if any (4.2, 2.4). */
  readonly contentType?: string;
  /** The httpMethod issued (2.4), when known: the upload is sent with it (4.2). */
  readonly httpMethod?: string;
}

/** One exchange of live traffic. */
export interface LiveExchange {
  /** Its place in arrival order, from 1. */
  readonly seq: number;
  /** When the request arrived (ISO 8601). */
  readonly startedAt: string;
  readonly kind: LiveKind;
  /** As its sender sent it: the URL it addressed, the exact body bytes. */
  readonly request: LiveMessage;
  /** Proxy only: the request as forwarded to the receiver (an API request re-signed for the upstream URL). */
  readonly forwarded?: LiveMessage;
  /** As the receiver answered: the answer to `forwarded` when there is one, else to `request`. */
  readonly response?: LiveAnswer;
  /**
   * Proxy only: why there is no `response` — the receiver could not be reached, did not answer in time, or answered
   * more than the proxy reads; or the proxy refused the request itself (a body over its limit) and forwarded nothing.
   */
  readonly unanswered?: string;
  /** An upload: the credentials it is judged against. */
  readonly issued?: IssuedUpload;
  /** A webhook: the notifyUrl as the merchant submitted it (R10). A redirect: the returnUrl as submitted (R11). */
  readonly registeredUrl?: string;
  /** Why the exchange cannot be judged (e.g. a HAR body that is not byte-exact); the judge then judges nothing. */
  readonly notJudged?: string;
  /**
   * Why its answer cannot be judged though its request can (a HAR whose response body is not byte-exact): the judge
   * judges the request alone — `not conformant` when it is, else `not judged`, never conformant on half the exchange.
   */
  readonly answerNotJudged?: string;
}

/** What the caller knows of the merchant's URLs and the uploads issued, for {@link kindOf}. */
export interface KindContext {
  /** The notifyUrl(s) as registered: a request to one is a webhook (compared without the query). */
  readonly notifyUrls?: readonly string[];
  /** The returnUrl(s) as registered: a request to one is a return redirect (compared without the query). */
  readonly returnUrls?: readonly string[];
  /** The uploadUrls issued: a request to one is an upload. */
  readonly uploadUrls?: readonly string[];
}

/**
 * What a request is, by its URL: an upload, webhook or redirect when the caller names its URL (the scheme, host,
 * port and path equal, the query aside), an API request when its path ends in one of the API paths (a proxy may put
 * a prefix before them), else undefined (traffic the kit does not judge).
 * @param method - the method as sent
 * @param url - the full URL as sent
 * @param context - the URLs of uploads, webhooks and redirects the caller knows
 * @returns the kind, or undefined
 * @example kindOf('POST', 'https://gw.example/pg/v2/payment/create') // 'api'
 */
export function kindOf(method: string, url: string, context: KindContext = {}): LiveKind | undefined {
  const at = withoutQuery(url);
  if (at === undefined) return undefined;
  const named = (list: readonly string[] | undefined): boolean => (list ?? []).some((u) => withoutQuery(u) === at);
  if (named(context.uploadUrls)) return 'upload';
  if (method.toUpperCase() === 'POST' && named(context.notifyUrls)) return 'webhook';
  if (method.toUpperCase() === 'GET' && named(context.returnUrls)) return 'redirect';
  const path = new URL(url).pathname;
  return Object.values(API_PATHS).some((p) => path.endsWith(p)) ? 'api' : undefined;
}

/**
 * A header's value: the first field of that name, compared without regard to case (RFC 9110 §5.1).
 * @param headers - the fields
 * @param name - the name sought
 * @returns the value, or undefined
 * @example headerValue([['Content-Type', 'application/json']], 'content-type') // 'application/json'
 */
export function headerValue(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

// --- internal ---

function withoutQuery(url: string): string | undefined {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return undefined;
  }
}
