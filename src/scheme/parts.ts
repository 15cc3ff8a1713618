/**
 * The seven parts of a V2_SHA256 signature content (spec §5.1).
 *
 * Every field is the exact text that goes into the content: nothing is trimmed,
 * normalised or re-cased here (readings R3–R6). The body is bytes, because the
 * body is signed as sent (R3); a string body is taken as its UTF-8 encoding.
 */
export interface SignatureParts {
  /** Part 1: the merchant's application id. */
  readonly appId: string;
  /** Part 2: the application secret. Never printed: see {@link maskSecret}. */
  readonly appSecret: string;
  /** Part 3: the HTTP method as sent on the wire (R5). */
  readonly method: string;
  /** Part 4: the full URL exactly as sent (R4), or notifyUrl (R10) / returnUrl (R11). */
  readonly url: string;
  /** Part 5: the timestamp string exactly as carried in the Authorization header (R6). */
  readonly timestamp: string;
  /** Part 6: the nonce string exactly as carried in the Authorization header (R6). */
  readonly nonce: string;
  /** Part 7: the body bytes exactly as sent (R3); the empty body is allowed (R2). */
  readonly body: Uint8Array | string;
}

/**
 * The seven parts in spec §5.1 order, as names; used by diagnostics and reports.
 * @example PART_NAMES[6] // 'body'
 */
export const PART_NAMES = ['appId', 'appSecret', 'method', 'url', 'timestamp', 'nonce', 'body'] as const;

/** One of {@link PART_NAMES}. */
export type PartName = (typeof PART_NAMES)[number];
