/**
 * What `pgv2kit explain` finds out about a signature: the content part by part (the
 * secret masked), its length and sign, notes on everything that commonly makes a
 * sign differ, and — given an Authorization header — the parse result, the
 * comparison and the mistakes that reproduce the header's sign. Data only; the
 * text and JSON forms are rendered from it.
 * @module
 */
import {
  formatAuthorization,
  parseAuthorization,
  type AuthorizationItems,
  type HeaderProblem,
  type Tolerance,
} from '../../scheme/authorization.js';
import { utf8 } from '../../scheme/bytes.js';
import { signEquals } from '../../scheme/constant-time.js';
import { signatureContent } from '../../scheme/content.js';
import { maskSecret } from '../../scheme/mask.js';
import { PART_NAMES, type PartName } from '../../scheme/parts.js';
import { signContent } from '../../scheme/sign.js';
import { showBytes, type ByteFacts } from '../visible-bytes.js';
import { findMistakes, type Mistake } from '../../diagnosis/mistakes.js';

/** The inputs of {@link explainSignature}. */
export interface ExplainInput {
  readonly appId: string;
  readonly appSecret: string;
  readonly method: string;
  readonly url: string;
  /** The body bytes exactly as read. */
  readonly body: Uint8Array;
  /** Where the body came from, for notes. */
  readonly bodySource: 'option' | 'file' | 'stdin' | 'none';
  /** Either timestamp and nonce … */
  readonly timestamp?: string;
  readonly nonce?: string;
  /** … or the Authorization header value they are read from (R6). */
  readonly authorization?: string;
}

/** One part of the content, as shown. */
export interface PartView {
  /** 1 to 7, spec §5.1. */
  readonly index: number;
  readonly name: PartName;
  /** Display lines of the part followed by its LF ({@link showBytes}); the secret masked. */
  readonly lines: readonly string[];
  /** The display without the final LF mark, LFs kept as LF (for JSON). */
  readonly display: string;
  /** The part's length in bytes (without its LF). */
  readonly bytes: number;
  /** True for part 2: the display is {@link maskSecret}, never the secret. */
  readonly masked: boolean;
  /** For parts 5 and 6 read from the header (R6). */
  readonly fromHeader: boolean;
}

/** Something worth knowing about the inputs, with the reading or section it follows. */
export interface Note {
  readonly part: PartName | 'content' | 'authorization';
  readonly ref?: string;
  readonly message: string;
}

/** An Authorization header the parser accepted (R8). */
export interface ParsedHeader {
  readonly ok: true;
  readonly header: string;
  readonly items: AuthorizationItems;
  readonly tolerated: readonly Tolerance[];
  readonly extra: Readonly<Record<string, string>>;
}

/** An Authorization header the parser refused, with the problem and its message. */
export interface RefusedHeader {
  readonly ok: false;
  readonly header: string;
  readonly problem: HeaderProblem;
  readonly message: string;
}

/** How the header's sign compares with the computed one. */
export interface Comparison {
  readonly headerSign: string;
  readonly computedSign: string;
  /** Whether the header's appId equals --app-id (a verifier refuses it otherwise, R9). */
  readonly appIdMatches: boolean;
  /** The form of the header's sign: 64 lower-case hex digits, upper-case hex (R7), or not a sign at all. */
  readonly signForm: 'lower-hex' | 'upper-hex' | 'wrong-length' | 'non-hex';
  /** The same digest, ignoring hex case. */
  readonly sameDigest: boolean;
}

/** The content, once timestamp and nonce are known. */
export interface ContentView {
  readonly parts: readonly PartView[];
  readonly contentBytes: number;
  /** The computed sign: SHA-256 of the content, 64 lower-case hex digits (§5.2). */
  readonly sign: string;
  readonly notes: readonly Note[];
}

/**
 * Everything explain found, by verdict: a header the parser refused (no content:
 * its timestamp and nonce are unknown), no header to compare with, a match or a mismatch.
 */
export type Explanation =
  | { readonly verdict: 'refused'; readonly header: RefusedHeader; readonly notes: readonly Note[] }
  | (ContentView & {
      readonly verdict: 'no-header';
      /** The header a correct signer sends; absent when no header can carry the values (a note says why). */
      readonly expectedHeader?: string;
    })
  | (ContentView & {
      readonly verdict: 'match' | 'mismatch';
      readonly header: ParsedHeader;
      readonly comparison: Comparison;
      /** On a mismatch: the known mistakes that reproduce the header's sign. */
      readonly mistakes: readonly Mistake[];
    });

/** One of the verdicts of {@link Explanation}. */
export type Verdict = Explanation['verdict'];

/**
 * Explains a signature (spec §5.1–§5.3, readings R1–R8).
 * @param input - the parts, and timestamp + nonce or the header
 * @returns the explanation
 * @throws {RangeError} when neither timestamp + nonce nor a header is given
 * @example
 * explainSignature({
 *   appId,
 *   appSecret,
 *   method: 'POST',
 *   url,
 *   body: utf8(body),
 *   bodySource: 'file',
 *   authorization,
 * }).verdict
 */
export function explainSignature(input: ExplainInput): Explanation {
  const notes: Note[] = [];
  let header: ParsedHeader | undefined;
  let timestamp = input.timestamp;
  let nonce = input.nonce;
  if (input.authorization !== undefined) {
    // read as leniently as R8 lets a parser: what it tolerates is noted as open, not refused
    const parsed = parseAuthorization(input.authorization, { ignoreEmpty: true, foldNames: true });
    if (!parsed.ok) {
      return {
        verdict: 'refused',
        header: { ok: false, header: input.authorization, problem: parsed.problem, message: parsed.message },
        notes,
      };
    }
    header = {
      ok: true,
      header: input.authorization,
      items: parsed.items,
      tolerated: parsed.tolerated,
      extra: parsed.extra,
    };
    ({ timestamp, nonce } = parsed.items);
    for (const t of parsed.tolerated) notes.push({ part: 'authorization', ref: 'R8', message: TOLERANCE_NOTES[t] });
  }
  if (timestamp === undefined || nonce === undefined)
    throw new RangeError('explainSignature needs timestamp and nonce, or an authorization header');

  const parts = {
    appId: input.appId,
    appSecret: input.appSecret,
    method: input.method,
    url: input.url,
    timestamp,
    nonce,
    body: input.body,
  };
  const content = signatureContent(parts);
  const sign = signContent(content);
  const views = PART_NAMES.map((name, i): PartView => {
    const masked = name === 'appSecret';
    const bytes = name === 'body' ? input.body : utf8(parts[name]);
    const shown = masked
      ? { lines: [`«${maskSecret(input.appSecret)}, masked»⏎`], text: maskSecret(input.appSecret) }
      : showBytes(concat(bytes));
    const display = masked ? shown.text : shown.text.slice(0, -1);
    return {
      index: i + 1,
      name,
      lines: shown.lines,
      display,
      bytes: bytes.byteLength,
      masked,
      fromHeader: header !== undefined && (name === 'timestamp' || name === 'nonce'),
    };
  });
  notes.unshift(...partNotes(input, timestamp, nonce), ...bodyNotes(input.body, input.bodySource));

  if (!header) {
    try {
      const expectedHeader = formatAuthorization({ appId: input.appId, sign, timestamp, nonce });
      return { verdict: 'no-header', parts: views, contentBytes: content.byteLength, sign, expectedHeader, notes };
    } catch (e) {
      notes.push({
        part: 'authorization',
        ref: 'R8',
        message: `no Authorization header can carry these values: ${(e as Error).message}`,
      });
      return { verdict: 'no-header', parts: views, contentBytes: content.byteLength, sign, notes };
    }
  }

  const headerSign = header.items.sign;
  const signForm =
    headerSign.length !== 64
      ? 'wrong-length'
      : !/^[0-9a-fA-F]{64}$/.test(headerSign)
        ? 'non-hex'
        : /[A-F]/.test(headerSign)
          ? 'upper-hex'
          : 'lower-hex';
  const comparison: Comparison = {
    headerSign,
    computedSign: sign,
    appIdMatches: header.items.appId === input.appId,
    signForm,
    sameDigest: signEquals(sign, headerSign.toLowerCase()),
  };
  if (!comparison.appIdMatches) {
    notes.push({
      part: 'authorization',
      ref: '§5.3, R9',
      message:
        `the header's appId ${JSON.stringify(header.items.appId)} is not --app-id ${JSON.stringify(input.appId)}: ` +
        'a verifier refuses the header before comparing signs',
    });
  }
  if (signForm === 'upper-hex' && comparison.sameDigest) {
    notes.push({
      part: 'authorization',
      ref: '§5.2, R7',
      message:
        "the header's sign is the right digest in upper-case hex: " +
        'signers must emit lower case; a verifier may refuse it',
    });
  } else if (signForm === 'upper-hex') {
    notes.push({
      part: 'authorization',
      ref: '§5.2, R7',
      message: "the header's sign is in upper-case hex: signers emit lower case",
    });
  } else if (signForm === 'wrong-length') {
    notes.push({
      part: 'authorization',
      ref: '§5.2',
      message: `the header's sign has ${headerSign.length} characters, not 64 hex digits`,
    });
  } else if (signForm === 'non-hex') {
    notes.push({
      part: 'authorization',
      ref: '§5.2',
      message: "the header's sign has a character that is not a hex digit",
    });
  }
  const match = comparison.appIdMatches && signForm === 'lower-hex' && comparison.sameDigest;
  // a sign that is not 64 hex digits can only be the right digest written otherwise (hex without zero padding, base64)
  const malformed = signForm === 'wrong-length' || signForm === 'non-hex';
  const mistakes =
    match || comparison.sameDigest
      ? []
      : findMistakes(parts, headerSign).filter((m) => !malformed || m.writes === 'sign');
  return {
    verdict: match ? 'match' : 'mismatch',
    parts: views,
    contentBytes: content.byteLength,
    sign,
    header,
    comparison,
    mistakes,
    notes,
  };
}

// --- internal ---

const TOLERANCE_NOTES: Record<Tolerance, string> = {
  whitespace: 'the header has white space around its items: a verifier may accept or refuse it',
  'extra-item': 'the header has items other than appId, sign, timestamp, nonce: a verifier may ignore or refuse them',
  'scheme-case': 'the scheme name is not written V2_SHA256 in upper case: a verifier may accept or refuse it',
  'empty-element':
    'the item list has an empty element (two commas, or a comma first or last): ' +
    'a verifier may ignore it or refuse the header (R8 (d))',
  'name-case':
    'an item name is written in another letter case: a verifier may read it as the item or as an unknown one (R8 (e))',
};

function concat(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.byteLength + 1);
  out.set(bytes);
  out[bytes.byteLength] = 0x0a;
  return out;
}

function partNotes(input: ExplainInput, timestamp: string, nonce: string): Note[] {
  const notes: Note[] = [];
  const texts: Array<[PartName, string]> = [
    ['appId', input.appId],
    ['appSecret', input.appSecret],
    ['method', input.method],
    ['url', input.url],
    ['timestamp', timestamp],
    ['nonce', nonce],
  ];
  for (const [name, text] of texts) {
    const label = `part ${PART_NAMES.indexOf(name) + 1} (${name})`;
    if (text === '') notes.push({ part: name, message: `${label} is empty` });
    if (/[\n\r]/.test(text))
      notes.push({
        part: name,
        ref: '§5.1',
        message: `${label} contains a line break: the content's parts can no longer be told apart`,
      });
    else if (text !== text.trim())
      notes.push({
        part: name,
        ref: 'R3',
        message: `${label} starts or ends with white space, which is signed (often a copy-paste mistake)`,
      });
  }
  if (input.method !== input.method.toUpperCase())
    notes.push({
      part: 'method',
      ref: 'R5',
      message: 'the method is not in upper case: it is signed as sent on the wire, where it is upper case',
    });
  if (input.url.includes('#'))
    notes.push({
      part: 'url',
      ref: 'R4',
      message: 'the URL has a fragment (#…): a fragment is never sent, so it is never signed',
    });
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]/.test(input.url))
    notes.push({
      part: 'url',
      ref: 'R4',
      message: 'the URL is not a full URL (scheme://host[:port]/path[?query]) as the request was sent',
    });
  if (!/^\d+$/.test(timestamp))
    notes.push({ part: 'timestamp', ref: '§5.1', message: 'the timestamp is not all digits (spec: milliseconds)' });
  else if (timestamp.length <= 10)
    notes.push({
      part: 'timestamp',
      ref: '§5.1',
      message: 'the timestamp looks like seconds: the spec asks for milliseconds (13 digits today)',
    });
  if (nonce.includes(','))
    notes.push({
      part: 'nonce',
      ref: 'R8',
      message: 'the nonce contains a comma, which ends an item of the Authorization header',
    });
  return notes;
}

function bodyNotes(body: Uint8Array, source: ExplainInput['bodySource']): Note[] {
  const f: ByteFacts = showBytes(body).facts;
  const notes: Note[] = [];
  const add = (ref: string | undefined, message: string): void =>
    void notes.push({ part: 'body', ...(ref ? { ref } : {}), message });
  if (f.bytes === 0)
    add(
      'R2',
      `the body is empty${source === 'none' ? ' (no --body or --body-file)' : ''}: ` +
        'part 7 is the empty string, still followed by LF (the content ends in two LFs)',
    );
  if (f.endsWithLf)
    add('R1', 'the body ends in LF: part 7 is still followed by one LF, so the content ends in two LFs, never three');
  if (f.lf > 0)
    add(
      undefined,
      `the body holds ${f.lf} LF${f.lf === 1 ? '' : 's'} of its own, ` + 'shown ⏎ like the others and signed',
    );
  if (f.cr > 0)
    add(
      'R3',
      `the body holds ${f.cr} CR (\\r)` +
        `${f.crlf > 0 ? `, ${f.crlf === f.cr ? 'all' : f.crlf} in CR LF line ends` : ''}: ` +
        'signed as they are, no line-end conversion',
    );
  if (f.tab > 0) add('R3', `the body holds ${f.tab} tab${f.tab === 1 ? '' : 's'} (\\t), signed as they are`);
  if (f.startsWithBom) add('R3', 'the body starts with a BOM (\\uFEFF, bytes EF BB BF): it is kept and signed');
  if (f.otherControls > 0)
    add(
      'R3',
      `the body holds ${f.otherControls} other control character${f.otherControls === 1 ? '' : 's'} (shown \\xNN)`,
    );
  if (f.nonAsciiChars > 0)
    add(
      'R3',
      `the body holds ${f.nonAsciiChars} non-ASCII character${f.nonAsciiChars === 1 ? '' : 's'} ` +
        `taking ${f.nonAsciiBytes} bytes in UTF-8: lengths in bytes and in characters differ`,
    );
  const otherEscapes = f.escapedChars - (f.startsWithBom ? 1 : 0);
  if (otherEscapes > 0)
    add(
      'R3',
      `the body holds ${otherEscapes} invisible or combining character${otherEscapes === 1 ? '' : 's'} ` +
        '(shown \\uXXXX): Unicode normalisation would change the bytes',
    );
  if (f.invalidBytes > 0)
    add(
      'R3',
      `the body holds ${f.invalidBytes} byte${f.invalidBytes === 1 ? ' that is' : 's that are'} ` +
        'not valid UTF-8 (shown \\xNN): signed as they are',
    );
  return notes;
}
