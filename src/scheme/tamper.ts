/**
 * One change made to signed text after signing, for the forged calls the roles send (a
 * webhook body, a redirect's payment value, a request to a gateway): whatever a verifier does,
 * a correct one must now refuse.
 * @module
 */

/**
 * The last digit of a text changed (0→1 … 9→0), or a space added when it has no digit.
 * @param text - the text as signed
 * @returns text that differs from it in one place
 * @example changeLastDigit('{"amount":"12.50"}') // '{"amount":"12.51"}'
 */
export function changeLastDigit(text: string): string {
  const at = text.search(/[0-9](?=[^0-9]*$)/);
  if (at < 0) return `${text} `;
  return `${text.slice(0, at)}${(Number(text[at]) + 1) % 10}${text.slice(at + 1)}`;
}
