/**
 * What every call of the reference client accepts besides its own inputs: the clock
 * and nonce (injectable for tests), the HTTP timeouts and dispatcher, the response
 * size limit, and the verifier's choices where the readings leave room.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { VerifyOptions } from '../scheme/verify.js';

/** Options shared by every client call. */
export interface ClientOptions {
  /** Milliseconds since the epoch, for part 5 of the content (5.1, 5.3). Default `Date.now`. */
  readonly clock?: () => number;
  /** The nonce of 5.3, or a function giving one per request. Default: 16 random bytes as 32 hex digits. */
  readonly nonce?: string | (() => string);
  /**
   * Timeout in milliseconds for the connection, for the response headers, and between two
   * pieces of the response body (undici `connect.timeout`, `headersTimeout`, `bodyTimeout`).
   * Default 10,000.
   */
  readonly timeoutMs?: number;
  /** The undici dispatcher to send with. Default: one per timeout value, shared, with keep-alive. */
  readonly dispatcher?: Dispatcher;
  /** The largest response body read, in bytes; larger is PGV2_CLIENT_RESPONSE_TOO_LARGE. Default 8 MiB. */
  readonly maxResponseBytes?: number;
  /** How responses are verified where R7 and R8 leave room. Default: the reference's choices. */
  readonly verify?: VerifyOptions;
}

/**
 * Default of {@link ClientOptions.timeoutMs}.
 * @example DEFAULT_TIMEOUT_MS // 10000 — a call's client: { timeoutMs } waits longer
 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Default of {@link ClientOptions.maxResponseBytes}.
 * @example DEFAULT_MAX_RESPONSE_BYTES // 8388608 — a call's client: { maxResponseBytes } reads more
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * The timestamp of a request: the clock's milliseconds as an integer string (5.3).
 * @param options - the clock
 * @returns e.g. `'1718090123456'`
 * @throws {RangeError} when the clock gives something other than a finite non-negative number
 * @example timestampOf({ clock: () => 1718090123456.7 }) // '1718090123456'
 */
export function timestampOf(options: ClientOptions): string {
  const ms = (options.clock ?? Date.now)();
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
    throw new RangeError(`clock must give a non-negative number of milliseconds; got ${String(ms)}`);
  return String(Math.trunc(ms));
}

/**
 * The nonce of a request (5.3): the given one, or 32 random hex digits.
 * @param options - the nonce or its source
 * @returns the nonce
 * @throws {TypeError} when the nonce is not a string
 * @example nonceOf({ nonce: 'n-1' }) // 'n-1'
 */
export function nonceOf(options: ClientOptions): string {
  const given = options.nonce;
  const nonce = typeof given === 'function' ? given() : (given ?? randomBytes(16).toString('hex'));
  if (typeof nonce !== 'string') throw new TypeError('nonce must be a string');
  return nonce;
}
