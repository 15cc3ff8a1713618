/**
 * What an Authorization value the fuzzer generated becomes on the wire, decided per character class
 * (`fuzz --gateway`, `--merchant-notify`). A field value is bytes (RFC 9110 §5.5, RFC 9112 §5):
 *
 * | class | on the wire | what the receiver may read |
 * |---|---|---|
 * | HTAB, SP–`~` | as is (one byte each) | the value |
 * | U+0080–U+00FF | one byte each (Latin-1, obs-text) | the value |
 * | NUL | one byte, over the raw socket | the value, or NUL replaced by SP, or a refused message (RFC 9110 §5.5) |
 * | other controls (U+0001–U+001F but HTAB, CR, LF; U+007F) | one byte each, over the raw socket | the value, or a
 *   refused message (RFC 9110 §5.5: invalid, a recipient may retain them) |
 * | above U+00FF | the whole value as UTF-8, over the raw socket | the value (decoded as UTF-8), or its bytes decoded
 *   as Latin-1 (obs-text is opaque bytes: Node, Go and most servers read Latin-1) |
 * | CR, LF | not sendable | — a CR or LF ends the field line: the bytes would be another request (request
 *   splitting), a bare CR is refused or read as a line end, CRLF SP is obs-fold (RFC 9112 §2.2, §5.2) |
 * | a lone surrogate | not sendable | — it has no UTF-8 form: what went would not be what was generated |
 *
 * An expectation over HTTP takes every reading into account (a header may be accepted when one reading allows it, must
 * be accepted only when every reading requires it and the message may not be refused), so that the way a receiver's
 * HTTP layer handles such bytes never makes a finding.
 * @module
 */

/** A value that can be sent, and what its receiver may read. */
export interface SendableValue {
  readonly sendable: true;
  /** The value's bytes on the wire. */
  readonly bytes: Uint8Array;
  /** How the value was written: Latin-1 (every character ≤ U+00FF) or UTF-8 (one above it). */
  readonly encoding: 'latin1' | 'utf8';
  /** The HTTP client (undici) refuses it: it goes over the raw socket. */
  readonly raw: boolean;
  /** The field values the receiver may read (before removing SP/HTAB at the ends), the value as sent first. */
  readonly readings: readonly string[];
  /** The receiver's HTTP layer may refuse the whole message (RFC 9110 §5.5: CTL and NUL are invalid there). */
  readonly messageMayBeRefused: boolean;
}

/** A value the wire cannot carry as generated. */
export interface UnsendableValue {
  readonly sendable: false;
  /** The character class, e.g. `CR or LF`: what the summary counts by. */
  readonly reason: string;
}

/** The reasons a value is not sendable, as the summary counts them. */
export const NOT_SENDABLE = {
  crlf: 'CR or LF (ends the field line: another request, RFC 9112 §2.2)',
  surrogate: 'a lone surrogate (no UTF-8 form)',
} as const;

/**
 * What a generated header value becomes on the wire: its bytes and what the receiver may read, or why it cannot be
 * sent (the table of the module).
 * @param value - the Authorization value as generated
 * @returns the value on the wire, or why it is not sendable
 * @example wireValue('V2_SHA256 a=b').sendable // true
 * @example wireValue('V2_SHA256 a=b\n').sendable // false
 * @example wireValue('V2_SHA256 a=\u0001').raw // true
 * @example Buffer.from(wireValue('a=\u4e2d').bytes).toString('hex') // '613de4b8ad'
 */
export function wireValue(value: string): SendableValue | UnsendableValue {
  if (/[\r\n]/.test(value)) return { sendable: false, reason: NOT_SENDABLE.crlf };
  if (LONE_SURROGATE.test(value)) return { sendable: false, reason: NOT_SENDABLE.surrogate };
  const wide = /[^\x00-\xff]/.test(value);
  const controls = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(value);
  const bytes = Buffer.from(value, wide ? 'utf8' : 'latin1');
  const readings = [value];
  if (value.includes('\0')) readings.push(value.replaceAll('\0', ' '));
  if (wide) readings.push(bytes.toString('latin1'));
  return {
    sendable: true,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    encoding: wide ? 'utf8' : 'latin1',
    // undici's own rule (lib/core/util.js, headerCharRegex): HTAB, SP–~ and U+0080–U+00FF, nothing else
    raw: wide || controls,
    readings,
    messageMayBeRefused: controls,
  };
}

// --- internal ---

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
