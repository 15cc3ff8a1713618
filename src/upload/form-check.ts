/**
 * The upload address's check of a received form against what was issued (spec §3
 * "all formFields unchanged and the file part last", §4.2, §7; reading R14). Kit-internal:
 * the reference gateway's rule, not a protocol v1 operation. Outcomes are data,
 * discriminated on `kind`; {@link FORM_PROBLEMS} describes each kind once.
 * @module
 */
import { bytesEqual } from '../scheme/bytes.js';
import { reportedMediaType } from './content-type.js';
import { carriesParam } from './form-param.js';
import type { UploadFormInput } from './form.js';
import { MultipartError, parseMultipart, type MultipartPart } from './multipart.js';

/** Why an upload form is refused. `field` names the formFields entry concerned. */
export type FormProblem =
  | { readonly kind: 'malformed-multipart' }
  | { readonly kind: 'no-file-part' }
  | { readonly kind: 'extra-file-part' }
  | { readonly kind: 'file-not-last' }
  | { readonly kind: 'field-missing'; readonly field: string }
  | { readonly kind: 'field-changed'; readonly field: string }
  | { readonly kind: 'field-added'; readonly field: string }
  | { readonly kind: 'file-name' }
  | { readonly kind: 'file-content-type' }
  | { readonly kind: 'file-content' };

/** Kinds of {@link FormProblem}. */
export type FormProblemKind = FormProblem['kind'];

/**
 * The outcome of {@link checkUploadForm} and {@link checkUploadBody}. A valid form whose
 * text parts came in another order than issued says so (`reordered`): acceptable (R14),
 * recorded, never refused.
 */
export type FormCheckOutcome =
  | { readonly valid: true; readonly reordered?: true }
  | { readonly valid: false; readonly problem: FormProblem; readonly message: string };

/** What the kit says about one kind of {@link FormProblem}. */
export interface FormProblemInfo {
  readonly title: string;
  readonly description: string;
  /** Sections of the spec and readings the rule comes from. */
  readonly sources: readonly string[];
}

/**
 * Each kind of {@link FormProblem} with a title, a description and its sources, in the
 * order {@link checkUploadForm} checks them.
 * @example FORM_PROBLEMS['file-not-last'].title // 'File part not last'
 */
export const FORM_PROBLEMS: Readonly<Record<FormProblemKind, FormProblemInfo>> = Object.freeze({
  'malformed-multipart': {
    title: 'Malformed multipart body',
    description: 'The body or its Content-Type is not readable multipart/form-data.',
    sources: ['4.2'],
  },
  'no-file-part': {
    title: 'No file part',
    description: 'No part is named file and carries a filename.',
    sources: ['4.2', 'R14'],
  },
  'extra-file-part': {
    title: 'More than one file part',
    description: 'More than one part carries a filename; the form holds exactly one file part.',
    sources: ['4.2', 'R14'],
  },
  'file-not-last': {
    title: 'File part not last',
    description:
      'A part follows the file part. S3-style receivers ignore ' +
      'everything after the file, so the upload fails its conditions.',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-missing': {
    title: 'formFields entry missing',
    description: 'A formFields entry has no text part of that name before the file part.',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-changed': {
    title: 'formFields entry changed',
    description: 'A text part carries a value other than the one issued for its name.',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-added': {
    title: 'Part added',
    description: 'A text part has a name that is not in formFields, or repeats one.',
    sources: ['4.2', 'R14'],
  },
  'file-name': {
    title: 'File name changed',
    description: 'The file part carries a filename other than the one of the credentials request.',
    sources: ['4.2', 'R14'],
  },
  'file-content-type': {
    title: 'File content type changed',
    description: 'The file part carries a content type other than the one of the credentials request.',
    sources: ['4.2', 'R14'],
  },
  'file-content': {
    title: 'File content changed',
    description: 'The file part does not carry the file bytes.',
    sources: ['4.2'],
  },
});

/**
 * Checks the parts of a received upload against what was issued (spec §3, §4.2, §7;
 * reading R14) and reports the first problem, in the order of {@link FORM_PROBLEMS}:
 *
 * 1. `no-file-part` — no part named `file` carries a filename;
 * 2. `extra-file-part` — more than one part carries a filename (whatever its name);
 * 3. `file-not-last` — any part follows the file part;
 * 4. `field-missing` — the first formFields entry, in formFields order, with no text part of that name;
 * 5. `field-changed` — the first text part whose value differs from the value issued for its name;
 * 6. `field-added` — the first text part whose name is not in formFields, or repeats an earlier text part's name;
 * 7. `file-name`, 8. `file-content-type`, 9. `file-content` — the file part does not carry
 *    the filename, the content type or the bytes.
 *
 * Text parts in another order than issued are not a problem (R14: the spec's failures are
 * a file part not last and an entry missing or modified; S3-style policies do not depend on
 * order): the form is valid, with `reordered` set.
 *
 * Names and values are compared exactly, except that a name or filename may also arrive
 * escaped as browsers escape it (CR, LF, `"` as `%0D`, `%0A`, `%22`), the only way a
 * browser-style client can send those characters. The content type is compared as
 * busboy reports it (lower-case `type/subtype`, parameters dropped; RFC 9110 makes type
 * and subtype case-insensitive), against the issued contentType reduced the same way;
 * when the credentials request gave no contentType (`""`), any content type passes.
 *
 * @param issued - the issued formFields, the credentials request's filename and contentType, the file
 * @param parts - the received parts, in order ({@link parseMultipart})
 * @returns valid, or the first problem with a message
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
 * const r = checkUploadForm(
 *   {
 *     formFields: [
 *       ['key', 'k/1.pdf'],
 *       ['policy', 'P'],
 *       ['x-amz-date', '1'],
 *     ],
 *     filename: 'a.pdf',
 *     contentType: 'application/pdf',
 *     file: utf8('%PDF'),
 *   },
 *   await parseMultipart(form.body, form.contentType),
 * );
 * !r.valid && r.problem // e.g. { kind: 'field-missing', field: 'x-amz-date' }
 */
export function checkUploadForm(issued: UploadFormInput, parts: readonly MultipartPart[]): FormCheckOutcome {
  const fileAt = parts.findIndex((p) => p.kind === 'file' && p.name === 'file');
  const file = parts[fileAt];
  if (file === undefined || file.kind !== 'file')
    return refuse({ kind: 'no-file-part' }, 'no part named file carries a filename (4.2, R14)');

  const extra = parts.find((p, i) => p.kind === 'file' && i !== fileAt);
  if (extra)
    return refuse(
      { kind: 'extra-file-part' },
      `part ${JSON.stringify(extra.name)} is a second file part; the form holds one, named file (4.2, R14)`,
    );

  const after = parts[fileAt + 1];
  if (after) {
    return refuse(
      { kind: 'file-not-last' },
      `${parts.length - fileAt - 1} part(s) follow the file part, the first ` +
        `named ${JSON.stringify(after.name)}; the file part must be last (4.2, R14)`,
    );
  }

  const texts = parts.filter((p): p is Extract<MultipartPart, { kind: 'field' }> => p.kind === 'field');
  const issuedIndex = (name: string): number => issued.formFields.findIndex(([n]) => carriesParam(name, n));

  for (const [name] of issued.formFields) {
    if (!texts.some((t) => carriesParam(t.name, name))) {
      return refuse(
        { kind: 'field-missing', field: name },
        `formFields entry ${JSON.stringify(name)} has no text part before the file part (4.2, R14)`,
      );
    }
  }
  for (const t of texts) {
    const entry = issued.formFields[issuedIndex(t.name)];
    if (entry && t.value !== entry[1]) {
      return refuse(
        { kind: 'field-changed', field: entry[0] },
        `text part ${JSON.stringify(t.name)} carries a value other than the one issued (4.2, R14)`,
      );
    }
  }
  const seen = new Set<number>();
  for (const t of texts) {
    const at = issuedIndex(t.name);
    if (at < 0)
      return refuse(
        { kind: 'field-added', field: t.name },
        `text part ${JSON.stringify(t.name)} is not a formFields entry (R14: no other parts)`,
      );
    if (seen.has(at))
      return refuse(
        { kind: 'field-added', field: t.name },
        `text part ${JSON.stringify(t.name)} appears more than once (R14: no other parts)`,
      );
    seen.add(at);
  }
  const reordered = texts.some((t, i) => issuedIndex(t.name) !== i);

  if (!carriesParam(file.filename, issued.filename)) {
    return refuse(
      { kind: 'file-name' },
      `the file part's filename is ${JSON.stringify(file.filename)}, not ${JSON.stringify(issued.filename)} (4.2, R14)`,
    );
  }
  if (issued.contentType !== '') {
    const expected = reportedMediaType(issued.contentType);
    if (file.contentType !== expected) {
      return refuse(
        { kind: 'file-content-type' },
        `the file part's content type is ${file.contentType}, not ${expected} (4.2, R14)`,
      );
    }
  }
  if (!bytesEqual(file.data, issued.file)) {
    return refuse(
      { kind: 'file-content' },
      `the file part holds ${file.data.byteLength} bytes that are not the file's ${issued.file.byteLength} (4.2)`,
    );
  }
  return reordered ? { valid: true, reordered: true } : { valid: true };
}

/**
 * Reads a received body ({@link parseMultipart}) and checks it ({@link checkUploadForm}).
 * @param issued - the issued formFields, the credentials request's filename and contentType, the file
 * @param body - the request body as received
 * @param contentType - the request's Content-Type header value
 * @returns valid, or the first problem; `malformed-multipart` when the body is not readable multipart/form-data
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
 * const r = await checkUploadBody(
 *   {
 *     formFields: [
 *       ['key', 'k/1.pdf'],
 *       ['policy', 'P'],
 *     ],
 *     filename: 'a.pdf',
 *     contentType: 'application/pdf',
 *     file: utf8('%PDF'),
 *   },
 *   form.body,
 *   form.contentType,
 * );
 * r.valid // true — the client sent every entry unchanged (in any order, R14), then the file
 */
export async function checkUploadBody(
  issued: UploadFormInput,
  body: Uint8Array,
  contentType: string,
): Promise<FormCheckOutcome> {
  let parts: MultipartPart[];
  try {
    parts = await parseMultipart(body, contentType);
  } catch (e) {
    if (e instanceof MultipartError) return refuse({ kind: 'malformed-multipart' }, `${e.message} (4.2)`);
    throw e;
  }
  return checkUploadForm(issued, parts);
}

// --- internal ---

function refuse(problem: FormProblem, message: string): FormCheckOutcome {
  return { valid: false, problem, message };
}
