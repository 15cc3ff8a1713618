/**
 * Reading a multipart/form-data body (spec §4.2) into its parts, in order, with busboy.
 * The upload address of the reference gateway reads every upload this way, and the
 * kit reads the forms clients build this way.
 * @module
 */
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { parseContentType } from './content-type.js';
import { clip } from '../scheme/text.js';
import { Pgv2kitError } from '../errors.js';

/**
 * One part of a multipart/form-data body. A part is a file part when its
 * Content-Disposition carries a non-empty filename; every other part is a text part.
 */
export type MultipartPart =
  | {
      readonly kind: 'field';
      /** The part's name; "" when it has none (busboy cannot tell absent from empty). */
      readonly name: string;
      /** The part's content decoded as text: UTF-8 unless the part's Content-Type names a charset. */
      readonly value: string;
    }
  | {
      readonly kind: 'file';
      /** The part's name; "" when it has none. */
      readonly name: string;
      /** The filename parameter, decoded as UTF-8 (or as `filename*` says), path kept. */
      readonly filename: string;
      /**
       * The part's media type as busboy reports it: lower-case `type/subtype`, parameters
       * dropped; `text/plain` when the part has no Content-Type busboy can parse (RFC 7578 §4.4).
       */
      readonly contentType: string;
      /** The part's bytes, exactly. */
      readonly data: Uint8Array;
    };

/** Kinds of {@link MultipartPart}. */
export type MultipartPartKind = MultipartPart['kind'];

/**
 * The stable code of {@link MultipartError}.
 * @example (await parseMultipart(utf8('x'), 'text/plain').catch((e) => e)).code === MULTIPART_MALFORMED // true
 */
export const MULTIPART_MALFORMED = 'PGV2_MULTIPART_MALFORMED';

/**
 * A body that is not readable multipart/form-data: a Content-Type that is not
 * multipart/form-data or has no boundary, a malformed part header, a body that ends
 * before its close delimiter, a part the parser had to skip.
 * @example
 * await parseMultipart(utf8('x'), 'text/plain') // throws MultipartError
 */
export class MultipartError extends Pgv2kitError {
  /** Always {@link MULTIPART_MALFORMED}. */
  override readonly code = MULTIPART_MALFORMED;
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  override readonly name = 'MultipartError';

  /**
   * @param message - what is wrong with the body
   * @param options - the underlying parser error, as `cause`
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * Reads a multipart/form-data body into its parts, in the order they appear
 * (spec §4.2), with busboy (preservePath, UTF-8 parameters, no size limits).
 *
 * What busboy does that a reader of the result should know:
 * - a part is a file part when its Content-Disposition has a non-empty `filename` (or
 *   `filename*`); `filename=""` makes a text part. A part with Content-Type
 *   application/octet-stream and no filename, which busboy hands over as a file, is
 *   returned as a text part (its bytes decoded as UTF-8);
 * - a filename's quoted-string escapes are undone (`\"` → `"`, `\\` → `\`); percent
 *   escapes (`%22`, as browsers write a quote) are not;
 * - the file part's media type is reduced to lower-case `type/subtype` (see {@link MultipartPart});
 * - a preamble before the first delimiter and an epilogue after the close delimiter are ignored;
 * - a part header may hold at most 16 KiB; longer is malformed.
 *
 * busboy silently skips a part without a readable `form-data` Content-Disposition;
 * this function counts the body's delimiters and refuses such a body rather than
 * hide a part.
 *
 * @param body - the request body, as received
 * @param contentType - the request's Content-Type header value, `multipart/form-data; boundary=…`
 * @returns the parts, in order
 * @throws {MultipartError} (rejects) when the body or its Content-Type is not readable
 *   multipart/form-data — never hangs: the whole body is given to the parser at once
 * @throws {TypeError} (rejects) when body is not a Uint8Array or contentType not a string
 * @example
 * const form = buildUploadForm(
 *   {
 *     formFields: [
 *       ['key', 'k/1.pdf'],
 *       ['policy', 'P'],
 *     ],
 *     filename: 'a.pdf',
 *     contentType: 'application/pdf',
 *     file: utf8('%PDF'),
 *   },
 *   { boundary: 'b0' },
 * );
 * const parts = await parseMultipart(form.body, form.contentType);
 * parts.at(-1)?.filename // 'a.pdf'
 */
export async function parseMultipart(body: Uint8Array, contentType: string): Promise<MultipartPart[]> {
  if (!(body instanceof Uint8Array)) throw new TypeError('body must be a Uint8Array');
  if (typeof contentType !== 'string') throw new TypeError('contentType must be a string');
  const boundary = requestBoundary(contentType);
  const parts = await runBusboy(toBuffer(body), contentType);
  const opened = countOpenedParts(toBuffer(body), boundary);
  if (opened !== parts.length) {
    throw new MultipartError(
      `the body opens ${opened} parts but only ${parts.length} could be read: ` +
        `${opened - parts.length} without a readable form-data Content-Disposition`,
    );
  }
  return parts;
}

// --- internal ---

const CRLF = Buffer.from('\r\n');

/** The boundary of a multipart/form-data Content-Type, as busboy reads it. */
function requestBoundary(contentType: string): string {
  const parsed = parseContentType(contentType);
  if (!parsed) throw new MultipartError(`Content-Type ${JSON.stringify(clip(contentType, 80))} is malformed`);
  if (parsed.type !== 'multipart' || parsed.subtype !== 'form-data') {
    throw new MultipartError(`Content-Type ${parsed.type}/${parsed.subtype} is not multipart/form-data (4.2)`);
  }
  const boundary = parsed.params['boundary'];
  if (boundary === undefined) throw new MultipartError('Content-Type multipart/form-data has no boundary');
  if (boundary === '') throw new MultipartError('Content-Type multipart/form-data has an empty boundary');
  return boundary;
}

type Slot =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string | undefined; contentType: string; data: Uint8Array };

function runBusboy(body: Buffer, contentType: string): Promise<MultipartPart[]> {
  return new Promise<MultipartPart[]>((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown): void => {
      if (settled) return;
      settled = true;
      const cause = e instanceof Error ? e : new Error(String(e));
      reject(new MultipartError(`malformed multipart body: ${cause.message}`, { cause }));
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        preservePath: true,
        defParamCharset: 'utf8',
        limits: { fieldSize: Infinity, fileSize: Infinity, fields: Infinity, files: Infinity, parts: Infinity },
      });
    } catch (e) {
      fail(e);
      return;
    }

    const slots: Slot[] = [];
    const files: Promise<void>[] = [];
    parser.on('field', (name: string | undefined, value: string) => {
      slots.push({ kind: 'field', name: name ?? '', value });
    });
    parser.on('file', (name: string | undefined, stream: Readable, info: busboy.FileInfo) => {
      const slot: Slot = {
        kind: 'file',
        name: name ?? '',
        filename: info.filename,
        contentType: info.mimeType,
        data: new Uint8Array(0),
      };
      slots.push(slot);
      files.push(collect(stream, slot, fail));
    });
    parser.on('error', fail);
    parser.on('close', () => {
      void Promise.all(files).then(() => {
        if (settled) return;
        settled = true;
        resolve(slots.map(toPart));
      });
    });
    parser.end(body);
  });
}

/** Reads a file part's stream into its slot; resolves either way, reporting an error to `fail`. */
function collect(stream: Readable, slot: Extract<Slot, { kind: 'file' }>, fail: (e: unknown) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', (e) => {
      fail(e);
      resolve();
    });
    stream.on('end', () => {
      const all = Buffer.concat(chunks);
      slot.data = new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
      resolve();
    });
  });
}

function toPart(slot: Slot): MultipartPart {
  if (slot.kind === 'field') return { kind: 'field', name: slot.name, value: slot.value };
  if (slot.filename === undefined || slot.filename === '') {
    return { kind: 'field', name: slot.name, value: Buffer.from(slot.data).toString('utf8') };
  }
  return { kind: 'file', name: slot.name, filename: slot.filename, contentType: slot.contentType, data: slot.data };
}

/**
 * How many parts the body opens, counted as busboy's delimiter search sees them:
 * a delimiter (CRLF "--" boundary; busboy puts a CRLF before the body) followed by CRLF
 * opens a part, one followed by "--" closes the body.
 */
function countOpenedParts(body: Buffer, boundary: string): number {
  const haystack = Buffer.concat([CRLF, body]);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let opened = 0;
  for (let at = haystack.indexOf(delimiter); at >= 0; at = haystack.indexOf(delimiter, at + delimiter.length)) {
    const next = at + delimiter.length;
    if (haystack[next] === 0x2d && haystack[next + 1] === 0x2d) break;
    if (haystack[next] === 0x0d && haystack[next + 1] === 0x0a) opened++;
  }
  return opened;
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
