/**
 * Secret masking: the one masker ({@link Masker}) every output of the kit goes through — the
 * terminal, `--json`, error messages, the client's errors and every report file (whose
 * `Redactor`, src/reports/redact.ts, adds protocol JSON values to it).
 *
 * The rule. For each secret of at least {@link MIN_SECRET_LENGTH} characters, a text is masked
 * where it holds:
 * - the secret in any ASCII case (`s3cret`, `S3CRET`), or upper- or lower-cased whole beyond ASCII (`É` for
 *   `é`), shown as {@link maskSecret} (the exact secret) or `‹N bytes masked: part of a secret›` (another case or
 *   an encoded form below);
 * - the secret JSON-escaped (`"` as `\"`, `\` as `\\`, controls as `\n`, `\u0001`; past ASCII as itself or as
 *   `\u00e9`, `/` as itself or `\/`, as Python's, PHP's and Java's encoders write it),
 *   percent-encoded (`encodeURIComponent`, `encodeURI`, `URLSearchParams`; hex digits in either case) or
 *   HTML-escaped (`&amp;` `&lt;` `&gt;` `&quot;` `&#39;`/`&apos;`), in any ASCII case: a secret
 *   that reached a text already encoded;
 * - in a text holding a backslash, any of the above once every JSON escape is read as the character it stands for:
 *   a secret behind the escapes an encoder chose (Go's `\u003c` for `<`, every character as `\uXXXX`), masked
 *   escapes and all;
 * - any run of {@link FRAGMENT_BYTES} (12) bytes of a secret, ASCII case ignored: a truncated,
 *   trimmed or re-cased secret (what a mistaken implementation prints), shown as
 *   `‹N bytes masked: part of a secret›` over the whole run of such bytes;
 * - a run of 8 bytes of a secret at most 2 bytes from a range masked above (with the bytes
 *   between): the rest of a secret that differs inside (one byte changed in its middle);
 * - a base64 run (12 or more characters of the standard alphabet `+` `/` or of the URL-safe one `-` `_`,
 *   padded or not) whose bytes, at any alignment, hold one of the above, shown as {@link BASE64_MASK}:
 *   in free text and in bytes alike (a signature content an implementation built may hold a secret's
 *   base64 or base64url, and is shown by {@link Masker.plain} and {@link Masker.ranges}).
 *
 * Why 12 bytes and not fewer: a secret shares short runs with ordinary text — `acme-gateway-key`
 * shares `-gateway` (8 bytes) with `pgv2kit-gateway` — and masking those made commands, ids and
 * paths unreadable and printed commands unusable. Twelve bytes of a secret are the larger part of
 * any real one (secrets are 16 bytes or more in practice) and carry ~70 bits or more of it when it
 * is random; a text merely sharing 12 bytes with a secret is rare. A secret shorter than 12 bytes
 * is masked whole (any case, any of the encodings) but not in parts.
 *
 * Why a floor of 6 characters, in every output alike: a 2-letter "secret" masked everywhere makes
 * every output unreadable (each `ab` in a word gone), and a secret that short protects nothing (it
 * is guessed in microseconds from one signature). The kit never prints a secret by construction;
 * masking is the safety net behind that, and one rule for files and terminal means a leak the
 * files mask is masked on the terminal too.
 * @module
 */
import { utf8SequenceLength } from './utf8.js';

/** Secrets shorter than this (in characters) are not masked: see the module's doc. */
export const MIN_SECRET_LENGTH = 6;

/** Length of the secret fragments that are masked wherever they appear. */
export const FRAGMENT_BYTES = 12;

/** Shown instead of a base64 or base64url run (in free text or in bytes) whose bytes hold secret material. */
export const BASE64_MASK = '‹base64 masked: it holds a secret›';

/** A byte range of a text or content that is shown masked. */
export interface MaskRange {
  readonly start: number;
  readonly end: number;
  /** What is shown instead of the bytes. */
  readonly display: string;
}

/**
 * Masks a secret for output: its length and at most its first two characters,
 * never more (a secret of four characters or fewer shows none).
 * @param secret - the application secret
 * @returns a masked form such as `sk******** (10 chars)`
 * @example maskSecret('sk_live_123456') // 'sk************ (14 chars)'
 */
export function maskSecret(secret: string): string {
  const chars = [...secret];
  const shown = chars.length > 4 ? chars.slice(0, 2).join('') : '';
  return `${shown}${'*'.repeat(Math.max(chars.length - [...shown].length, 0))} (${chars.length} chars)`;
}

/**
 * Masks every secret in a text by the kit's one rule ({@link Masker}; see the module's doc).
 * For many texts, make one {@link Masker} and call its `text`.
 * @param text - the text to clean
 * @param secrets - the secrets to hide (shorter than {@link MIN_SECRET_LENGTH}: ignored)
 * @returns the text with each secret masked
 * @example redact('secret=abcdefgh', ['abcdefgh']) // 'secret=ab****** (8 chars)'
 */
export function redact(text: string, secrets: readonly string[]): string {
  return new Masker(secrets).text(text);
}

/** The kit's one masker of secrets in texts and bytes (the rule: see the module's doc). */
export class Masker {
  readonly #patterns: ReadonlyArray<{ readonly low: Buffer; readonly exact?: Buffer; readonly mask: string }>;
  readonly #fragments: ReadonlySet<string>;
  readonly #nearFragments: ReadonlySet<string>;
  /** The first four bytes of each fragment (lower-cased), to reject most positions cheaply. */
  readonly #heads: ReadonlySet<number>;
  /**
   * Every window of {@link WINDOW_BYTES} bytes of every pattern (lower-cased): a text holding none of them holds no
   * secret, no encoded form and no fragment, so most texts are passed after one look at each of their bytes.
   */
  readonly #windows: ReadonlySet<number>;
  /** The first four bytes of each of {@link Masker.#windows}. */
  readonly #windowHeads: ReadonlySet<number>;
  readonly #texts = new Map<string, string>();
  /** Whether there is anything to mask. */
  readonly empty: boolean;
  /** Whether a secret holds a character JSON escapes with a letter or itself (`"` `\` `/` and controls). */
  readonly #escapable: boolean;

  /**
   * @param secrets - the secrets to hide (shorter than {@link MIN_SECRET_LENGTH}: ignored)
   */
  constructor(secrets: Iterable<string>) {
    const unique = [...new Set([...secrets].filter((s) => [...s].length >= MIN_SECRET_LENGTH))];
    const patterns = new Map<string, { low: Buffer; exact: Buffer | undefined; mask: string }>();
    const fragments = new Set<string>();
    const near = new Set<string>();
    const heads = new Set<number>();
    for (const s of unique) {
      const mask = maskSecret(s);
      // beyond ASCII's case, the secret upper- and lower-cased whole (`é` and `É` differ in their UTF-8 bytes): the
      // same as the secret where it is ASCII, so nothing more to look for then
      for (const variant of new Set([s, s.toUpperCase(), s.toLowerCase()])) {
        for (const form of encodedForms(variant)) {
          // an encoded form is shown as `‹N bytes masked…›`: its mask's two characters could break the encoding
          const exact = form === s ? Buffer.from(form, 'utf8') : undefined;
          const low = lower(Buffer.from(form, 'utf8'));
          const known = patterns.get(low.toString('latin1'));
          if (!known || (exact && !known.exact)) patterns.set(low.toString('latin1'), { low, exact, mask });
        }
        const low = lower(Buffer.from(variant, 'utf8'));
        for (let i = 0; low.length > FRAGMENT_BYTES && i + NEAR_BYTES <= low.length; i++) {
          if (i + FRAGMENT_BYTES <= low.length) fragments.add(low.toString('latin1', i, i + FRAGMENT_BYTES));
          near.add(low.toString('latin1', i, i + NEAR_BYTES));
          heads.add(low.readUInt32BE(i));
        }
      }
    }
    this.#patterns = [...patterns.values()].sort((a, b) => b.low.length - a.low.length);
    const windows = new Set<number>();
    const windowHeads = new Set<number>();
    for (const { low } of this.#patterns)
      for (let i = 0; i + WINDOW_BYTES <= low.length; i++) {
        windows.add(low.readUIntBE(i, WINDOW_BYTES));
        windowHeads.add(low.readUInt32BE(i));
      }
    this.#windows = windows;
    this.#windowHeads = windowHeads;
    this.#fragments = fragments;
    this.#nearFragments = near;
    this.#heads = heads;
    this.empty = patterns.size === 0;
    this.#escapable = unique.some((secret) => /["\\/\u0008\u000c\n\r\t]/.test(secret));
  }

  /**
   * The ranges of bytes to mask: base64 and base64url runs that hold secret material first (shown as
   * {@link BASE64_MASK}), then secrets and their encoded forms, then fragments of secrets.
   * @param bytes - any bytes
   * @returns the ranges, in order, not overlapping, on UTF-8 character boundaries
   * @example new Masker(['s3cret-value']).ranges(Buffer.from('k=s3cret-value')) // [{ start: 2, end: 14, … }]
   */
  ranges(bytes: Uint8Array): MaskRange[] {
    if (this.empty) return [];
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const covered = new Uint8Array(buf.length);
    const ranges: MaskRange[] = [];
    // a run of the base64 alphabets (ASCII: the latin1 reading of the bytes finds them where they are)
    for (const m of buf.toString('latin1').matchAll(BASE64_RUN)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!this.#base64HoldsSecret(m[0])) continue;
      covered.fill(1, start, end);
      ranges.push({ start, end, display: BASE64_MASK });
    }
    const found = this.#ranges(buf, covered, ranges);
    // a backslash: JSON escapes, each read as what it stands for (a secret whose `<` an encoder wrote `\u003c`)
    // (a `\u` escape can stand for any character; the others only for the few a secret may hold)
    const escaped = buf.includes(UNICODE_ESCAPE) || (this.#escapable && buf.includes(BACKSLASH));
    return escaped ? merged(found, this.#escapedRanges(buf)) : found;
  }

  /**
   * The spans of bytes that hold secret material once JSON's escapes in them are read as the characters they stand
   * for: `\uXXXX` (a surrogate pair as one character), `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`. Encoders
   * escape what they choose (Go `<`, `>` and `&`; some every character past ASCII, or every one): no list of forms
   * keeps up, the text they stand for does.
   */
  #escapedRanges(buf: Buffer): Array<readonly [number, number]> {
    const view: number[] = [];
    const from: number[] = [];
    const to: number[] = [];
    const push = (bytes: Iterable<number>, start: number, end: number): void => {
      for (const b of bytes) {
        view.push(b);
        from.push(start);
        to.push(end);
      }
    };
    let escapes = 0;
    for (let i = 0; i < buf.length;) {
      const simple = buf[i] === BACKSLASH ? SIMPLE_ESCAPES.get(buf[i + 1] ?? -1) : undefined;
      const code = buf[i] === BACKSLASH ? hex4(buf, i + 1) : undefined;
      if (simple !== undefined) {
        push([simple], i, i + 2);
        i += 2;
      } else if (code !== undefined) {
        const low = code >= 0xd800 && code < 0xdc00 && buf[i + 6] === BACKSLASH ? hex4(buf, i + 7) : undefined;
        const pair = low !== undefined && low >= 0xdc00 && low < 0xe000;
        const point = pair ? 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00) : code;
        const end = i + (pair ? 12 : 6);
        push(Buffer.from(String.fromCodePoint(point), 'utf8'), i, end);
        i = end;
      } else {
        push([buf[i] as number], i, i + 1);
        i += 1;
        continue;
      }
      escapes += 1;
    }
    if (escapes === 0) return [];
    const text = Buffer.from(view);
    return this.#ranges(text, new Uint8Array(text.length), []).map(
      (r) => [from[r.start] as number, to[r.end - 1] as number] as const,
    );
  }

  /** {@link Masker.ranges} but base64 runs: the secrets, their encoded forms and fragments in bytes. */
  #ranges(buf: Buffer, covered: Uint8Array, ranges: MaskRange[]): MaskRange[] {
    const low = lower(buf);
    // nothing found so far and no window of a pattern in the text: nothing to mask (the fragments are windows of the
    // plain secret's pattern; the near runs only grow a range found)
    if (ranges.length === 0 && !this.#holdsWindow(low)) return ranges;
    for (const { low: pattern, exact, mask } of this.#patterns) {
      for (let at = low.indexOf(pattern); at >= 0; at = low.indexOf(pattern, at + 1)) {
        const end = at + pattern.length;
        if (covered.subarray(at, end).some((c) => c !== 0)) continue;
        covered.fill(1, at, end);
        const same = exact !== undefined && buf.subarray(at, end).equals(exact);
        ranges.push({ start: at, end, display: same ? mask : partMask(pattern.length) });
      }
    }
    const fragment = this.#marks(low, this.#fragments, FRAGMENT_BYTES);
    const runs = (marks: Uint8Array): Array<[number, number]> => {
      const out: Array<[number, number]> = [];
      for (let i = 0; i < buf.length;) {
        if (marks[i] !== 1 || covered[i] === 1) {
          i++;
          continue;
        }
        let end = i;
        while (end < buf.length && marks[end] === 1 && covered[end] !== 1) end++;
        out.push([i, end]);
        i = end;
      }
      return out;
    };
    const add = (from: number, to: number): void => {
      let start = from;
      let end = to;
      while (start > 0 && isContinuation(buf[start]) && covered[start - 1] !== 1) start--;
      while (end < buf.length && isContinuation(buf[end]) && covered[end] !== 1) end++;
      covered.fill(1, start, end);
      ranges.push({ start, end, display: partMask(end - start) });
    };
    for (const [start, end] of runs(fragment)) add(start, end);
    // a shorter run of a secret next to a masked one (a byte or two apart): the rest of a secret that differs
    // inside (one byte changed), never text that merely shares a short run with a secret
    if (ranges.length > 0) {
      const near = this.#marks(low, this.#nearFragments, NEAR_BYTES);
      for (let grew = true; grew;) {
        grew = false;
        for (const [start, end] of runs(near)) {
          const before = lastCovered(covered, start - 1, start - 1 - NEAR_GAP);
          const after = firstCovered(covered, end, end + NEAR_GAP);
          if (before === undefined && after === undefined) continue;
          add(before === undefined ? start : before + 1, after ?? end);
          grew = true;
        }
      }
    }
    return ranges.sort((a, b) => a.start - b.start);
  }

  /**
   * Whether bytes hold secret material (a secret, an encoded secret or a fragment of one).
   * @param bytes - any bytes
   * @returns true when {@link Masker.ranges} would mask something
   * @example new Masker(['s3cret-value']).holdsSecret(Buffer.from('S3CRET-VALUE')) // true
   */
  holdsSecret(bytes: Uint8Array): boolean {
    return this.ranges(bytes).length > 0;
  }

  /**
   * Bytes as text with secrets masked (a base64 or base64url run in them that holds secret material
   * as {@link BASE64_MASK}): valid UTF-8 as itself (LF, CR and controls included), each byte that is
   * not part of valid UTF-8 as `\xNN`.
   * @param bytes - any bytes (a signature content)
   * @returns the masked text
   * @example new Masker([]).plain(Uint8Array.of(0x61, 0xff)) // 'a\\xFF'
   */
  plain(bytes: Uint8Array): string {
    return rebuild(bytes, this.ranges(bytes));
  }

  /**
   * Free text with secrets masked, and base64 runs that decode to secret material
   * replaced by {@link BASE64_MASK}.
   * @param text - a message, a log line, a comment
   * @returns the masked text
   * @example new Masker(['s3cret-value']).text('key s3cret-value') // 'key s3********** (12 chars)'
   */
  text(text: string): string {
    if (this.empty) return text;
    const known = this.#texts.get(text);
    if (known !== undefined) return known;
    const clean = this.#clean(text);
    // a bounded memo: a long run prints many distinct lines
    if (this.#texts.size >= MEMO_SIZE) this.#texts.clear();
    this.#texts.set(text, clean);
    // a masked text is masked already: masking it again (a safety net over data masked before) finds nothing
    if (clean !== text) this.#texts.set(clean, clean);
    return clean;
  }

  /**
   * A data value with every string in it (keys included) masked as {@link Masker.text}: what is
   * masked before it is encoded (JSON, a page), never the encoded text after.
   * @param value - strings, numbers, booleans, null, arrays and objects of them
   * @returns the same shape as plain data, strings masked (bytes and values with a `toJSON`, such as a Date, as they
   *   are)
   * @example new Masker(['s3cret-value']).data({ a: ['s3cret-value'] }) // { a: ['s3********** (12 chars)'] }
   */
  data<T>(value: T): T {
    if (this.empty) return value;
    return this.#data(value) as T;
  }

  #data(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.#data(v));
    // bytes and what encodes itself (a Date) as they are; any other object as its own fields, as JSON would write it
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || 'toJSON' in value) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.text(k), this.#data(v)]));
  }

  /** Whether a window of {@link WINDOW_BYTES} bytes of a pattern is in the (lower-cased) bytes. */
  #holdsWindow(low: Buffer): boolean {
    // a rolling key of the last four bytes first (arithmetic, no call a byte), the whole window only on a hit
    let head = 0;
    for (let i = 0; i < low.length; i++) {
      head = ((head << 8) | (low[i] as number)) >>> 0;
      const start = i - 3;
      if (start < 0 || start + WINDOW_BYTES > low.length || !this.#windowHeads.has(head)) continue;
      if (this.#windows.has(low.readUIntBE(start, WINDOW_BYTES))) return true;
    }
    return false;
  }

  /** 1 at each byte of a window of `size` bytes that is one of `windows`. */
  #marks(low: Buffer, windows: ReadonlySet<string>, size: number): Uint8Array {
    const marks = new Uint8Array(low.length);
    for (let i = 0; i + size <= low.length; i++) {
      if (this.#heads.has(low.readUInt32BE(i)) && windows.has(low.toString('latin1', i, i + size)))
        marks.fill(1, i, i + size);
    }
    return marks;
  }

  #clean(text: string): string {
    const bytes = Buffer.from(text, 'utf8');
    const ranges = this.ranges(bytes);
    return ranges.length === 0 ? text : rebuild(bytes, ranges);
  }

  /** Whether a base64 or base64url run's bytes, at any of its four alignments, hold secret material. */
  #base64HoldsSecret(run: string): boolean {
    for (let shift = 0; shift < 4 && run.length - shift >= 8; shift++) {
      // Node's base64 decoder reads the URL-safe alphabet too (`-` as `+`, `_` as `/`)
      const bytes = Buffer.from(run.slice(shift), 'base64');
      if (this.#ranges(bytes, new Uint8Array(bytes.length), []).length > 0) return true;
    }
    return false;
  }
}

// --- internal ---

const BACKSLASH = 0x5c;
const UNICODE_ESCAPE = Buffer.from('\\u', 'latin1');

/** JSON's one-character escapes (after the backslash): the byte each stands for. */
const SIMPLE_ESCAPES: ReadonlyMap<number, number> = new Map([
  [0x22, 0x22], // \"
  [0x5c, 0x5c], // \\
  [0x2f, 0x2f], // \/
  [0x62, 0x08], // \b
  [0x66, 0x0c], // \f
  [0x6e, 0x0a], // \n
  [0x72, 0x0d], // \r
  [0x74, 0x09], // \t
]);

/** The code unit of `uXXXX` at `at` (the byte after a backslash), or undefined. */
function hex4(buf: Buffer, at: number): number | undefined {
  if (buf[at] !== 0x75 || at + 5 > buf.length) return undefined;
  const digits = buf.toString('latin1', at + 1, at + 5);
  return /^[0-9a-fA-F]{4}$/.test(digits) ? parseInt(digits, 16) : undefined;
}

/**
 * Ranges and further spans to mask, as one sorted list without overlaps: a span over or beside ranges becomes one
 * range with them (shown as a part of a secret).
 */
function merged(ranges: readonly MaskRange[], spans: ReadonlyArray<readonly [number, number]>): MaskRange[] {
  if (spans.length === 0) return [...ranges];
  const all = [...ranges, ...spans.map(([start, end]) => ({ start, end, display: partMask(end - start) }))].sort(
    (a, b) => a.start - b.start || b.end - a.end,
  );
  const out: MaskRange[] = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last === undefined || r.start >= last.end) out.push(r);
    // a range inside another is dropped; overlapping ones are one part of a secret
    else if (r.end > last.end)
      out[out.length - 1] = { start: last.start, end: r.end, display: partMask(r.end - last.start) };
  }
  return out;
}

const MEMO_SIZE = 10_000;

/** The window a text is first looked at with: the fewest bytes of any pattern ({@link MIN_SECRET_LENGTH}). */
const WINDOW_BYTES = MIN_SECRET_LENGTH;

/** A run of this many bytes of a secret is masked when it is {@link NEAR_GAP} bytes or fewer from a masked range. */
const NEAR_BYTES = 8;
const NEAR_GAP = 2;

function lastCovered(covered: Uint8Array, from: number, to: number): number | undefined {
  for (let i = from; i >= Math.max(0, to); i--) if (covered[i] === 1) return i;
  return undefined;
}

function firstCovered(covered: Uint8Array, from: number, to: number): number | undefined {
  for (let i = from; i <= Math.min(covered.length - 1, to); i++) if (covered[i] === 1) return i;
  return undefined;
}

/** A run of 12 or more characters of base64 or base64url (the two alphabets, padded or not). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;

const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

function partMask(bytes: number): string {
  return `‹${bytes} bytes masked: part of a secret›`;
}

/** The secret and the forms an encoder makes of it (JSON string, URL component, form value, HTML). */
function encodedForms(s: string): string[] {
  const json = JSON.stringify(s).slice(1, -1);
  // JSON as encoders that write ASCII only write it (Python's json.dumps, PHP's json_encode, Jackson's
  // ESCAPE_NON_ASCII): every character past ~ as \uXXXX; and PHP's `/` as `\/`
  const ascii = json.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const slashed = (text: string): string => text.replace(/\//g, '\\/');
  const wellFormed = s.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
  const percent = encodeURIComponent(wellFormed);
  // a query built by URLSearchParams encodes a few more characters (`!'()~`) and a space as `+`
  const form = new URLSearchParams({ s: wellFormed }).toString().slice(2);
  const html = s.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
  return [
    s,
    json,
    ascii,
    slashed(json),
    slashed(ascii),
    percent,
    percent.replace(/%20/g, '+'),
    form,
    encodeURI(wellFormed),
    html,
    html.replace(/&#39;/g, '&apos;'),
  ];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A copy with ASCII letters lower-cased. */
function lower(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) {
    const b = out[i] ?? 0;
    if (b >= 0x41 && b <= 0x5a) out[i] = b + 0x20;
  }
  return out;
}

function isContinuation(b: number | undefined): boolean {
  return b !== undefined && b >= 0x80 && b <= 0xbf;
}

function rebuild(bytes: Uint8Array, ranges: readonly MaskRange[]): string {
  let out = '';
  let at = 0;
  for (const r of ranges) {
    out += decodeLenient(bytes, at, r.start) + r.display;
    at = r.end;
  }
  return out + decodeLenient(bytes, at, bytes.byteLength);
}

function decodeLenient(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let run = start;
  for (let i = start; i < end;) {
    const size = utf8SequenceLength(bytes, i);
    if (size === 0 || i + size > end) {
      const hex = (bytes[i] ?? 0).toString(16).toUpperCase().padStart(2, '0');
      out += DECODER.decode(bytes.subarray(run, i)) + `\\x${hex}`;
      i++;
      run = i;
    } else i += size;
  }
  return out + DECODER.decode(bytes.subarray(run, end));
}
