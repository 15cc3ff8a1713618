/** Types for merchant.mjs (so TypeScript tests can import the plain-JS sample). */
export type AuthItems = Record<'appId' | 'sign' | 'timestamp' | 'nonce', string>;
export type ParseResult = { ok: true; items: AuthItems } | { ok: false; reason: string };
export interface Verdict {
  valid: boolean;
  reason: string;
}
export type ParseAuthorization = (header: string | undefined) => ParseResult;

export function parseAuthorization(header: string | undefined): ParseResult;
export function signatureContent(parts: {
  appId: string;
  appSecret: string;
  method: string;
  url: string;
  timestamp: string;
  nonce: string;
  body: string | Uint8Array;
}): Buffer;
export function verifySignature(args: {
  appId: string;
  appSecret: string;
  method: string;
  url: string;
  authorization: string | undefined;
  body: string | Uint8Array;
  parse?: ParseAuthorization;
  checkAppId?: boolean;
}): Verdict;

export interface WebhookInput {
  appId: string;
  appSecret: string;
  notifyUrl: string;
  method: string;
  authorization: string | undefined;
  body: string | Uint8Array;
  parseAuthorization?: ParseAuthorization;
  checkAppId?: boolean;
}
export function verifyWebhook(args: WebhookInput): Verdict;

export function decodeQueryValue(raw: string): string | null;
export type RedirectQuery =
  | { ok: true; payment: string; rawPayment: string; authorization: string; rawAuthorization: string }
  | { ok: false; reason: string };
export function readRedirectQuery(url: string): RedirectQuery;

export interface RedirectInput {
  appId: string;
  appSecret: string;
  returnUrl: string;
  url: string;
  parseAuthorization?: ParseAuthorization;
  checkAppId?: boolean;
}
export function verifyRedirect(args: RedirectInput): Verdict;

/** What the server hands a replaced webhook step: the sample's input plus the URL the call arrived on. */
export interface WebhookContext extends WebhookInput {
  body: Buffer;
  requestUrl: string;
}
export interface RedirectContext extends RedirectInput {
  requestUrl: string;
}

export interface MerchantOptions {
  appId: string;
  appSecret: string;
  notifyUrl: string;
  returnUrl: string;
  host?: string;
  port?: number;
}
export interface StartOptions extends MerchantOptions {
  verifyWebhook?: (ctx: WebhookContext) => Verdict;
  verifyRedirect?: (ctx: RedirectContext) => Verdict;
}
export interface RunningMerchant {
  url: string;
  close(): Promise<void>;
}
export function startMerchant(options: StartOptions): Promise<RunningMerchant>;
