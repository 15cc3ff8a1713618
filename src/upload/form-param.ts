/**
 * How names and filenames travel in multipart part headers, shared by the form
 * builder and the form check so that the two agree.
 * @module
 */

/**
 * Escapes a name or filename parameter as the WHATWG HTML multipart/form-data encoding
 * (what browsers send) and the form-data package do: CR → `%0D`, LF → `%0A`, `"` → `%22`.
 * Nothing else is escaped: non-ASCII is written as raw UTF-8, a backslash as itself.
 * Receivers (busboy, S3) do not undo the escapes.
 * @param value - the name or filename
 * @returns the text written between the quotes
 * @example escapeFormParam('a"b.pdf') // 'a%22b.pdf'
 */
export function escapeFormParam(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/**
 * Whether a received name or filename carries the issued one: equal, or equal to the
 * issued value as a browser escapes it ({@link escapeFormParam}; a quote cannot
 * otherwise be sent the way browsers send forms).
 * @param received - the parameter as the parser read it
 * @param issued - the value the part should carry
 * @returns true when the received value carries the issued one
 * @example carriesParam('a%22b.pdf', 'a"b.pdf') // true
 */
export function carriesParam(received: string, issued: string): boolean {
  return received === issued || received === escapeFormParam(issued);
}

/**
 * Refuses a name or filename that a quoted header parameter cannot carry so that
 * busboy (RFC 9110 quoted-string rules) reads it back as written: a lone surrogate
 * (no UTF-8 form), a control character other than tab, CR and LF (busboy refuses the
 * header), two backslashes in a row (read back as one) or a trailing backslash (it
 * would escape the closing quote).
 * @param label - what the value is, for the message
 * @param value - the name or filename
 * @throws {RangeError} when the value cannot be carried
 * @example assertParamCarriable('filename', 'a\\\\b.pdf') // throws RangeError
 */
export function assertParamCarriable(label: string, value: string): void {
  assertWellFormed(label, value);
  if (/[\0-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(value))
    throw new RangeError(`${label} contains a control character, which a part header cannot carry`);
  if (value.includes('\\\\') || value.endsWith('\\')) {
    throw new RangeError(
      `${label} contains two backslashes in a row or ends in a backslash, ` +
        'which a quoted header parameter does not carry as written',
    );
  }
}

/**
 * Refuses a header value (a part's Content-Type) with a control character other than
 * tab — CR and LF included, which would end the header — or a lone surrogate.
 * @param label - what the value is, for the message
 * @param value - the header value
 * @throws {RangeError} when the value cannot be carried
 * @example assertHeaderCarriable('contentType', 'text/plain\r\nX: 1') // throws RangeError
 */
export function assertHeaderCarriable(label: string, value: string): void {
  assertWellFormed(label, value);
  if (/[\0-\x08\x0a-\x1f\x7f]/.test(value))
    throw new RangeError(`${label} contains a control character, which a part header cannot carry`);
}

/**
 * Refuses a string with a lone surrogate: it has no UTF-8 form, so it cannot be sent as written.
 * @param label - what the value is, for the message
 * @param value - the string
 * @throws {RangeError} when the string is not well-formed Unicode
 * @example assertWellFormed('value', '\uD800') // throws RangeError
 */
export function assertWellFormed(label: string, value: string): void {
  if (/\p{Cs}/u.test(value)) throw new RangeError(`${label} contains a lone surrogate, which has no UTF-8 form`);
}
