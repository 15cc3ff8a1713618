/**
 * Content-Type parsing exactly as busboy 1.6.0 does it (`lib/utils.js` parseContentType,
 * MIT), so that the kit can predict what {@link parseMultipart} reports: the request's
 * boundary, and the media type busboy reports for a part (lower-case `type/subtype`,
 * parameters dropped). Ported line by line on purpose: a "better" parser here would
 * disagree with the parser the reference actually uses.
 * @module
 */

/** A parsed Content-Type value. */
export interface ParsedContentType {
  /** Lower case. */
  readonly type: string;
  /** Lower case. */
  readonly subtype: string;
  /** Parameter names lower case; the first occurrence of a name wins. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses a Content-Type value as busboy does: `type "/" subtype *(OWS ";" OWS name "=" value) OWS`,
 * type and subtype RFC 9110 tokens, a value a token or a quoted string.
 * @param value - the header value (for a part header: its bytes read as latin1, leading white space removed)
 * @returns the parsed value, or undefined where busboy finds it malformed
 * @example
 * parseContentType(
 *   'Multipart/Form-Data; boundary="a b"',
 * ) // { type: 'multipart', subtype: 'form-data', params: { boundary: 'a b' } }
 */
export function parseContentType(value: string): ParsedContentType | undefined {
  if (value.length === 0) return undefined;
  let i = 0;
  for (; i < value.length; ++i) {
    const code = value.charCodeAt(i);
    if (!isTchar(code)) {
      if (code !== SLASH || i === 0) return undefined;
      break;
    }
  }
  if (i === value.length) return undefined;
  const type = value.slice(0, i).toLowerCase();
  const subtypeStart = ++i;
  for (; i < value.length; ++i) if (!isTchar(value.charCodeAt(i))) break;
  if (i === subtypeStart) return undefined;
  const subtype = value.slice(subtypeStart, i).toLowerCase();
  const params = parseParams(value, i);
  return params ? { type, subtype, params } : undefined;
}

/**
 * The media type busboy reports for a part whose Content-Type header carries `value`
 * as UTF-8: lower-case `type/subtype` without parameters, or `text/plain` (busboy's
 * default, RFC 7578 §4.4) when the value is not a media type busboy can parse.
 * @param value - the Content-Type value as a client writes it
 * @returns the media type busboy reports
 * @example reportedMediaType('Application/PDF; x=1') // 'application/pdf'
 * @example reportedMediaType('pdf') // 'text/plain'
 */
export function reportedMediaType(value: string): string {
  const asRead = Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/^[ \t]+/, '');
  const parsed = parseContentType(asRead);
  return parsed ? `${parsed.type}/${parsed.subtype}` : 'text/plain';
}

// --- internal ---

const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function parseParams(str: string, start: number): Record<string, string> | undefined {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  let i = start;
  while (i < str.length) {
    while (i < str.length && isOws(str.charCodeAt(i))) ++i;
    if (i === str.length) break;
    if (str.charCodeAt(i++) !== SEMICOLON) return undefined;
    while (i < str.length && isOws(str.charCodeAt(i))) ++i;
    if (i === str.length) return undefined;
    const nameStart = i;
    for (; i < str.length; ++i) {
      const code = str.charCodeAt(i);
      if (!isTchar(code)) {
        if (code !== EQUALS) return undefined;
        break;
      }
    }
    if (i === str.length) return undefined;
    const name = str.slice(nameStart, i);
    ++i;
    if (i === str.length) return undefined;
    let value = '';
    if (str.charCodeAt(i) === QUOTE) {
      let valueStart = ++i;
      let escaping = false;
      for (; i < str.length; ++i) {
        const code = str.charCodeAt(i);
        if (code === BACKSLASH) {
          if (escaping) {
            valueStart = i;
            escaping = false;
          } else {
            value += str.slice(valueStart, i);
            escaping = true;
          }
          continue;
        }
        if (code === QUOTE) {
          if (escaping) {
            valueStart = i;
            escaping = false;
            continue;
          }
          value += str.slice(valueStart, i);
          break;
        }
        if (escaping) {
          valueStart = i - 1;
          escaping = false;
        }
        if (!isQdtext(code)) return undefined;
      }
      if (i === str.length) return undefined;
      ++i;
    } else {
      const valueStart = i;
      for (; i < str.length; ++i) {
        if (!isTchar(str.charCodeAt(i))) {
          if (i === valueStart) return undefined;
          break;
        }
      }
      value = str.slice(valueStart, i);
    }
    const key = name.toLowerCase();
    if (params[key] === undefined) params[key] = value;
  }
  return params;
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** RFC 9110 tchar: ALPHA / DIGIT / one of !#$%&'*+-.^_`|~ */
function isTchar(code: number): boolean {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return true;
  return code < 0x80 && "!#$%&'*+-.^_`|~".includes(String.fromCharCode(code));
}

/** RFC 9110 qdtext: HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text (%x80-FF). */
function isQdtext(code: number): boolean {
  return (
    code === 0x09 ||
    code === 0x20 ||
    code === 0x21 ||
    (code >= 0x23 && code <= 0x5b) ||
    (code >= 0x5d && code <= 0x7e) ||
    (code >= 0x80 && code <= 0xff)
  );
}
