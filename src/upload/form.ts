/**
 * The upload form a correct client sends (spec §4.2, reading R14), built with the
 * form-data package: every formFields entry as a text part, name and value exactly as
 * received and in the order received, then one part named `file`, last, carrying the
 * file name and the requested content type. No other parts (R14), forwarded entries
 * nobody has seen before included (R15).
 * @module
 */
import type FormData from 'form-data';
import { formData } from '../deps.js';
import { assertHeaderCarriable, assertParamCarriable, assertWellFormed, escapeFormParam } from './form-param.js';

/** formFields as [name, value] pairs, in the order the credentials response gave them (§2.4). */
export type FormFields = ReadonlyArray<readonly [string, string]>;

/**
 * What the form is built from: the issued formFields, the file name and content type of the credentials request, the
 * file.
 */
export interface UploadFormInput {
  /** The formFields of the credentials response, in the order received. */
  readonly formFields: FormFields;
  /** The filename of the credentials request. */
  readonly filename: string;
  /** The contentType of the credentials request; "" when the request gave none. */
  readonly contentType: string;
  /** The file's bytes. */
  readonly file: Uint8Array;
}

/** Options of {@link buildUploadForm}. */
export interface UploadFormOptions {
  /**
   * The multipart boundary, for reproducible bodies: 1–70 characters from
   * `0-9 A-Z a-z ' + - . _` (RFC 2046 boundary characters that are also RFC 9110 token
   * characters, so the Content-Type needs no quotes). Default: form-data's random one.
   */
  readonly boundary?: string;
}

/** A built form: the request's Content-Type and body. */
export interface UploadForm {
  /** `multipart/form-data; boundary=…` */
  readonly contentType: string;
  /** The body bytes. */
  readonly body: Uint8Array;
}

/**
 * Builds the multipart/form-data upload request of spec §4.2 (reading R14).
 *
 * What goes on the wire (form-data 4.x for the text parts, the same conventions for the file part):
 * - text parts: `Content-Disposition: form-data; name="…"` and no Content-Type header
 *   (form-data writes none for string values; S3-style receivers accept text parts
 *   either way), the value as UTF-8;
 * - the file part: `Content-Disposition: form-data; name="file"; filename="…"` and
 *   `Content-Type: <contentType>` (omitted when contentType is ""), then the bytes. Its
 *   header is written here rather than by form-data, because form-data would reduce the
 *   filename to its last path segment (`a/b.pdf` → `b.pdf`) and guess a content type
 *   from the extension when none is given;
 * - names and the filename are escaped as browsers and form-data do: CR, LF and `"`
 *   become `%0D`, `%0A`, `%22` (so `a"b.pdf` arrives as `a%22b.pdf`; the form check
 *   accepts that form); non-ASCII is written as raw UTF-8, which busboy reads with
 *   `defParamCharset: 'utf8'`. No `filename*` parameter is written.
 *
 * @param input - formFields, filename, contentType and the file
 * @param options - {@link UploadFormOptions}
 * @returns the Content-Type and the body
 * @throws {TypeError} when formFields is not a list of [string, string] pairs, a name,
 *   value, filename or contentType is not a string, or file is not a Uint8Array
 * @throws {RangeError} when the filename is empty; a name or the filename has a control
 *   character other than tab, CR and LF, two backslashes in a row or a trailing
 *   backslash; contentType has a control character; any text has a lone surrogate; the
 *   boundary option is not 1–70 allowed characters or occurs in the content
 * @example
 * const form = buildUploadForm({ formFields: [['key', 'k/1.pdf'], ['policy', 'P']],
 *   filename: 'a.pdf', contentType: 'application/pdf', file: utf8('%PDF') }, { boundary: 'b0' });
 * form.contentType // 'multipart/form-data; boundary=b0'
 */
export function buildUploadForm(input: UploadFormInput, options: UploadFormOptions = {}): UploadForm {
  checkInput(input);
  const file = Buffer.from(input.file.buffer, input.file.byteOffset, input.file.byteLength);
  const texts = [...input.formFields.flat(), input.filename, input.contentType];
  if (options.boundary !== undefined) {
    if (!BOUNDARY.test(options.boundary))
      throw new RangeError(
        `boundary must be 1–70 characters from 0-9 A-Z a-z ' + - . _; got ${JSON.stringify(options.boundary)}`,
      );
    if (occursIn(options.boundary, texts, file))
      throw new RangeError(`boundary ${JSON.stringify(options.boundary)} occurs in the form's content`);
    return assemble(input, file, options.boundary);
  }
  for (;;) {
    const form = assemble(input, file, undefined);
    if (!occursIn(form.boundary, texts, file)) return form;
  }
}

// --- internal ---

const BOUNDARY = /^[0-9A-Za-z'+\-._]{1,70}$/;

function assemble(
  input: UploadFormInput,
  file: Buffer,
  boundary: string | undefined,
): UploadForm & { readonly boundary: string } {
  const form: FormData = new (formData())();
  if (boundary !== undefined) form.setBoundary(boundary);
  const b = form.getBoundary();
  for (const [name, value] of input.formFields) form.append(name, value);
  form.append('file', file, { header: fileHeader(b, input.filename, input.contentType) });
  const body = form.getBuffer();
  return {
    contentType: `multipart/form-data; boundary=${b}`,
    body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    boundary: b,
  };
}

/**
 * The file part's delimiter and header, in form-data's layout (form-data adds no CRLF after a header that starts with
 * the delimiter).
 */
function fileHeader(boundary: string, filename: string, contentType: string): string {
  const disposition = `Content-Disposition: form-data; name="file"; filename="${escapeFormParam(filename)}"\r\n`;
  const type = contentType === '' ? '' : `Content-Type: ${contentType}\r\n`;
  return `--${boundary}\r\n${disposition}${type}\r\n`;
}

/**
 * Whether the boundary occurs anywhere in the content. Stricter than RFC 2046 (which
 * forbids only CRLF "--" boundary) because form-data also decides where to put CRLFs
 * by looking for the boundary at offset 2 of a string value.
 */
function occursIn(boundary: string, texts: readonly string[], file: Buffer): boolean {
  return texts.some((t) => t.includes(boundary)) || file.includes(boundary);
}

function checkInput(input: UploadFormInput): void {
  if (!Array.isArray(input.formFields)) throw new TypeError('formFields must be an array of [name, value] pairs');
  input.formFields.forEach((pair: unknown, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      throw new TypeError(`formFields[${i}] must be a [name, value] pair of strings`);
    }
    assertParamCarriable(`formFields name ${JSON.stringify(pair[0])}`, pair[0]);
    assertWellFormed(`formFields value of ${JSON.stringify(pair[0])}`, pair[1]);
  });
  if (typeof input.filename !== 'string') throw new TypeError('filename must be a string');
  if (input.filename === '')
    throw new RangeError('filename is empty: the file part must carry the file name (4.2, R14)');
  assertParamCarriable('filename', input.filename);
  if (typeof input.contentType !== 'string')
    throw new TypeError('contentType must be a string ("" when the credentials request gave none)');
  assertHeaderCarriable('contentType', input.contentType);
  if (!(input.file instanceof Uint8Array)) throw new TypeError('file must be a Uint8Array');
}
