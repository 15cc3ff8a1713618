/**
 * The one catalogue of known signer mistakes, keyed by the flags of vectors/notes.yaml
 * ({@link KNOWN_MISTAKES}), tried when a header's sign does not match: if the sign of
 * content built with one of these mistakes equals the header's, the mistake is named.
 * Descriptions are fixed text: they never contain a part's value.
 * @module
 */
import { bytesEqual, concatBytes, utf8 } from '../scheme/bytes.js';
import { signatureContent } from '../scheme/content.js';
import type { SignatureParts } from '../scheme/parts.js';
import { signContent } from '../scheme/sign.js';
import { isValidUtf8 } from '../scheme/utf8.js';
import { REPLACEMENT_FORMS, replaceIllFormed } from './_utf8-replacement.js';

/** The seven parts with the body as bytes. */
export type ByteParts = SignatureParts & { readonly body: Uint8Array };

/** A known mistake. */
export interface Mistake {
  /** Stable id, e.g. `no-final-lf`: its page is `docs/mistakes/<id>.md`. */
  readonly id: string;
  /** The flag of vectors/notes.yaml it belongs to: its key in {@link KNOWN_MISTAKES}. */
  readonly flag: MistakeFlag;
  /** What the signer did, in one line. */
  readonly description: string;
  /** The reading or spec section the correct behaviour follows. */
  readonly ref: string;
  /** `sign` for a mistake in writing the sign (5.2) over the right content; absent for one in the content. */
  readonly writes?: 'sign';
}

/**
 * The content each known mistake builds for these parts (mistakes that do not apply,
 * or that give the correct content, are left out). A mistake real converters make in
 * more than one form (the bytes that are not UTF-8 replaced) gives one entry per
 * distinct content.
 * @param parts - the parts a correct signer uses
 * @returns the mistakes with their contents, in the order of {@link MISTAKES}
 * @example
 * mistakenContents({
 *   appId,
 *   appSecret,
 *   method: 'POST',
 *   url,
 *   timestamp: '1',
 *   nonce: 'n',
 *   body: utf8(body),
 * })[0]?.mistake.id // 'no-final-lf'
 */
export function mistakenContents(parts: ByteParts): Array<{ readonly mistake: Mistake; readonly content: Uint8Array }> {
  const correct = signatureContent(parts);
  const out: Array<{ mistake: Mistake; content: Uint8Array }> = [];
  for (const { build, writeSign: _, ...mistake } of MISTAKES) {
    const built = build?.(parts, correct);
    const contents: readonly Uint8Array[] = built === undefined ? [] : built instanceof Uint8Array ? [built] : built;
    const kept: Uint8Array[] = [];
    for (const content of contents) {
      if (bytesEqual(content, correct) || kept.some((k) => bytesEqual(k, content))) continue;
      kept.push(content);
      out.push({ mistake, content });
    }
  }
  return out;
}

/**
 * The mistakes whose content has the given sign (case-insensitive: R7 is reported apart).
 * @param parts - the parts a correct signer uses (timestamp and nonce from the header)
 * @param headerSign - the sign read from the header
 * @returns every mistake that reproduces the sign, in the order of {@link MISTAKES} (two
 *   mistakes may give the same content, e.g. a stripped trailing LF and a dropped final LF)
 * @example
 * const parts = { appId, appSecret, method: 'POST', url, timestamp: '1', nonce: 'n', body: utf8(body) };
 * findMistakes(parts, signContent(signatureContent(parts).slice(0, -1))).map((m) => m.id) // ['no-final-lf']
 */
export function findMistakes(parts: ByteParts, headerSign: string): Mistake[] {
  const wanted = headerSign.toLowerCase();
  const rightSign = signContent(signatureContent(parts));
  const digest = Uint8Array.from(Buffer.from(rightSign, 'hex'));
  const signed = MISTAKES.filter(({ writeSign }) => {
    const written = writeSign?.(digest);
    return (
      written !== undefined &&
      written !== rightSign &&
      (written === headerSign || (/^[0-9a-f]+$/.test(written) && written === wanted))
    ); // hex without regard to case (R7 apart), base64 as written
  }).map(({ build: _b, writeSign: _w, ...mistake }) => mistake);
  return [
    ...mistakenContents(parts)
      .filter(({ content }) => signContent(content) === wanted)
      .map(({ mistake }) => mistake),
    ...signed,
  ];
}

/**
 * The mistakes a signer of these parts could make visibly: those whose content differs from
 * the right one, and those whose sign is written otherwise (hex-unpadded when the digest has
 * a byte below 0x10). A verifier that builds its content or sign with one of them refuses the
 * genuine message, so they are the mistakes that could explain its refusal.
 * @param parts - the parts a correct signer uses
 * @returns the mistakes, in the order of {@link MISTAKES}
 * @example
 * differingMistakes({
 *   appId,
 *   appSecret,
 *   method: 'POST',
 *   url,
 *   timestamp: '1',
 *   nonce: 'n',
 *   body: utf8(body),
 * }).some((m) => m.id === 'no-final-lf') // true
 */
export function differingMistakes(parts: ByteParts): Mistake[] {
  const rightSign = signContent(signatureContent(parts));
  const digest = Uint8Array.from(Buffer.from(rightSign, 'hex'));
  const byContent = new Set(mistakenContents(parts).map(({ mistake }) => mistake.id));
  return MISTAKES.filter(
    ({ id, writeSign }) => byContent.has(id) || (writeSign !== undefined && writeSign(digest) !== rightSign),
  ).map(({ build: _b, writeSign: _w, ...mistake }) => mistake);
}

/**
 * How a known mistake builds its content (undefined when it does not apply; several contents when converters make it in
 * several forms).
 */
export type BuildMistake = (p: ByteParts, correct: Uint8Array) => Uint8Array | readonly Uint8Array[] | undefined;

/** How a known mistake writes the sign from the right digest (5.2), e.g. hex without zero padding. */
export type WriteSign = (digest: Uint8Array) => string;

/**
 * One form of a known mistake: its id, what the signer did, the rule it breaks, and how it
 * builds the content (`build`) or, for a mistake in the sign over the right content
 * (`writes: 'sign'`), how it writes the sign from the right digest (`writeSign`).
 */
export interface MistakeForm extends Omit<Mistake, 'flag'> {
  readonly build?: BuildMistake;
  readonly writeSign?: WriteSign;
}

/** A known mistake, as a flag of vectors/notes.yaml names it: a summary and its forms. */
export interface MistakeKind {
  /** What kind of difference it is, in the words of the reference gateway's record. */
  readonly summary: string;
  /** Its forms, each with a page `docs/mistakes/<id>.md`, in the order they are tried. */
  readonly forms: readonly MistakeForm[];
}

const SUMMARY = {
  content: 'the signature content was not built as 5.1 says',
  body: 'body signed differs from body sent',
  url: 'the URL signed differs from the URL sent',
  path: 'the path was signed instead of the full URL',
  method: 'the method signed differs from the method sent',
  encoding: 'the content was not encoded as UTF-8',
  sign: 'the sign was not written as 5.2 says',
} as const;

/**
 * The catalogue of known signer mistakes, keyed by the flag vectors/notes.yaml explains each
 * with (bugType KNOWN_MISTAKE): diagnosis tries every form ({@link MISTAKES}), `pgv2kit
 * generate` flags the cases it builds with a form by its key, the reference gateway's record
 * says its summary. Forms are tried in key order, then form order.
 * @example KNOWN_MISTAKES.PartsOrder.forms.map((f) => f.id) // ['app-id-secret-swapped', 'timestamp-nonce-swapped']
 */
export const KNOWN_MISTAKES = {
  FinalLfMissing: {
    summary: SUMMARY.content,
    forms: [
      {
        id: 'no-final-lf',
        ref: '§5.1, R1',
        description: 'the LF after part 7 (the body) was left out',
        build: (_, c) => c.subarray(0, c.byteLength - 1),
      },
    ],
  },
  ExtraLf: {
    summary: SUMMARY.content,
    forms: [
      {
        id: 'extra-final-lf',
        ref: '§5.1, R1',
        description: 'one LF too many at the end of the content',
        build: (_, c) => concatBytes([c, utf8('\n')]),
      },
    ],
  },
  EmptyBodyPartDropped: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-part-left-out',
        ref: '§5.1, R2',
        description: 'part 7 was left out: the content ends after the nonce and its LF',
        build: (p) => head(p),
      },
    ],
  },
  BodyNotSigned: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'empty-body',
        ref: '§5.1',
        description: 'the content was built with an empty body instead of the body sent',
        build: (p) => (p.body.byteLength > 0 ? with_(p, { body: new Uint8Array() }) : undefined),
      },
    ],
  },
  CrlfSeparators: {
    summary: SUMMARY.content,
    forms: [
      {
        id: 'crlf-separators',
        ref: '§5.1',
        description: 'the parts were separated by CR LF instead of LF',
        build: (p) => concatBytes([utf8(fields(p).join('\r\n') + '\r\n'), p.body, utf8('\r\n')]),
      },
    ],
  },
  SecretOmitted: {
    summary: SUMMARY.content,
    forms: [
      {
        id: 'secret-left-out',
        ref: '§5.1',
        description: 'part 2 (the secret) was left out',
        build: (p) =>
          concatBytes([utf8([p.appId, p.method, p.url, p.timestamp, p.nonce].join('\n') + '\n'), p.body, utf8('\n')]),
      },
    ],
  },
  PartsOrder: {
    summary: SUMMARY.content,
    forms: [
      {
        id: 'app-id-secret-swapped',
        ref: '§5.1',
        description: 'parts 1 and 2 (appId and secret) were swapped',
        build: (p) => with_(p, { appId: p.appSecret, appSecret: p.appId }),
      },
      {
        id: 'timestamp-nonce-swapped',
        ref: '§5.1',
        description: 'parts 5 and 6 (timestamp and nonce) were swapped',
        build: (p) => with_(p, { timestamp: p.nonce, nonce: p.timestamp }),
      },
    ],
  },
  MethodCase: {
    summary: SUMMARY.method,
    forms: [
      {
        id: 'method-lower-case',
        ref: 'R5',
        description: 'the method was signed in lower case',
        build: (p) => with_(p, { method: p.method.toLowerCase() }),
      },
      {
        id: 'method-upper-case',
        ref: 'R5',
        description: 'the method was signed in upper case while the request sent it otherwise',
        build: (p) => with_(p, { method: p.method.toUpperCase() }),
      },
    ],
  },
  PathInsteadOfUrl: {
    summary: SUMMARY.path,
    forms: [
      {
        id: 'url-path-only',
        ref: 'R4',
        description: 'part 4 was the path and query only, without scheme://host',
        build: (p) => urlVariant(p, (u) => u.pathname + u.search),
      },
      {
        id: 'url-path-only-without-query',
        ref: 'R4',
        description: 'part 4 was the path only, without scheme://host and query',
        build: (p) => urlVariant(p, (u) => u.pathname),
      },
    ],
  },
  QueryDropped: {
    summary: SUMMARY.url,
    forms: [
      {
        id: 'url-without-query',
        ref: 'R4',
        description: 'part 4 was the URL without its query string',
        build: (p) => urlVariant(p, () => p.url.split('?')[0] ?? p.url),
      },
    ],
  },
  UrlNormalized: {
    summary: SUMMARY.url,
    forms: [
      {
        id: 'url-trailing-slash',
        ref: 'R4',
        description: 'part 4 had a trailing slash added or removed',
        build: (p) => urlVariant(p, () => toggleSlash(p.url)),
      },
      {
        id: 'url-normalised',
        ref: 'R4',
        description: 'part 4 was the URL as a URL parser rewrites it (default port, percent-encoding, host case)',
        build: (p) => urlVariant(p, (u) => u.href),
      },
    ],
  },
  HexUnpadded: {
    summary: SUMMARY.sign,
    forms: [
      {
        id: 'hex-unpadded',
        ref: '§5.2',
        writes: 'sign',
        description:
          'each byte of the digest below 0x10 was written as one ' +
          'hex digit, without its leading zero (fewer than 64 digits)',
        writeSign: (digest) => Array.from(digest, (b) => b.toString(16)).join(''),
      },
      {
        id: 'hex-leading-zeros-dropped',
        ref: '§5.2',
        writes: 'sign',
        description: 'the digest was written as one hex number, its leading zeros dropped (fewer than 64 digits)',
        writeSign: (digest) =>
          Buffer.from(digest)
            .toString('hex')
            .replace(/^0+(?=.)/, ''),
      },
    ],
  },
  SignBase64: {
    summary: SUMMARY.sign,
    forms: [
      {
        id: 'sign-base64',
        ref: '§5.2',
        writes: 'sign',
        description: 'the digest was written in base64, not in hex',
        writeSign: (digest) => Buffer.from(digest).toString('base64'),
      },
    ],
  },
  BodyLfDropped: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-trailing-lf-stripped',
        ref: 'R1',
        description: "the body's trailing LFs were stripped",
        build: (p) => bodyVariant(p, (t) => t.replace(/\n+$/, '')),
      },
    ],
  },
  CrlfConverted: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-crlf-to-lf',
        ref: 'R3',
        description: "the body's CR LF line ends were converted to LF",
        build: (p) => bodyVariant(p, (t) => t.replace(/\r\n/g, '\n')),
      },
      {
        id: 'body-lf-to-crlf',
        ref: 'R3',
        description: "the body's LF line ends were converted to CR LF",
        build: (p) => bodyVariant(p, (t) => t.replace(/\r?\n/g, '\r\n')),
      },
    ],
  },
  BomDropped: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-bom-dropped',
        ref: 'R3',
        description: "the body's BOM was dropped",
        build: (p) => bodyVariant(p, (t) => t.replace(/^\ufeff/, '')),
      },
    ],
  },
  BodyTrimmed: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-trimmed',
        ref: 'R3',
        description: 'the body was trimmed of leading and trailing white space',
        build: (p) => bodyVariant(p, (t) => t.trim()),
      },
    ],
  },
  UnicodeNormalized: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-nfc',
        ref: 'R3',
        description: 'the body was Unicode-normalised (NFC)',
        build: (p) => bodyVariant(p, (t) => t.normalize('NFC')),
      },
      {
        id: 'body-nfd',
        ref: 'R3',
        description: 'the body was Unicode-normalised (NFD)',
        build: (p) => bodyVariant(p, (t) => t.normalize('NFD')),
      },
    ],
  },
  BodyReserialized: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-reserialized',
        ref: '§5.1, §5.4',
        description: 'the body was parsed and serialized again (JSON.stringify) instead of signing the bytes sent',
        build: (p) => bodyVariant(p, reserialize),
      },
      {
        id: 'body-reserialized-pretty',
        ref: '§5.1, §5.4',
        description: 'the body was serialized again with indentation instead of signing the bytes sent',
        build: (p) => bodyVariant(p, (t) => reserialize(t, 2)),
      },
    ],
  },
  BodyTextConverted: {
    summary: SUMMARY.body,
    forms: [
      {
        id: 'body-invalid-utf8-replaced-fffd',
        ref: '§5.1, R3',
        description:
          'the body went through a text conversion before signing (bytes that are not UTF-8 were replaced by ' +
          "U+FFFD, EF BF BD, as Buffer's toString, TextDecoder, Java's new String and Python's decode with " +
          "errors='replace' do)",
        build: (p) => replacedBody(p, FFFD),
      },
      {
        id: 'body-invalid-utf8-replaced-question-mark',
        ref: '§5.1, R3',
        description:
          'the body went through a text conversion before signing (bytes that are not UTF-8 were replaced by ' +
          "'?', as PHP's mb_convert_encoding and mb_scrub do by default, or a decoder set to replace with '?')",
        build: (p) => replacedBody(p, QUESTION_MARK),
      },
      {
        id: 'body-reserialized-lossy',
        ref: '§5.1, §5.4, R3',
        description:
          'the body, not valid UTF-8, was decoded with U+FFFD for its ' +
          'bad bytes, then parsed and serialized again (JSON.stringify)',
        build: lossyReserialized,
      },
    ],
  },
  Latin1Body: {
    summary: SUMMARY.encoding,
    forms: [
      {
        id: 'latin1',
        ref: '§5.2, R3',
        description: 'the content was encoded as Latin-1 instead of UTF-8',
        build: (p) => latin1(p, 'within'),
      },
      {
        id: 'latin1-low-byte',
        ref: '§5.2, R3',
        description:
          "the content was encoded one byte per UTF-16 unit, its low byte (Node's Buffer 'latin1'), instead of UTF-8",
        build: (p) => latin1(p, 'low-byte'),
      },
      {
        id: 'latin1-question-mark',
        ref: '§5.2, R3',
        description:
          "the content was encoded as Latin-1 with '?' for each character Latin-1 lacks " +
          "(Java's getBytes, Python's errors='replace'), instead of UTF-8",
        build: (p) => latin1(p, 'question-mark'),
      },
    ],
  },
} as const satisfies Record<string, MistakeKind>;

/** A flag of vectors/notes.yaml that names a known signer mistake (a key of {@link KNOWN_MISTAKES}). */
export type MistakeFlag = keyof typeof KNOWN_MISTAKES;

/**
 * Every form of every known mistake, with its flag, in the order they are tried.
 * @example MISTAKES.find((m) => m.id === 'no-final-lf')?.flag // 'FinalLfMissing'
 */
export const MISTAKES: ReadonlyArray<Mistake & { readonly build?: BuildMistake; readonly writeSign?: WriteSign }> = (
  Object.entries(KNOWN_MISTAKES) as Array<[MistakeFlag, MistakeKind]>
).flatMap(([flag, kind]) => kind.forms.map((form) => ({ ...form, flag })));

/**
 * The summary of a mistake's kind (what the reference gateway's record says).
 * @param mistake - a mistake of {@link MISTAKES}
 * @returns e.g. `the signature content was not built as 5.1 says`
 * @example mistakeSummary(MISTAKES[0]) // 'the signature content was not built as 5.1 says'
 */
export function mistakeSummary(mistake: Pick<Mistake, 'flag'>): string {
  return KNOWN_MISTAKES[mistake.flag].summary;
}

// --- internal ---

function fields(p: ByteParts): string[] {
  return [p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce];
}

function head(p: ByteParts): Uint8Array {
  return utf8(fields(p).join('\n') + '\n');
}

function with_(p: ByteParts, change: Partial<ByteParts>): Uint8Array {
  return signatureContent({ ...p, ...change });
}

function urlVariant(p: ByteParts, f: (u: URL) => string): Uint8Array | undefined {
  let u: URL;
  try {
    u = new URL(p.url);
  } catch {
    return undefined;
  }
  const url = f(u);
  return url === p.url ? undefined : with_(p, { url });
}

function toggleSlash(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  const rest = q < 0 ? '' : url.slice(q);
  return (path.endsWith('/') ? path.slice(0, -1) : `${path}/`) + rest;
}

function bodyVariant(p: ByteParts, f: (text: string) => string | undefined): Uint8Array | undefined {
  if (p.body.byteLength === 0 || !isValidUtf8(p.body)) return undefined;
  const text = decodeUtf8(p.body);
  const changed = f(text);
  return changed === undefined || changed === text ? undefined : with_(p, { body: utf8(changed) });
}

function reserialize(text: string, indent?: number): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, indent);
  } catch {
    return undefined;
  }
}

/**
 * Latin-1 encodings of the content text. `within`: text that Latin-1 holds (one byte per
 * code point). For text with characters beyond U+00FF, the two ways real encoders go on:
 * `low-byte` keeps the low byte of each UTF-16 unit (Node's Buffer 'latin1'), `question-mark`
 * writes "?" for each such code point (Java's getBytes, Python's errors='replace').
 */
function latin1(p: ByteParts, how: 'within' | 'low-byte' | 'question-mark'): Uint8Array | undefined {
  if (!isValidUtf8(p.body)) return undefined;
  const text = `${fields(p).join('\n')}\n${decodeUtf8(p.body)}\n`;
  const beyond = /[^\x00-\xff]/.test(text);
  const codePoints = [...text].map((ch) => ch.codePointAt(0) ?? 0);
  if (how === 'within') return beyond || !/[^\x00-\x7f]/.test(text) ? undefined : Uint8Array.from(codePoints);
  if (!beyond) return undefined;
  if (how === 'low-byte') return Uint8Array.from({ length: text.length }, (_, i) => text.charCodeAt(i) & 0xff);
  return Uint8Array.from(codePoints.map((cp) => (cp > 0xff ? 0x3f : cp)));
}

const FFFD = Uint8Array.of(0xef, 0xbf, 0xbd);
const QUESTION_MARK = Uint8Array.of(0x3f);

/**
 * A body that is not UTF-8 after a text conversion (decoded with replacement, encoded
 * back as UTF-8): each ill-formed part replaced, in every form real converters cut them
 * (./_utf8-replacement.ts). The Unicode "maximal subpart" form comes first; Java's form
 * (an encoded surrogate as one) and the per-byte form (Go's decoder; PHP's mbstring does
 * NOT replace per byte: it follows the maximal-subpart rule, php/php-src#8360) differ
 * from it only for encoded surrogates and truncated sequences. A BOM is kept (a
 * TextDecoder left at its default would also drop it: that is two mistakes at once).
 */
function replacedBody(p: ByteParts, replacement: Uint8Array): Uint8Array[] | undefined {
  if (isValidUtf8(p.body)) return undefined;
  return REPLACEMENT_FORMS.map((form) => with_(p, { body: replaceIllFormed(p.body, replacement, form) }));
}

/** JSON.parse + JSON.stringify of a body that is not UTF-8, read as a string SDK reads it: bad bytes become U+FFFD. */
function lossyReserialized(p: ByteParts): Uint8Array | undefined {
  if (isValidUtf8(p.body)) return undefined;
  const changed = reserialize(decodeUtf8(p.body));
  return changed === undefined ? undefined : with_(p, { body: utf8(changed) });
}

/** UTF-8 text of bytes, a BOM kept, bytes that are not UTF-8 as U+FFFD (WHATWG decoding, as Node's Buffer does). */
function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
