/**
 * Errors with every secret masked, before they leave the client.
 * @module
 */
import { redact } from '../scheme/mask.js';
import { ClientError } from './errors.js';

/**
 * The same error with every secret masked in its message (the class, code and details kept).
 * @param e - any thrown value
 * @param secrets - texts to mask
 * @returns the error to throw
 * @example (maskError(new Error(`bad secret ${appSecret}`), [appSecret]) as Error).message.includes(appSecret) // false
 */
export function maskError(e: unknown, secrets: readonly string[]): unknown {
  if (!(e instanceof Error)) return e;
  const message = redact(e.message, secrets);
  if (message === e.message) return e;
  if (e instanceof ClientError)
    return new ClientError(e.code, message, {
      status: e.status,
      problem: e.problem,
      gatewayCode: e.gatewayCode,
      cause: e.cause,
    });
  if (e instanceof RangeError) return new RangeError(message);
  if (e instanceof TypeError) return new TypeError(message);
  return new Error(message);
}
