/**
 * An HTTP field value as its recipient reads it: SP and HTAB at its two ends are not part of
 * it (RFC 9110 §5.5). Where an Authorization header arrives in a request or a response (the
 * gateway, client and merchant roles, `fuzz --gateway`, `--merchant-notify`), the readings'
 * header rules (R8) apply to this value; a parser given the value alone treats the same white
 * space as one more place of R8 (a).
 * @module
 */

/** How messages cite the rule: "RFC 9110 §5.5", never R8 (readings.md, R8 "In HTTP"). */
export const FIELD_VALUE_RULE = 'RFC 9110 §5.5';

/**
 * The field value a recipient reads: SP and HTAB removed at both ends (RFC 9110 §5.5).
 * @param value - the value as sent
 * @returns the value as received
 * @example httpFieldValue(' V2_SHA256 a=b\t') // 'V2_SHA256 a=b'
 */
export function httpFieldValue(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value[start] === ' ' || value[start] === '\t')) start++;
  while (end > start && (value[end - 1] === ' ' || value[end - 1] === '\t')) end--;
  return value.slice(start, end);
}
