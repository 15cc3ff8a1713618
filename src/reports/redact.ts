/**
 * Secret masking for reports: every text a report writes passes through a
 * {@link Redactor}. Beyond the exact secrets (masked with {@link maskSecret}) it masks
 * what a mistaken implementation makes of a secret (any run of 8 bytes of a secret,
 * ASCII case ignored: a trimmed, truncated or re-cased secret), base64 runs in free
 * text that decode to secret material, and content carried as `contentB64` (decoded,
 * masked, stored as `contentText`).
 * @module
 */
import { fromBase64 } from '../scheme/bytes.js';
import { maskSecret } from '../scheme/mask.js';
import { utf8SequenceLength } from '../scheme/utf8.js';
import type { Json } from '../subjects/subject.js';

/** A byte range of a text or content that is shown masked. */
export interface MaskRange {
  readonly start: number;
  readonly end: number;
  /** What is shown instead of the bytes. */
  readonly display: string;
}

/** Length of the secret fragments that are masked wherever they appear. */
export const FRAGMENT_BYTES = 8;

/** Shown instead of a base64 run in free text whose bytes hold secret material. */
export const BASE64_MASK = '‹base64 masked: it holds a secret›';

/** Masks secrets in texts, bytes and protocol JSON values. */
export class Redactor {
  readonly #secrets: ReadonlyArray<{ readonly bytes: Buffer; readonly mask: string }>;
  readonly #fragments: ReadonlySet<string>;
  /** The first four bytes of each fragment (ASCII lower-cased), to reject most positions cheaply. */
  readonly #heads: ReadonlySet<number>;
  readonly #texts = new Map<string, string>();

  /**
   * @param secrets - the secrets to hide (empty strings are ignored)
   */
  constructor(secrets: readonly string[]) {
    const unique = [...new Set(secrets.filter((s) => s.length > 0))].sort(
      (a, b) => Buffer.byteLength(b) - Buffer.byteLength(a),
    );
    this.#secrets = unique.map((s) => ({ bytes: Buffer.from(s, 'utf8'), mask: maskSecret(s) }));
    const fragments = new Set<string>();
    const heads = new Set<number>();
    for (const { bytes } of this.#secrets) {
      for (let i = 0; i + FRAGMENT_BYTES <= bytes.length; i++) {
        fragments.add(fragmentKey(bytes, i));
        heads.add(headKey(bytes, i));
      }
    }
    this.#fragments = fragments;
    this.#heads = heads;
  }

  /**
   * The ranges of bytes to mask: exact secrets first, then fragments of secrets.
   * @param bytes - any bytes
   * @returns the ranges, in order, not overlapping, on UTF-8 character boundaries
   */
  ranges(bytes: Uint8Array): MaskRange[] {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const covered = new Uint8Array(buf.length);
    const ranges: MaskRange[] = [];
    for (const { bytes: secret, mask } of this.#secrets) {
      for (let at = buf.indexOf(secret); at >= 0; at = buf.indexOf(secret, at + 1)) {
        if (covered.subarray(at, at + secret.length).some((c) => c !== 0)) continue;
        covered.fill(1, at, at + secret.length);
        ranges.push({ start: at, end: at + secret.length, display: mask });
      }
    }
    const fragment = new Uint8Array(buf.length);
    for (let i = 0; i + FRAGMENT_BYTES <= buf.length; i++) {
      if (this.#heads.has(headKey(buf, i)) && this.#fragments.has(fragmentKey(buf, i)))
        fragment.fill(1, i, i + FRAGMENT_BYTES);
    }
    for (let i = 0; i < buf.length;) {
      if (fragment[i] !== 1 || covered[i] === 1) {
        i++;
        continue;
      }
      let start = i;
      let end = i;
      while (end < buf.length && fragment[end] === 1 && covered[end] !== 1) end++;
      while (start > 0 && isContinuation(buf[start]) && covered[start - 1] !== 1) start--;
      while (end < buf.length && isContinuation(buf[end]) && covered[end] !== 1) end++;
      ranges.push({ start, end, display: `‹${end - start} bytes masked: part of a secret›` });
      i = end;
    }
    return ranges.sort((a, b) => a.start - b.start);
  }

  /**
   * Whether bytes hold secret material (a secret or a fragment of one).
   * @param bytes - any bytes
   * @returns true when {@link Redactor.ranges} would mask something
   */
  holdsSecret(bytes: Uint8Array): boolean {
    return this.ranges(bytes).length > 0;
  }

  /**
   * Bytes as text with secrets masked: valid UTF-8 as itself (LF, CR and controls
   * included), each byte that is not part of valid UTF-8 as `\xNN`.
   * @param bytes - any bytes (a signature content)
   * @returns the masked text
   */
  plain(bytes: Uint8Array): string {
    return this.#rebuild(bytes, this.ranges(bytes));
  }

  #rebuild(bytes: Uint8Array, ranges: readonly MaskRange[]): string {
    let out = '';
    let at = 0;
    for (const r of ranges) {
      out += decodeLenient(bytes, at, r.start) + r.display;
      at = r.end;
    }
    return out + decodeLenient(bytes, at, bytes.byteLength);
  }

  /**
   * Free text with secrets masked, and base64 runs that decode to secret material
   * replaced by {@link BASE64_MASK}.
   * @param text - a message, a log line, a comment
   * @returns the masked text
   */
  text(text: string): string {
    if (this.#secrets.length === 0) return text;
    const known = this.#texts.get(text);
    if (known !== undefined) return known;
    const clean = this.#clean(text);
    this.#texts.set(text, clean);
    return clean;
  }

  #clean(text: string): string {
    const unbased = text.replace(BASE64_RUN, (run) => (this.#base64HoldsSecret(run) ? BASE64_MASK : run));
    const bytes = Buffer.from(unbased, 'utf8');
    const ranges = this.ranges(bytes);
    return ranges.length === 0 ? unbased : this.#rebuild(bytes, ranges);
  }

  /**
   * A protocol JSON value with secrets masked and keys sorted: `contentB64` becomes
   * `contentText` (the decoded content, masked); any other `…B64` whose bytes hold
   * secret material becomes `…Text` the same way; every string is masked as text.
   * @param value - an expected or got value
   * @returns the clean value
   */
  json(value: Json): Json {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const v = value[key] as Json;
      const bytes = key.endsWith('B64') && typeof v === 'string' ? decodeBase64(v) : undefined;
      if (bytes && (key === 'contentB64' || this.holdsSecret(bytes)))
        out[this.text(`${key.slice(0, -3)}Text`)] = this.plain(bytes);
      else out[this.text(key)] = this.json(v);
    }
    return sortKeys(out);
  }

  #base64HoldsSecret(run: string): boolean {
    for (let shift = 0; shift < 4 && run.length - shift >= 12; shift++) {
      if (this.holdsSecret(Buffer.from(run.slice(shift), 'base64'))) return true;
    }
    return false;
  }
}

/**
 * Decodes canonical base64 (the protocol's `…B64` form).
 * @param b64 - base64 text
 * @returns the bytes, or undefined when the text is not canonical base64
 * @example decodeBase64('aGk=') // utf8('hi')
 */
export function decodeBase64(b64: string): Uint8Array | undefined {
  try {
    return fromBase64(b64);
  } catch {
    return undefined;
  }
}

// --- internal ---

const BASE64_RUN = /[A-Za-z0-9+/]{12,}={0,2}/g;

const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

function fragmentKey(bytes: Uint8Array, at: number): string {
  let key = '';
  for (let i = at; i < at + FRAGMENT_BYTES; i++) {
    const b = bytes[i] ?? 0;
    key += String.fromCharCode(b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  }
  return key;
}

function headKey(bytes: Uint8Array, at: number): number {
  let key = 0;
  for (let i = at; i < at + 4; i++) {
    const b = bytes[i] ?? 0;
    key = key * 256 + (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
  }
  return key;
}

function isContinuation(b: number | undefined): boolean {
  return b !== undefined && b >= 0x80 && b <= 0xbf;
}

function decodeLenient(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let run = start;
  for (let i = start; i < end;) {
    const size = utf8SequenceLength(bytes, i);
    if (size === 0 || i + size > end) {
      out +=
        DECODER.decode(bytes.subarray(run, i)) + `\\x${(bytes[i] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
      i++;
      run = i;
    } else i += size;
  }
  return out + DECODER.decode(bytes.subarray(run, end));
}

function sortKeys(o: { [key: string]: Json }): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(o).sort()) out[key] = o[key] as Json;
  return out;
}
