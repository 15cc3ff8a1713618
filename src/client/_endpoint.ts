/**
 * Operation URLs under the gateway's base address.
 * @module
 */
import { wireUrl } from './_http.js';

/**
 * The URL of an operation under a base URL: the base without its trailing "/", then the path.
 * @param baseUrl - the gateway's base address
 * @param path - the operation's path, starting with "/"
 * @returns the full URL
 * @throws {TypeError} when baseUrl is not a string
 * @throws {RangeError} when baseUrl is not an absolute http(s) URL, or has a query or fragment
 * @example
 * endpoint(
 *   'http://127.0.0.1:4000/s/x/',
 *   '/pg/v2/payment/create',
 * ) // 'http://127.0.0.1:4000/s/x/pg/v2/payment/create'
 */
export function endpoint(baseUrl: string, path: string): string {
  if (typeof baseUrl !== 'string') throw new TypeError('baseUrl must be a string');
  try {
    wireUrl(baseUrl);
  } catch (e) {
    throw new RangeError((e as Error).message.replace(/^url /, 'baseUrl '), { cause: e });
  }
  if (/[?#]/.test(baseUrl))
    throw new RangeError(
      `baseUrl ${JSON.stringify(baseUrl)} has a query or fragment; operation paths are appended to it`,
    );
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
